//! Integrity checker: every physical 4 KiB unit carries out-of-band metadata (the logical unit
//! and the write sequence number of the data in it), as real FTLs keep in the page spare area.
//! The checker holds the sequence number of the latest host write (or trim) of every logical
//! unit and verifies on every host read that the place the FTL serves it from carries exactly
//! that version: a lost (unmapped though written) or stale (older version) read is a violation.
//! GC, folding and wear levelling copy the metadata with the data; an erase clears it.
//! Cost: 4 B per physical unit + 4 B per logical unit of host memory, O(1) per access.

use super::layout::NONE;

/// Where the FTL served a read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Served {
    /// From flash or a buffer holding the data of physical unit `ppa`.
    At(u32),
    /// Never written, or trimmed: zeroes, no NAND access.
    Unmapped,
}

#[derive(Clone, Debug)]
pub struct Checker {
    /// Latest write sequence per logical unit; 0 = never written or trimmed.
    expected: Vec<u32>,
    /// Sequence number stored in each physical unit's spare area; 0 = erased / padding.
    oob_seq: Vec<u32>,
    next_seq: u32,
    pub checked: u64,
    pub violations: u64,
    /// The first violation, described (lpn, what was expected, what was found).
    pub first: Option<String>,
}

impl Checker {
    pub fn new(logical_units: u64, physical_units: u64) -> Checker {
        Checker {
            expected: super::bigvec::big_vec(logical_units as usize, 0),
            oob_seq: super::bigvec::big_vec(physical_units as usize, 0),
            next_seq: 0,
            checked: 0,
            violations: 0,
            first: None,
        }
    }

    /// A host write of `lpn` placed at `ppa`.
    #[inline]
    pub fn host_write(&mut self, lpn: u64, ppa: u32) {
        // Sequence numbers wrap after 2^32 - 1 writes; 0 is reserved for "none".
        self.next_seq = self.next_seq.wrapping_add(1).max(1);
        self.expected[lpn as usize] = self.next_seq;
        self.oob_seq[ppa as usize] = self.next_seq;
    }
    /// Warm-up speed: start fetching `lpn`'s expected-sequence entry (a hint, no effect).
    #[inline]
    pub fn prefetch_expected(&self, lpn: u64) {
        super::batch::prefetch(self.expected.as_ptr().wrapping_add(lpn as usize));
    }
    #[inline]
    pub fn trim(&mut self, lpn: u64) {
        self.expected[lpn as usize] = 0;
    }
    /// Data moved (GC, fold, wear levelling): the spare area travels with it.
    #[inline]
    pub fn copy(&mut self, from: u32, to: u32) {
        self.oob_seq[to as usize] = self.oob_seq[from as usize];
    }
    /// Erase of the units [first, first + n).
    pub fn erase(&mut self, first: u32, n: u32) {
        self.oob_seq[first as usize..(first + n) as usize].fill(0);
    }
    /// A host read of `lpn` served from `served`; `oob_lpn` is the lpn in that unit's spare area.
    #[inline]
    pub fn read(&mut self, lpn: u64, served: Served, oob_lpn: u32) {
        self.checked += 1;
        let want = self.expected[lpn as usize];
        let ok = match served {
            Served::Unmapped => want == 0,
            Served::At(ppa) => want != 0 && oob_lpn as u64 == lpn && self.oob_seq[ppa as usize] == want,
        };
        if !ok {
            self.violations += 1;
            if self.first.is_none() {
                let found = match served {
                    Served::Unmapped => "unmapped (lost data)".to_string(),
                    Served::At(ppa) => format!(
                        "ppa {ppa} holding lpn {} seq {}",
                        if oob_lpn == NONE { -1 } else { oob_lpn as i64 },
                        self.oob_seq[ppa as usize]
                    ),
                };
                self.first = Some(format!("read of lpn {lpn}: expected seq {want}, served {found}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_stale_and_lost_reads() {
        let mut c = Checker::new(4, 8);
        c.host_write(1, 3);
        c.host_write(1, 5);
        c.read(1, Served::At(5), 1);
        assert_eq!(c.violations, 0);
        c.read(1, Served::At(3), 1); // the older version
        assert_eq!(c.violations, 1);
        c.read(1, Served::Unmapped, NONE); // lost
        assert_eq!(c.violations, 2);
        c.copy(5, 7);
        c.erase(4, 2);
        c.read(1, Served::At(7), 1);
        c.read(1, Served::At(5), 1); // erased copy
        assert_eq!(c.violations, 3);
        c.trim(1);
        c.read(1, Served::Unmapped, NONE);
        c.read(2, Served::Unmapped, NONE);
        assert_eq!((c.violations, c.checked), (3, 7));
        assert!(c.first.as_deref().unwrap().contains("lpn 1"));
    }
}
