//! The firmware's share-out of each way's page-buffer region (docs/hdl.md, "Page buffer";
//! `ssdlab_hdl::top::channel_buffer`): a region has two halves, the upper one from
//! `ssdlab_model::ctrl::page_buffer::half_region_bytes`. A host read whose data fits half a
//! region takes a free half from its start until its data has left for the host, so a way reads
//! into one half while the other half's data still leaves, as a drive frees a die once the
//! data is out of it (the drive's data goes on to DRAM; the datapath's waits in the page
//! buffer). A host program whose data fits half a region takes a free half from its fill until
//! it completes, so the next program's data moves into the other half while the way programs
//! (the drive's DRAM write buffer does the same for its dies). A free half may be reserved for
//! the open program unit (`super::open_unit`) until its program takes it. A read-ahead prefetch
//! takes a free half from its read until the firmware releases it (`super::prefetch`). Every
//! other data op (a
//! relocation read or program, an op larger than half) uses the whole region from byte 0 and
//! waits until neither half is held. An erase moves no data and waits for nothing here.

use super::super::jobs::Job;
use ssdlab_hdl::nand::op::in_upper_half;
use ssdlab_model::nand::NandOpKind;

/// The part of its way's region a job's data takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// No data (an erase).
    Nothing,
    /// The whole region, from byte 0.
    Whole,
    /// Half `h` (0: from byte 0, 1: from the upper half).
    Half(u8),
}

/// Per way, the host read each half holds, from its start until its data has left: the job
/// and its moves left.
pub struct Regions {
    half_bytes: u32,
    held: Vec<[Option<(Job, usize)>; 2]>,
    /// Per way, the half reserved for the open program unit (`super::open_unit`): host data
    /// moves into it before its program is planned.
    reserved: Vec<Option<u8>>,
}

impl Regions {
    /// `ways` regions whose upper halves start at byte `half_bytes`.
    pub fn new(ways: usize, half_bytes: u32) -> Regions {
        Regions {
            half_bytes,
            held: vec![[None, None]; ways],
            reserved: vec![None; ways],
        }
    }

    /// Reserves a free half of way `w`'s region for its open program unit, if one is free and
    /// the way has no half reserved yet.
    pub fn reserve(&mut self, w: usize) -> Option<u8> {
        if self.reserved[w].is_some() {
            return None;
        }
        let h = (0..2u8).find(|&h| self.free(w, h))?;
        self.reserved[w] = Some(h);
        Some(h)
    }

    /// The open unit's program `j` of way `w` takes the half reserved for it.
    pub fn place_reserved(&mut self, w: usize, j: Job) -> Job {
        let h = self.reserved[w]
            .take()
            .expect("the open unit's program has its half reserved");
        self.place(w, j, Use::Half(h))
    }

    fn free(&self, w: usize, h: u8) -> bool {
        self.held[w][h as usize].is_none() && self.reserved[w] != Some(h)
    }

    /// Job `j` uses the whole region (not an erase, and neither host data nor a prefetch that
    /// fits half).
    pub fn needs_whole(&self, j: &Job) -> bool {
        let half_user = !j.moves.is_empty() || j.prefetch.is_some();
        j.kind != NandOpKind::Erase && (!half_user || j.bytes > self.half_bytes)
    }

    /// Where job `j` of way `w` may put its data now; `None`: it must wait for a half.
    pub fn claim(&self, w: usize, j: &Job) -> Option<Use> {
        if j.kind == NandOpKind::Erase {
            Some(Use::Nothing)
        } else if self.needs_whole(j) {
            (self.free(w, 0) && self.free(w, 1)).then_some(Use::Whole)
        } else {
            (0..2u8).find(|&h| self.free(w, h)).map(Use::Half)
        }
    }

    /// Job `j` of way `w` placed as `u`: its op word and data moves in that part of the
    /// region, and a half it takes held: a read's until its moves are done
    /// ([`Regions::drained`]), a program's until it completes ([`Regions::programmed`]).
    pub fn place(&mut self, w: usize, j: Job, u: Use) -> Job {
        let j = match u {
            Use::Half(1) => Job {
                op: in_upper_half(j.op),
                moves: j.moves.shifted(self.half_bytes),
                ..j
            },
            _ => j,
        };
        if let Use::Half(h) = u {
            let slot = &mut self.held[w][h as usize];
            assert!(slot.is_none(), "way {w} half {h} holds one op at a time");
            let left = match j.kind {
                NandOpKind::Read => j.moves.runs().count(),
                _ => 1,
            };
            *slot = Some((j, left));
        }
        j
    }

