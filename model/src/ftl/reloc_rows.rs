//! Relocation's row path (`reloc.rs` picks it when mapping accesses have no effect beyond the
//! lookup: the whole table resident in DRAM and no map trace, as in the functional warm-up). A
//! victim's valid units come from the valid bitmap alone; each page row with valid units gets
//! one (multi-plane) read op, built from a per-victim template, and its units are copied into
//! the relocation block in offset order. The block table is updated once per program unit (the
//! relocation block) and once per victim (its valid count, its valid bits), not once per unit:
//! nothing between reads those counters, so the state and the op stream are those of the unit
//! path (a test compares both). GC's mapping updates, random stores into a table far larger
//! than the caches, are non-temporal (`batch::stream_store`): they skip reading the line first.
//! Source: MQSim GC/WL unit (Tavakkol et al., FAST'18); the bitmap walk is firmware's usual
//! per-block invalid-page bitmap.

use super::blocks::BlockInfo;
use super::layout::NONE;
use super::readahead::ReadAhead;
use super::unit_tables::{MapEntry, Oob};
use super::{Ftl, NandOp, OpPurpose};
use crate::nand::{CellMode, PhysPage};

/// The relocation block being filled: units `start..next` are copied but not yet booked in the
/// block table; `room` slots are left before its current program unit is full.
struct Dst {
    block: u32,
    start: u32,
    next: u32,
    room: u32,
}

impl Ftl {
    /// Moves the valid units of closed block `victim` (block-table entry `b`) into its die's
    /// relocation block, in offset order. Returns the units moved. Does not erase the victim.
    /// With ops built, the valid bitmap is walked a page row at a time (one read op per row with
    /// valid units); without (the warm-up calls), 64 units at a time.
    pub(super) fn relocate_rows(
        &mut self,
        victim: u32,
        b: BlockInfo,
        (read, write): (OpPurpose, OpPurpose),
        ops: &mut Vec<NandOp>,
    ) -> u64 {
        let die = self.l.die_of(victim);
        let (base, row) = (self.l.base(victim), self.l.row_units());
        // Every row read differs from this one only in page, first plane, planes and bytes.
        let tpl = self.l.read_op(victim, 0, (0, 0), 1, b.mode, read);
        let unit_bus = self.l.unit_bus_bytes();
        let step = if self.emit { row } else { 64 };
        // Opened when the first unit needs it, as the unit path does: opening a block earlier
        // (e.g. before this victim is erased and freed) could pick a different one.
        let mut dst = Dst {
            block: NONE,
            start: 0,
            next: 0,
            room: 0,
        };
        let mut moved = 0u64;
        for off in (0..b.staged).step_by(step as usize) {
            let (first, n) = (base + off, step.min(b.staged - off));
            self.debug_check_valid_bits(first, n);
            let mask = self.valid.row(first, n);
            if mask == 0 {
                continue;
            }
            if self.emit {
                // Offsets in a row run plane-major: the lowest and highest valid unit give the span.
                let (lo, hi) = (
                    self.l.plane_in_row(mask.trailing_zeros()),
                    self.l.plane_in_row(63 - mask.leading_zeros()),
                );
                let addr = PhysPage {
                    page: off / row,
                    plane: lo as u8,
                    ..tpl.addr
                };
                ops.push(NandOp {
                    addr,
                    planes: (hi - lo + 1) as u8,
                    bus_bytes: mask.count_ones() * unit_bus,
                    ..tpl
                });
            }
            moved += self.move_mask(first, mask, &mut dst, die, write, ops) as u64;
        }
        self.book(&mut dst, write, ops);
        let v = &mut self.blocks.info[victim as usize];
        assert_eq!(
            v.valid as u64, moved,
            "block {victim}: valid count disagrees with its valid bits"
        );
        v.valid = 0;
        if v.mode == CellMode::Slc {
            self.slc_valid_units -= moved;
        }
        self.valid.clear_range(base, b.staged);
        moved
    }

