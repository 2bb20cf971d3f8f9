//! The operation word the sequencer's command port takes (one page operation), packed into
//! [`OP_BITS`] bits. Plain Rust: hosts and test benches pack with [`pack_op`]; the way FSMs
//! unpack with `get_bits` at the offsets below. The behavioural model's `SeqOp` carries no
//! address; the HDL op adds the row address of plane 0 (plane `i` is addressed at
//! `row + i * plane_stride`) and the column (byte) address of its data in each plane's page: a
//! read's data out starts there (the column cycles of 00h-30h and of 06h-E0h), a program's data
//! in too (80h). A sequential cache read (kind 3) reads pages `row .. row + pages` (one plane)
//! with 31h/3Fh, each from column 0. A one-shot program (kind 1, 2-3 pages) loads pages
//! `row + k` of every plane, page by page (1Ah between pages, 10h after the last).

use ssdlab_model::nand::sequencer::MAX_ONE_SHOT_PAGES;
use ssdlab_model::nand::NandOpKind;

/// Width of the packed op word.
pub const OP_BITS: usize = 69;
/// `[1:0]` kind: 0 read, 1 program, 2 erase, 3 sequential cache read.
pub const KIND_LSB: usize = 0;
/// `[3:2]` planes minus one (1..=4 planes).
pub const PLANES_LSB: usize = 2;
/// `[27:4]` row address of plane 0 (block and page, 24 bits = 3 row address cycles).
pub const ROW_LSB: usize = 4;
/// `[43:28]` data cycles per plane at the PHY boundary (bytes per plane / bytes per cycle).
pub const DCYC_LSB: usize = 28;
/// `[59:44]` column: byte address of the data in each plane's page (the two column address
/// cycles, low byte first); 0 for an erase and a cache read.
pub const COL_LSB: usize = 44;
/// Bits of the op word the bus engine takes: every field below the page count, and the page
/// count's low two bits (a one-shot program's pages; a cache read's count stays in the way FSM).
pub const ENGINE_OP_BITS: usize = 62;
/// `[67:60]` pages minus one: a cache read's (2..=255 pages), a one-shot program's pages per
/// plane (2..=3, TLC: lower, middle, upper, each at its own row, the first's + k); 0 for every
/// other op.
pub const PAGES_LSB: usize = 60;
/// `[68]` region half: the op's data starts at the upper half of its way's page-buffer region
/// (`ssdlab_model::ctrl::page_buffer::half_region_bytes`) instead of at byte 0, so a way can
/// read into one half while the other half's data still moves to the host. Only the page
/// buffer reads it (`top::channel_buffer`); the sequencer ignores it.
pub const HALF_LSB: usize = 68;

pub const KIND_READ: u128 = 0;
pub const KIND_PROGRAM: u128 = 1;
pub const KIND_ERASE: u128 = 2;
pub const KIND_CACHE_READ: u128 = 3;

/// One page operation as the HDL sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HdlOp {
    pub kind: NandOpKind,
    /// 1..=4
    pub planes: u8,
    /// Row address of plane 0, < 2^24.
    pub row: u32,
    /// Data cycles per plane (cache read: per page), 1..=65535 (erase: ignored).
    pub data_cycles: u16,
    /// Pages: 1, 2..=255 for a sequential cache read (a single-plane read), or 2..=3 per plane
    /// for a one-shot program (data cycles are then per page and plane).
    pub pages: u8,
    /// Column (byte address in each plane's page) of the data; 0 for erases and cache reads.
    pub column: u16,
}

/// Packs an op into the command word; panics on out-of-range fields (caller bug).
pub fn pack_op(op: &HdlOp) -> u128 {
    assert!(
        (1..=4).contains(&op.planes),
        "planes must be 1..=4, got {}",
        op.planes
    );
    assert!(
        op.row < 1 << 24,
        "row address {:#x} exceeds 24 bits",
        op.row
    );
    assert!(
        op.kind == NandOpKind::Erase || op.data_cycles > 0,
        "a read or program moves at least one data cycle"
    );
    assert!(op.pages >= 1, "an op reads at least one page");
    assert!(
        op.column == 0 || (op.kind != NandOpKind::Erase && op.pages == 1),
        "erases and cache reads start at column 0"
    );
    assert!(
        op.pages == 1
            || (op.kind == NandOpKind::Read && op.planes == 1)
            || (op.kind == NandOpKind::Program && op.pages <= MAX_ONE_SHOT_PAGES),
        "only single-plane reads and one-shot programs (up to {MAX_ONE_SHOT_PAGES} pages) have \
         more than one page"
    );
    let kind = match op.kind {
        NandOpKind::Read if op.pages > 1 => KIND_CACHE_READ,
        NandOpKind::Read => KIND_READ,
        NandOpKind::Program => KIND_PROGRAM,
        NandOpKind::Erase => KIND_ERASE,
    };
    kind << KIND_LSB
        | ((op.planes as u128 - 1) << PLANES_LSB)
        | ((op.row as u128) << ROW_LSB)
        | ((op.data_cycles as u128) << DCYC_LSB)
        | ((op.column as u128) << COL_LSB)
        | ((op.pages as u128 - 1) << PAGES_LSB)
}