    /// The half job `j` of way `w` holds, if it holds one (a whole-region job holds none).
    fn half_of(&self, w: usize, j: &Job) -> Option<usize> {
        self.held[w].iter().position(|s| {
            s.is_some_and(|(h, _)| h.kind == j.kind && h.op == j.op && h.cmd == j.cmd)
        })
    }

    /// Job `j` of way `w` holds a half (a whole-region job holds none: nothing may join it).
    pub fn in_half(&self, w: usize, j: &Job) -> bool {
        self.half_of(w, j).is_some()
    }

    /// Program `j` of way `w` completed: frees the half it holds; false if it holds none (a
    /// whole-region program) or `j` is no program.
    pub fn programmed(&mut self, w: usize, j: &Job) -> bool {
        let half = self.half_of(w, j).filter(|_| j.kind == NandOpKind::Program);
        if let Some(h) = half {
            self.held[w][h] = None;
        }
        half.is_some()
    }

    /// One move of half `h` of way `w` is done (the last frees the half); false if the half
    /// held no read.
    pub fn drained(&mut self, w: usize, h: u8) -> bool {
        let slot = &mut self.held[w][h as usize];
        match slot {
            Some((j, _)) if j.kind != NandOpKind::Read || j.prefetch.is_some() => return false,
            Some((_, left)) if *left > 1 => *left -= 1,
            Some(_) => *slot = None,
            None => return false,
        }
        true
    }

    /// Half `h` of way `w`, held by a prefetch (`super::prefetch`) until now, is free.
    pub fn release(&mut self, w: usize, h: u8) {
        let slot = &mut self.held[w][h as usize];
        assert!(
            slot.is_some_and(|(j, _)| j.prefetch.is_some()),
            "way {w} half {h} released by no prefetch"
        );
        *slot = None;
    }

    /// No half of any way is held but by prefetches (which [`Regions::release`] frees; a
    /// reservation with no op yet holds none).
    pub fn is_empty(&self) -> bool {
        self.held
            .iter()
            .flatten()
            .all(|s| s.is_none_or(|(j, _)| j.prefetch.is_some()))
    }

