//! The host data moves of a job (`super::Job::moves`) and how they pair into DMA moves.

use super::{MAX_MOVES, RUN_UNITS, UNIT};

/// The host data moves of a job, 4 KiB each: (byte offset in the way's region, host address,
/// command the unit belongs to), in region order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moves {
    pub(super) n: u8,
    pub(super) at: [(u32, u64, u64); MAX_MOVES],
}

impl Default for Moves {
    fn default() -> Moves {
        Moves {
            n: 0,
            at: [(0, 0, 0); MAX_MOVES],
        }
    }
}

impl Moves {
    pub fn len(&self) -> usize {
        self.n as usize
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = (u32, u64, u64)> + '_ {
        self.at[..self.len()].iter().copied()
    }
    /// One move: `offset` in the region, `host` address, command `cmd`.
    #[cfg(test)]
    pub fn one(offset: u32, host: u64, cmd: u64) -> Moves {
        let mut m = Moves {
            n: 1,
            ..Moves::default()
        };
        m.at[0] = (offset, host, cmd);
        m
    }

    /// The moves as the firmware hands them to the DMA port: runs of up to [`RUN_UNITS`]
    /// units that follow each other in the region, each unit from its own host page (PRP1
    /// and PRP2 of the move), of one command or of two.
    pub fn runs(&self) -> impl Iterator<Item = Run> + '_ {
        let mut at = self.at[..self.len()].iter().copied().peekable();
        std::iter::from_fn(move || {
            let (offset, host, cmd) = at.next()?;
            let mut run = Run {
                offset,
                units: 1,
                host: [host; RUN_UNITS as usize],
                cmd: [cmd; RUN_UNITS as usize],
            };
            while run.units < RUN_UNITS {
                let Some((_, h, c)) = at.next_if(|&(o, _, _)| o == run.end()) else {
                    break;
                };
                let k = run.units as usize;
                (run.host[k], run.cmd[k]) = (h, c);
                run.units += 1;
            }
            Some(run)
        })
    }

    /// Adds a move, keeping region order.
    pub fn push(&mut self, offset: u32, host: u64, cmd: u64) {
        assert!(self.len() < MAX_MOVES, "at most {MAX_MOVES} moves");
        self.at[self.len()] = (offset, host, cmd);
        self.n += 1;
        let n = self.len();
        self.at[..n].sort_unstable();
    }

    /// These moves but those `drop` picks.
    pub fn without(&self, drop: impl Fn(&(u32, u64, u64)) -> bool) -> Moves {
        let mut m = Moves::default();
        for x in self.iter().filter(|x| !drop(x)) {
            m.push(x.0, x.1, x.2);
        }
        m
    }

    /// The same moves `by` bytes further into the region.
    pub fn shifted(mut self, by: u32) -> Moves {
        for m in &mut self.at[..self.n as usize] {
            m.0 += by;
        }
        self
    }
}

/// One DMA move of [`Moves::runs`]: `units` 4 KiB units from region byte `offset` on, unit k
/// at host page `host[k]` (PRP1, then PRP2), of command `cmd[k]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub offset: u32,
    pub units: u32,
    pub host: [u64; RUN_UNITS as usize],
    pub cmd: [u64; RUN_UNITS as usize],
}

impl Run {
    /// The region byte after the run.
    pub fn end(&self) -> u32 {
        self.offset + self.units * UNIT
    }
    /// The move's PRP2: the second unit's host page, 0 for a lone unit.
    pub fn prp2(&self) -> u64 {
        if self.units > 1 {
            self.host[1]
        } else {
            0
        }
    }
}