    /// Copies the units of `mask` (bit i: unit `first + i`) into `dst`, booking and programming
    /// each program unit they fill and opening the next. Returns the units copied.
    #[inline]
    fn move_mask(
        &mut self,
        first: u32,
        mask: u64,
        dst: &mut Dst,
        die: u32,
        purpose: OpPurpose,
        ops: &mut Vec<NandOp>,
    ) -> u32 {
        // Nothing held by the read-ahead buffer (always so in a warm-up): no per-unit lookups.
        let ra_live = !self.ra.is_empty();
        let (mut m, mut moved) = (mask, 0);
        while m != 0 {
            if dst.room == 0 {
                *dst = self.open_dst(die, ops);
            }
            let n = 64 - m.leading_zeros();
            let (src, to) = split(&mut self.oob, first, n, dst.next, dst.room);
            let (l2p, ra) = (&mut self.l2p[..], &mut self.ra);
            let k = if ra_live {
                copy_units::<true>(src, to, l2p, ra, first, &mut m, dst.next)
            } else {
                copy_units::<false>(src, to, l2p, ra, first, &mut m, dst.next)
            };
            dst.next += k;
            dst.room -= k;
            moved += k;
            if dst.room == 0 {
                self.book(dst, purpose, ops);
            }
        }
        moved
    }

    /// The next free slot of `die`'s relocation block (opening one if needed).
    #[inline]
    fn open_dst(&mut self, die: u32, ops: &mut Vec<NandOp>) -> Dst {
        let block = self.reloc_block(die, ops);
        let d = &self.blocks.info[block as usize];
        let pu = self.l.program_units(d.mode);
        let next = self.l.base(block) + d.staged;
        debug_assert!(
            d.staged >= d.programmed && d.staged < d.programmed + pu,
            "block {block}: staging past a program unit"
        );
        Dst {
            block,
            start: next,
            next,
            room: d.programmed + pu - d.staged,
        }
    }

    /// Books the units copied into `dst` and not yet booked (valid bits, counters) and programs
    /// its program unit if they filled it.
    fn book(&mut self, dst: &mut Dst, purpose: OpPurpose, ops: &mut Vec<NandOp>) {
        let n = dst.next - dst.start;
        if n == 0 {
            return;
        }
        dst.start = dst.next;
        self.valid.set_range(dst.next - n, n);
        let d = &mut self.blocks.info[dst.block as usize];
        d.valid += n;
        d.staged += n;
        d.last_write = self.clock;
        if d.mode == CellMode::Slc {
            self.slc_valid_units += n as u64;
        }
        if dst.room == 0 {
            self.program_unit(dst.block, purpose, ops);
        }
    }
}

/// Units [src, src + n) (read) and [dst, dst + room) (written) of the spare-area table: two
/// ranges in different blocks, so they never overlap.
#[inline]
fn split(oob: &mut [Oob], src: u32, n: u32, dst: u32, room: u32) -> (&[Oob], &mut [Oob]) {
    let (s, d) = (src as usize, dst as usize);
    assert!(
        s + n as usize <= d || d + room as usize <= s,
        "relocating [{src}, +{n}) onto [{dst}, +{room})"
    );
    if s < d {
        let (lo, hi) = oob.split_at_mut(d);
        (&lo[s..s + n as usize], &mut hi[..room as usize])
    } else {
        let (lo, hi) = oob.split_at_mut(s);
        (&hi[..n as usize], &mut lo[d..d + room as usize])
    }
}

/// Moves the units of `*m` (bit i: unit `first + i`, spare area `src[i]`), lowest first and at
/// most `to.len()` of them, to units `dst0..` (spare areas `to`): copies their spare areas,
/// stores their mapping entries (non-temporal, see the module doc), and with `RA` tells the
/// read-ahead buffer. Clears the moved units' bits from `*m`; returns how many moved.
#[inline(always)]
fn copy_units<const RA: bool>(
    src: &[Oob],
    to: &mut [Oob],
    l2p: &mut [MapEntry],
    ra: &mut ReadAhead,
    first: u32,
    m: &mut u64,
    dst0: u32,
) -> u32 {
    let mut k = 0;
    for slot in to.iter_mut() {
        if *m == 0 {
            break;
        }
        let i = m.trailing_zeros();
        *m &= *m - 1;
        let o = src[i as usize];
        debug_assert_eq!(slot.lpn(), NONE, "staging into a used slot {}", dst0 + k);
        *slot = o;
        let (word, v) = l2p[o.lpn() as usize].ppa_word(dst0 + k);
        super::batch::stream_store(word, v);
        if RA {
            ra.relocated(o.lpn() as u64, first + i, dst0 + k);
        }
        k += 1;
    }
    k
}