    /// Bytes from a region's start to its upper half.
    pub fn half_bytes(&self) -> u32 {
        self.half_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cosim::datapath::jobs::Moves;

    fn job(kind: NandOpKind, bytes: u32, moves: Moves) -> Job {
        Job {
            cmd: 0,
            channel: 0,
            way: 0,
            op: 0,
            kind,
            array_cycles: 0,
            moves,
            bytes,
            prefetch: None,
            ready: 0,
        }
    }

    /// A read of one 4 KiB unit (4096 + 552 B of spare share on the bus) in a region of 16 KiB:
    /// half 0, then half 1 while half 0 is held, then nothing free; a program and a read of
    /// 9 KiB (over the 8 KiB half: whole region) wait until both halves are free; an erase
    /// waits for none.
    #[test]
    fn reads_take_a_free_half_and_whole_region_ops_wait_for_both() {
        let mut r = Regions::new(1, 8192);
        let one = Moves::one(0, 0x1000, 7);
        let read = job(NandOpKind::Read, 4648, one);
        assert_eq!(r.claim(0, &read), Some(Use::Half(0)));
        assert_eq!(r.place(0, read, Use::Half(0)), read, "half 0: as planned");
        assert_eq!(r.claim(0, &read), Some(Use::Half(1)));
        let up = r.place(0, read, Use::Half(1));
        assert_eq!(up.op, 1 << ssdlab_hdl::nand::op::HALF_LSB);
        assert_eq!(up.moves.iter().next(), Some((8192, 0x1000, 7)));
        assert_eq!(r.claim(0, &read), None, "both halves held");
        let big = job(NandOpKind::Read, 9216, one);
        let prog = job(NandOpKind::Program, 9216, one);
        let erase = job(NandOpKind::Erase, 0, Moves::default());
        assert_eq!(r.claim(0, &erase), Some(Use::Nothing));
        assert!(r.drained(0, 0));
        assert_eq!(r.claim(0, &read), Some(Use::Half(0)));
        assert_eq!((r.claim(0, &prog), r.claim(0, &big)), (None, None));
        assert!(r.drained(0, 1) && !r.drained(0, 1), "one move each");
        assert!(r.is_empty());
        assert_eq!(r.claim(0, &prog), Some(Use::Whole));
        assert_eq!(r.claim(0, &big), Some(Use::Whole));
    }

    /// A half reserved for the open unit is no op's: a read takes the other half, a whole-region
    /// op waits, nothing else is reserved while both halves are taken, and the open unit's
    /// program takes the reserved half (its moves shifted there) and holds it until it completes.
    #[test]
    fn the_open_units_half_is_reserved_for_its_program() {
        let mut r = Regions::new(1, 8192);
        assert_eq!(r.reserve(0), Some(0));
        assert_eq!(r.reserve(0), None, "one reservation per way");
        let read = job(NandOpKind::Read, 4648, Moves::one(0, 0x1000, 7));
        assert_eq!(r.claim(0, &read), Some(Use::Half(1)));
        let relocation = job(NandOpKind::Read, 4648, Moves::default());
        assert!(r.needs_whole(&relocation) && !r.needs_whole(&read));
        assert_eq!(r.claim(0, &relocation), None);
        r.place(0, read, Use::Half(1));
        assert!(!r.is_empty() && r.claim(0, &read).is_none());
        let prog = job(NandOpKind::Program, 4648, Moves::one(4096, 0x2000, 8));
        let prog = r.place_reserved(0, prog);
        assert_eq!(prog.op, 0, "half 0: not shifted");
        assert!(r.drained(0, 1) && r.in_half(0, &prog));
        assert_eq!(r.reserve(0), Some(1), "the read's half is free again");
        assert!(r.programmed(0, &prog) && r.is_empty());
    }

    /// A host program of 4 KiB + spare in a region of 16 KiB takes a free half and holds it
    /// until it completes, whatever its moves: the next program takes the other half (its data
    /// shifted there), a third waits; a read's drain cannot free a program's half, and the
    /// completion frees exactly the half of the program that completed.
    #[test]
    fn programs_hold_a_half_until_they_complete() {
        let mut r = Regions::new(1, 8192);
        let p1 = job(NandOpKind::Program, 4648, Moves::one(0, 0x1000, 1));
        let p2 = Job {
            cmd: 2,
            ..job(NandOpKind::Program, 4648, Moves::one(0, 0x2000, 2))
        };
        assert_eq!(r.claim(0, &p1), Some(Use::Half(0)));
        let p1 = r.place(0, p1, Use::Half(0));
        assert!(!r.drained(0, 0), "a program's half is not drained by moves");
        assert_eq!(r.claim(0, &p2), Some(Use::Half(1)));
        let p2 = r.place(0, p2, Use::Half(1));
        assert_eq!(p2.op, 1 << ssdlab_hdl::nand::op::HALF_LSB);
        assert_eq!(p2.moves.iter().next(), Some((8192, 0x2000, 2)));
        assert_eq!(r.claim(0, &p1), None, "both halves held");
        assert!(r.in_half(0, &p1) && r.in_half(0, &p2));
        assert!(r.programmed(0, &p1) && !r.programmed(0, &p1));
        assert!(!r.in_half(0, &p1));
        assert_eq!(
            r.claim(0, &p1),
            Some(Use::Half(0)),
            "the first program's half"
        );
        assert!(!r.is_empty(), "the second still holds its half");
        assert!(r.programmed(0, &p2) && r.is_empty());
    }

    /// A prefetch (a read that moves nothing, `Job::prefetch`) of 2 x 4648 B takes a free
    /// half, not the whole region, and holds it whatever moves drain: only `release` frees it.
    /// A run may end with it held (`is_empty`), and a relocation read waits for it.
    #[test]
    fn a_prefetch_holds_its_half_until_released() {
        let mut r = Regions::new(1, 16384);
        let pf = Job {
            prefetch: Some(5),
            ..job(NandOpKind::Read, 2 * 4648, Moves::default())
        };
        assert!(!r.needs_whole(&pf));
        assert_eq!(r.claim(0, &pf), Some(Use::Half(0)));
        r.place(0, pf, Use::Half(0));
        assert!(!r.drained(0, 0), "hit moves do not drain a prefetch's half");
        assert!(r.is_empty(), "only a prefetch holds a half");
        let relocation = job(NandOpKind::Read, 4648, Moves::default());
        assert_eq!(r.claim(0, &relocation), None);
        assert_eq!(r.claim(0, &pf), Some(Use::Half(1)));
        r.release(0, 0);
        assert_eq!(r.claim(0, &relocation), Some(Use::Whole));
    }
}
