//! Integrity checker: every physical 4 KiB unit carries out-of-band metadata (the logical unit
//! and the write sequence number of the data in it), as real FTLs keep in the page spare area.
//! The checker numbers every host write, the mapping entry of each logical unit keeps the number
//! of its latest write (0 after a trim), and every host read verifies that the place the FTL
//! serves it from carries exactly that version: a lost (unmapped though written) or stale (older
//! version) read is a violation. GC, folding and wear levelling copy the metadata with the data;
//! an erase clears it. The numbers live in the FTL's own tables ([`MapEntry::seq`] beside the
//! mapping, [`Oob::seq`] beside the spare-area lpn), so checking costs no extra cache miss.
//! Cost: 4 B per physical unit + 4 B per logical unit of host memory, O(1) per access.
//!
//! Across a power loss (`Ftl::power_loss`) the checker holds the durability contract: it learns
//! from the drive which programs completed (`Ftl::nand_done`) and keeps, for every logical unit
//! whose latest version is not yet on NAND (staged in the write buffer, a program queued or
//! running, a trim whose journal page is not programmed), the newest version that is
//! ([`Checker::volatile`]). After the mount every such unit must come back at least that new
//! and no newer than its latest write, every other unit exactly at its latest version, and
//! every mapped unit's spare area must hold the unit and version claimed (never garbage). Writes
//! acknowledged before a completed flush had their programs completed (CONTRACTS: a flush
//! completes after every host-data program dispatched before it), so they are never volatile.

use super::layout::NONE;
use super::unit_tables::{MapEntry, Oob};
use rustc_hash::FxHashMap as HashMap;

/// Where the FTL served a read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Served {
    /// From flash or a buffer holding the data of physical unit `ppa`.
    At(u32),
    /// Never written, or trimmed: zeroes, no NAND access.
    Unmapped,
}

#[derive(Clone, Debug, Default)]
pub struct Checker {
    next_seq: u32,
    pub checked: u64,
    pub violations: u64,
    /// The first violation, described (lpn, what was expected, what was found).
    pub first: Option<String>,
    /// Logical units whose latest version is not durable -> the newest durable version (0:
    /// none). Kept only while the drive reports NAND completions (`Ftl::track_durability`).
    pub volatile: HashMap<u64, u32>,
    pub tracking: bool,
    /// One bit per logical unit: its latest version is a numbered trim (durability tracking
    /// numbers trims like writes), so an unmapped entry with a version is expected there and
    /// nowhere else: a written unit whose mapping update was lost is unmapped with a write's
    /// version and must count as lost data. Allocated at the first numbered trim.
    trimmed: Vec<u64>,
}

impl Checker {
    pub fn new() -> Checker {
        Checker::default()
    }

    /// A host write of `lpn` placed at `ppa`: numbers it in both places.
    #[inline]
    pub fn host_write(&mut self, map: &mut [MapEntry], oob: &mut [Oob], lpn: u64, ppa: u32) {
        let seq = self.number();
        map[lpn as usize].seq = seq;
        oob[ppa as usize].seq = seq;
    }
    /// `lpn`'s latest version is a numbered trim (`units`: logical units of the drive).
    #[inline]
    pub fn numbered_trim(&mut self, lpn: u64, units: u64) {
        if self.trimmed.is_empty() {
            self.trimmed = vec![0; units.div_ceil(64) as usize];
        }
        self.trimmed[(lpn / 64) as usize] |= 1 << (lpn % 64);
    }
    /// `lpn`'s latest version is a write (clears a numbered trim).
    #[inline]
    pub fn written(&mut self, lpn: u64) {
        if let Some(w) = self.trimmed.get_mut((lpn / 64) as usize) {
            *w &= !(1 << (lpn % 64));
        }
    }
    fn is_trimmed(&self, lpn: u64) -> bool {
        self.trimmed
            .get((lpn / 64) as usize)
            .is_some_and(|w| w & (1 << (lpn % 64)) != 0)
    }
    /// The sequence number of the next host write (the FTL's write path stores it in the mapping
    /// entry and the spare area itself, with the ppa and lpn beside it).
    #[inline]
    pub fn number(&mut self) -> u32 {
        // Sequence numbers wrap after 2^32 - 1 writes; 0 is reserved for "none".
        self.next_seq = self.next_seq.wrapping_add(1).max(1);
        self.next_seq
    }
    #[inline]
    pub fn trim(map: &mut [MapEntry], lpn: u64) {
        map[lpn as usize] = MapEntry::new(NONE, 0);
    }

    /// `lpn`'s latest version (`map[lpn]`, about to be replaced) stops being the one on NAND:
    /// remembers it as the floor unless an older durable version is remembered already.
    #[inline]
    pub fn superseded(&mut self, map: &[MapEntry], lpn: u64) {
        if self.tracking {
            let cur = map[lpn as usize].seq;
            self.volatile.entry(lpn).or_insert(cur);
        }
    }

    /// Version `seq` of `lpn` reached NAND (its program completed, or its trim's journal page).
    pub fn durable(&mut self, map: &[MapEntry], lpn: u64, seq: u32) {
        if let Some(f) = self.volatile.get_mut(&lpn) {
            if seq >= map[lpn as usize].seq {
                self.volatile.remove(&lpn);
            } else if seq > *f {
                *f = seq;
            }
        }
    }