/// The op of a packed word, the inverse of [`pack_op`] (the region-half bit, which only the
/// page buffer reads, is not part of [`HdlOp`]).
pub fn unpack_op(w: u128) -> HdlOp {
    let field = |lsb: usize, bits: u32| ((w >> lsb) & ((1 << bits) - 1)) as u32;
    let kind = match kind_code(w) {
        KIND_PROGRAM => NandOpKind::Program,
        KIND_ERASE => NandOpKind::Erase,
        _ => NandOpKind::Read,
    };
    HdlOp {
        kind,
        planes: field(PLANES_LSB, 2) as u8 + 1,
        row: field(ROW_LSB, 24),
        data_cycles: field(DCYC_LSB, 16) as u16,
        pages: field(PAGES_LSB, 8) as u8 + 1,
        column: field(COL_LSB, 16) as u16,
    }
}

/// The kind field of a packed word: [`KIND_READ`], [`KIND_PROGRAM`], [`KIND_ERASE`] or
/// [`KIND_CACHE_READ`] ([`unpack_op`] makes a cache read a read of several pages).
pub fn kind_code(w: u128) -> u128 {
    (w >> KIND_LSB) & 3
}

/// Op word `w` with its data in the upper half of the way's region ([`HALF_LSB`]).
pub fn in_upper_half(w: u128) -> u128 {
    w | 1 << HALF_LSB
}

/// A packed op word as the command port's signal value.
pub fn op_bits(w: u128) -> rust_hdl::prelude::Bits<OP_BITS> {
    use rust_hdl::prelude::ToBits;
    w.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn fields_land_at_documented_offsets() {
        let w = pack_op(&HdlOp {
            kind: NandOpKind::Erase,
            planes: 2,
            row: 0xABCDEF,
            data_cycles: 0x1234,
            pages: 1,
            column: 0,
        });
        assert_eq!(w & 3, 2);
        assert_eq!((w >> 2) & 3, 1);
        assert_eq!((w >> 4) & 0xFF_FFFF, 0xABCDEF);
        assert_eq!(w >> 28, 0x1234);
        assert!(w < 1 << OP_BITS);
        let p = pack_op(&HdlOp {
            kind: NandOpKind::Read,
            planes: 1,
            row: 1,
            data_cycles: 1162,
            pages: 1,
            column: 13944,
        });
        assert_eq!(((p >> 44) & 0xFFFF, p >> 60), (13944, 0));
        assert_eq!(op_bits(p).get_bits::<16>(44).index(), 13944);
        assert!(op_bits(1 << 67).get_bit(67));
        assert_eq!(in_upper_half(p) ^ p, 1 << 68, "the half is bit 68 alone");
        assert!(in_upper_half(p) < 1 << OP_BITS);
        let c = pack_op(&HdlOp {
            kind: NandOpKind::Read,
            planes: 1,
            row: 7,
            data_cycles: 16,
            pages: 200,
            column: 0,
        });
        assert_eq!((c & 3, c >> 60), (3, 199));
    }

    #[test]
    fn unpack_inverts_pack() {
        let ops = [
            (NandOpKind::Erase, 2, 0xABCDEF, 0, 1, 0),
            (NandOpKind::Read, 1, 1, 1162, 1, 13944),
            (NandOpKind::Read, 1, 7, 16, 200, 0),
            (NandOpKind::Program, 4, 0x80_0001, 4648, 3, 0),
        ];
        for (kind, planes, row, data_cycles, pages, column) in ops {
            let op = HdlOp {
                kind,
                planes,
                row,
                data_cycles,
                pages,
                column,
            };
            assert_eq!(unpack_op(pack_op(&op)), op);
            assert_eq!(unpack_op(in_upper_half(pack_op(&op))), op);
        }
    }
}

#[cfg(test)]
mod offsets {
    /// The kernels of `bus_engine` and `way_fsm` use these offsets as literals.
    #[test]
    fn kernel_literals_match_layout() {
        assert_eq!(
            (
                super::KIND_LSB,
                super::PLANES_LSB,
                super::ROW_LSB,
                super::DCYC_LSB,
                super::COL_LSB,
                super::PAGES_LSB,
                super::HALF_LSB
            ),
            (0, 2, 4, 28, 44, 60, 68)
        );
        assert_eq!(
            super::ENGINE_OP_BITS,
            super::PAGES_LSB + 2,
            "the engine takes every field below the page count and its low two bits"
        );
    }
}
