//! PRP walking (NVM Express Base Specification 1.4, section 4.3 "Physical Region Page Entry and
//! List"): PRP1 may carry a dword-aligned offset; a transfer ending in the second memory page
//! uses PRP2 as a second entry; a longer one uses PRP2 as a PRP list pointer whose last entry in
//! each list page chains to the next list page. Entries after the first must have offset 0,
//! else the command completes with PRP Offset Invalid (13h, Figure 126).
//!
//! The memory page size is CC.MPS = 4 KiB (the only size CAP.MPSMIN/MPSMAX advertise).

use crate::encoding::nvme::Status;

/// Memory page size (CC.MPS = 0).
pub const PAGE_BYTES: u64 = 4096;

/// Largest transfer: MDTS = 5 (Identify Controller byte 77) → 2^5 × 4 KiB = 128 KiB. A longer
/// command, a zero length or one that is not whole dwords is Invalid Field in Command (02h).
pub const MAX_TRANSFER_BYTES: u32 = 128 * 1024;

/// List pages followed for one command. Any well-formed list for a 128 KiB transfer (at most 32
/// entries after PRP1, at least one per list page) fits in 32 pages; a chain longer than that
/// (e.g. pages holding only a chain pointer) ends with PRP Offset Invalid (13h), as in the HDL.
pub const MAX_LIST_PAGES: usize = 32;

/// The result of a PRP walk: the list reads made, then the data segments in transfer order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrpWalk {
    /// PRP list reads (address, bytes), each within one list page, before splitting to MRRS.
    pub list_reads: Vec<(u64, u32)>,
    /// Host memory segments (address, bytes), each within one memory page.
    pub segments: Vec<(u64, u32)>,
}

fn page_off(a: u64) -> u64 {
    a % PAGE_BYTES
}

/// Walks the PRPs of a `len`-byte transfer. `read_list(addr, bytes)` fetches PRP list bytes
/// from host memory (the caller turns it into MRd TLPs and accounts their time).
pub fn walk(
    prp1: u64,
    prp2: u64,
    len: u32,
    read_list: impl FnMut(u64, u32) -> Vec<u8>,
) -> Result<PrpWalk, Status> {
    let mut walk = PrpWalk::default();
    walk_into(prp1, prp2, len, read_list, &mut walk)?;
    Ok(walk)
}