    /// After a power loss: `old` was the mapping before, `new` what the mount rebuilt; checks
    /// every logical unit against the contract (see the module doc; with power-loss protection,
    /// `plp`, every unit at its latest version but a trim not journaled) and forgets the
    /// volatile set.
    pub fn verify_mount(&mut self, old: &[MapEntry], new: &[MapEntry], oob: &[Oob], plp: bool) {
        for (lpn, (o, n)) in old.iter().zip(new).enumerate() {
            self.checked += 1;
            // With power-loss protection every acknowledged write is on NAND; a trim is only
            // through the journal, so one not journaled keeps its floor with PLP too.
            let trim = o.ppa() == NONE && o.seq != 0;
            let floor = if plp && !trim {
                None
            } else {
                self.volatile.get(&(lpn as u64)).copied()
            };
            // A unit whose latest version is a trim reads as unmapped: unmapped after the mount
            // is that version, whatever the sequence (the copy the trim superseded may have
            // been erased before the trim's journal record reached NAND).
            let version_ok = (trim && n.ppa() == NONE)
                || match floor {
                    None => n.seq == o.seq && (n.ppa() == NONE) == (o.ppa() == NONE),
                    Some(f) => n.seq >= f && n.seq <= o.seq,
                };
            let intact = n.ppa() == NONE || {
                let u = oob[n.ppa() as usize];
                u.lpn() as usize == lpn && u.seq == n.seq
            };
            if !(version_ok && intact) {
                self.violations += 1;
                if self.first.is_none() {
                    self.first =
                        Some(format!(
                        "after power loss, lpn {lpn}: latest seq {} (durable floor {}), recovered \
                         seq {} at ppa {}{}",
                        o.seq,
                        floor.map_or("= latest".to_string(), |f| f.to_string()),
                        n.seq,
                        n.ppa() as i64 * (n.ppa() != NONE) as i64 - (n.ppa() == NONE) as i64,
                        if intact { "" } else { " whose spare area holds other data" }
                    ));
                }
            }
        }
        // Units the mount brought back as a numbered trim read as unmapped from now on.
        for (lpn, n) in new.iter().enumerate() {
            if n.ppa() == NONE && n.seq != 0 {
                self.numbered_trim(lpn as u64, new.len() as u64);
            }
        }
        self.volatile.clear();
    }
    /// Data moved (GC, fold, wear levelling): the spare area travels with it.
    #[inline]
    pub fn copy(oob: &mut [Oob], from: u32, to: u32) {
        oob[to as usize].seq = oob[from as usize].seq;
    }
    /// A host read of `lpn` served from `served`.
    #[inline]
    pub fn read(&mut self, map: &[MapEntry], oob: &[Oob], lpn: u64, served: Served) {
        self.checked += 1;
        let want = map[lpn as usize].seq;
        let mapped = map[lpn as usize].ppa() != NONE;
        let ok = match served {
            // Never written (version 0), or a numbered trim; a write's version unmapped is lost.
            Served::Unmapped => !mapped && (want == 0 || self.is_trimmed(lpn)),
            Served::At(ppa) => {
                let o = oob[ppa as usize];
                mapped && want != 0 && o.lpn() as u64 == lpn && o.seq == want
            }
        };
        if !ok {
            self.violation(lpn, want, served, oob);
        }
    }

    #[cold]
    fn violation(&mut self, lpn: u64, want: u32, served: Served, oob: &[Oob]) {
        self.violations += 1;
        if self.first.is_none() {
            let found = match served {
                Served::Unmapped => "unmapped (lost data)".to_string(),
                Served::At(ppa) => {
                    let o = oob[ppa as usize];
                    format!(
                        "ppa {ppa} holding lpn {} seq {}",
                        if o.lpn() == NONE { -1 } else { o.lpn() as i64 },
                        o.seq
                    )
                }
            };
            self.first = Some(format!(
                "read of lpn {lpn}: expected seq {want}, served {found}"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::unit_tables::{ERASED, UNMAPPED};
    use super::*;

    #[test]
    fn detects_stale_and_lost_reads() {
        let (mut map, mut oob) = ([UNMAPPED; 4], [ERASED; 8]);
        let mut c = Checker::new();
        // The FTL's part: the spare area holds the lpn, the mapping the latest location.
        let write = |c: &mut Checker, map: &mut [MapEntry], oob: &mut [Oob], lpn: u64, ppa: u32| {
            c.host_write(map, oob, lpn, ppa);
            oob[ppa as usize].set_lpn(lpn as u32);
            map[lpn as usize].set_ppa(ppa);
        };
        write(&mut c, &mut map, &mut oob, 1, 3);
        write(&mut c, &mut map, &mut oob, 1, 5);
        c.read(&map, &oob, 1, Served::At(5));
        assert_eq!(c.violations, 0);
        c.read(&map, &oob, 1, Served::At(3)); // the older version
        assert_eq!(c.violations, 1);
        c.read(&map, &oob, 1, Served::Unmapped); // lost
        assert_eq!(c.violations, 2);
        Checker::copy(&mut oob, 5, 7);
        oob[7].set_lpn(1);
        oob[4..6].fill(ERASED); // erase
        c.read(&map, &oob, 1, Served::At(7));
        c.read(&map, &oob, 1, Served::At(5)); // erased copy
        assert_eq!(c.violations, 3);
        Checker::trim(&mut map, 1);
        c.read(&map, &oob, 1, Served::Unmapped);
        c.read(&map, &oob, 2, Served::Unmapped);
        assert_eq!((c.violations, c.checked), (3, 7));
        assert!(c.first.as_deref().unwrap().contains("lpn 1"));
    }
}