/// [`walk`] into `walk` (cleared first), so a caller that walks once per data move reuses
/// its buffers.
pub fn walk_into(
    prp1: u64,
    prp2: u64,
    len: u32,
    mut read_list: impl FnMut(u64, u32) -> Vec<u8>,
    walk: &mut PrpWalk,
) -> Result<(), Status> {
    walk.list_reads.clear();
    walk.segments.clear();
    if len == 0 || !len.is_multiple_of(4) || len > MAX_TRANSFER_BYTES {
        return Err(Status::INVALID_FIELD);
    }
    if prp1 & 0x3 != 0 {
        return Err(Status::PRP_OFFSET_INVALID);
    }
    let first = (PAGE_BYTES - page_off(prp1)).min(len as u64) as u32;
    walk.segments.push((prp1, first));
    let mut rest = len - first;
    if rest == 0 {
        return Ok(());
    }
    let pages_left = (rest as u64).div_ceil(PAGE_BYTES);
    if pages_left == 1 {
        if page_off(prp2) != 0 {
            return Err(Status::PRP_OFFSET_INVALID);
        }
        walk.segments.push((prp2, rest));
        return Ok(());
    }
    // PRP2 is a list pointer: qword aligned, entries run to the end of its page.
    if prp2 & 0x7 != 0 {
        return Err(Status::PRP_OFFSET_INVALID);
    }
    let mut ptr = prp2;
    let mut needed = pages_left;
    for _ in 0..MAX_LIST_PAGES {
        let in_page = (PAGE_BYTES - page_off(ptr)) / 8;
        let chained = needed > in_page;
        let count = if chained { in_page } else { needed };
        let bytes = (count * 8) as u32;
        walk.list_reads.push((ptr, bytes));
        let data = read_list(ptr, bytes);
        assert_eq!(
            data.len(),
            bytes as usize,
            "host returned a short PRP list read"
        );
        let data_entries = if chained { count - 1 } else { count };
        for i in 0..data_entries as usize {
            let e = u64::from_le_bytes(data[8 * i..8 * i + 8].try_into().expect("8 bytes"));
            if page_off(e) != 0 {
                return Err(Status::PRP_OFFSET_INVALID);
            }
            let n = (rest as u64).min(PAGE_BYTES) as u32;
            walk.segments.push((e, n));
            rest -= n;
        }
        needed -= data_entries;
        if !chained {
            assert_eq!(rest, 0, "PRP walk ended with {rest} bytes undescribed");
            return Ok(());
        }
        let c = u64::from_le_bytes(data[bytes as usize - 8..].try_into().expect("8 bytes"));
        if c & 0x7 != 0 {
            return Err(Status::PRP_OFFSET_INVALID);
        }
        ptr = c;
    }
    // The last list page allowed still chained: a degenerate chain (see MAX_LIST_PAGES).
    Err(Status::PRP_OFFSET_INVALID)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nvme::frontend::tlp::split_aligned;

    fn list_at(entries: &[u64]) -> impl FnMut(u64, u32) -> Vec<u8> + '_ {
        // The list page lives at 0x9000; entries are indexed from the read address.
        move |addr, bytes| {
            let first = ((addr - 0x9000) / 8) as usize;
            let n = bytes as usize / 8;
            entries[first..first + n]
                .iter()
                .flat_map(|e| e.to_le_bytes())
                .collect()
        }
    }

    #[test]
    fn one_and_two_page_transfers_use_no_list() {
        let w = walk(0x1000_0800, 0, 2048, |_, _| panic!("no list")).unwrap();
        assert_eq!(w.segments, vec![(0x1000_0800, 2048)]);
        let w = walk(0x1000_0800, 0x2000_0000, 4096, |_, _| panic!("no list")).unwrap();
        assert_eq!(w.segments, vec![(0x1000_0800, 2048), (0x2000_0000, 2048)]);
        assert_eq!(
            walk(0x1000_0800, 0x2000_0100, 4096, |_, _| vec![]),
            Err(Status::PRP_OFFSET_INVALID)
        );
        assert_eq!(
            walk(0x1000_0802, 0, 8, |_, _| vec![]),
            Err(Status::PRP_OFFSET_INVALID)
        );
    }

    /// 128 KiB at PRP1 offset 0x200: 3584 B in the first page, 31 full pages, 512 B in a 33rd
    /// page; PRP2 points to a list of 32 entries (256 B). Split into MRRS 512 reads:
    /// 3584/512 = 7, 31 * 4096/512 = 248, 512/512 = 1 → 256 MRd. Into MPS 256 writes:
    /// 14 + 496 + 2 = 512 MWr.
    #[test]
    fn prp_list_128k_at_unaligned_offset_counts_by_hand() {
        let entries: Vec<u64> = (0..32).map(|i| 0x10_0000 + 0x1000 * i).collect();
        let w = walk(0x5_0200, 0x9000, 128 * 1024, list_at(&entries)).unwrap();
        assert_eq!(w.list_reads, vec![(0x9000, 256)]);
        assert_eq!(w.segments.len(), 33);
        assert_eq!(w.segments[0], (0x5_0200, 3584));
        assert_eq!(w.segments[32], (0x10_0000 + 0x1000 * 31, 512));
        let (mut rd, mut wr) = (Vec::new(), Vec::new());
        for &(a, n) in &w.segments {
            split_aligned(a, n, 512, &mut rd);
            split_aligned(a, n, 256, &mut wr);
        }
        assert_eq!(rd.len(), 256);
        assert_eq!(wr.len(), 512);
        assert_eq!(rd.iter().map(|r| r.1 as u64).sum::<u64>(), 131_072);
    }

    /// Offset 0x10: 4080 B in page one (496 + 7 * 512 → 8 MRd), 31 full pages (248 MRd), 16 B in
    /// a 33rd page (1 MRd) → 257 MRd.
    #[test]
    fn prp_offset_16_gives_257_reads() {
        let entries: Vec<u64> = (0..32).map(|i| 0x10_0000 + 0x1000 * i).collect();
        let w = walk(0x5_0010, 0x9000, 128 * 1024, list_at(&entries)).unwrap();
        let mut rd = Vec::new();
        for &(a, n) in &w.segments {
            split_aligned(a, n, 512, &mut rd);
        }
        assert_eq!(rd.len(), 257);
        assert_eq!(rd[0], (0x5_0010, 496));
    }

    /// A list pointer 16 bytes before the end of its page holds 2 entries: one data entry and a
    /// chain pointer to the next list page (section 4.3, Figure 108).
    #[test]
    fn list_chains_at_page_end() {
        // 4 pages after the first: entries at 0x9FF0 (data), 0x9FF8 (chain → 0x9000 + 0x20).
        let mut entries = vec![0u64; 512];
        entries[510] = 0x20_0000;
        entries[511] = 0x9020;
        entries[4] = 0x21_0000;
        entries[5] = 0x22_0000;
        entries[6] = 0x23_0000;
        let w = walk(0x5_0000, 0x9FF0, 5 * 4096, list_at(&entries)).unwrap();
        assert_eq!(w.list_reads, vec![(0x9FF0, 16), (0x9020, 24)]);
        let pages: Vec<u64> = w.segments.iter().map(|s| s.0).collect();
        assert_eq!(
            pages,
            vec![0x5_0000, 0x20_0000, 0x21_0000, 0x22_0000, 0x23_0000]
        );
        entries[5] = 0x22_0040;
        assert_eq!(
            walk(0x5_0000, 0x9FF0, 5 * 4096, list_at(&entries)),
            Err(Status::PRP_OFFSET_INVALID)
        );
    }

    /// Host input the walk screens instead of panicking: length 0, not whole dwords, or above
    /// MDTS (128 KiB) → 02h with no list read; a chain of list pages that each hold only the
    /// chain pointer (entry at offset 0xFF8 pointing at the next page's 0xFF8) is followed for
    /// MAX_LIST_PAGES = 32 pages (32 reads of 8 B at 0x9FF8, 0xAFF8, ...) and then ends with 13h.
    #[test]
    fn bad_lengths_and_pointer_only_chains_end_with_a_status() {
        for len in [0, 6, 128 * 1024 + 4] {
            let r = walk(0x5_0000, 0x9000, len, |_, _| {
                panic!("no list read for length {len}")
            });
            assert_eq!(r, Err(Status::INVALID_FIELD), "length {len}");
        }
        let mut reads = Vec::new();
        let r = walk(0x5_0000, 0x9FF8, 3 * 4096, |addr, bytes| {
            reads.push((addr, bytes));
            (addr + 0x1000).to_le_bytes().to_vec()
        });
        assert_eq!(r, Err(Status::PRP_OFFSET_INVALID));
        let want: Vec<(u64, u32)> = (0..32u64).map(|k| (0x9FF8 + k * 0x1000, 8)).collect();
        assert_eq!(reads, want);
    }
}
