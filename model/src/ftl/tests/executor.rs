//! A minimal in-order NAND executor for tests (not the drive): applies ops per die in push order,
//! checks the NAND rules (programs in page order into erased pages, reads of programmed pages
//! only, multi-plane ops within the die, erases reset a block) and times them with the preset's
//! tR / tPROG / tBERS and the ONFI bus rate, one bus per channel. Used for "timed" warm-up and
//! for throughput comparisons while the core's drive is not in main.

use super::*;
use crate::nand::CellMode;
use std::collections::HashMap;

pub struct Executor {
    cfg: DriveConfig,
    /// (die index, plane, block) -> pages programmed.
    programmed: HashMap<(u32, u8, u32), u32>,
    die_free: Vec<u64>,
    chan_free: Vec<u64>,
    /// Picoseconds.
    pub now_ps: u64,
    pub ops_done: u64,
}

impl Executor {
    pub fn new(cfg: &DriveConfig) -> Executor {
        let g = &cfg.geometry;
        Executor {
            cfg: cfg.clone(),
            programmed: HashMap::new(),
            die_free: vec![0; g.dies() as usize],
            chan_free: vec![0; g.channels as usize],
            now_ps: 0,
            ops_done: 0,
        }
    }

    /// An executor whose flash holds what `f` has programmed so far (for a preconditioned FTL).
    pub fn from_ftl(cfg: &DriveConfig, f: &Ftl) -> Executor {
        let mut e = Executor::new(cfg);
        for dbid in 0..f.l.die_blocks() {
            let pages = f.blocks.info[dbid as usize].programmed / f.l.row_units();
            for plane in 0..f.l.planes as u8 {
                if pages > 0 {
                    e.programmed
                        .insert((f.l.die_of(dbid), plane, f.l.block_of(dbid)), pages);
                }
            }
        }
        e
    }

    fn bus_ps(&self, bytes: u32) -> u64 {
        // transfer_mts mega-transfers per second of one byte each.
        SimTime::for_bytes(bytes as u64, self.cfg.onfi.transfer_mts as u64 * 1_000_000).as_ps()
    }

    /// Executes a batch; returns the time its last op completes. Panics on a NAND rule violation.
    pub fn run(&mut self, ops: &[NandOp]) -> u64 {
        let g = self.cfg.geometry.clone();
        let mut done = vec![0u64; ops.len()];
        let mut end = self.now_ps;
        for (i, op) in ops.iter().enumerate() {
            let a = op.addr;
            let die = a.die.channel as u32
                + g.channels * (a.die.way as u32 + g.ways_per_channel * a.die.die as u32);
            assert!(
                op.planes >= 1 && a.plane as u32 + op.planes as u32 <= g.planes_per_die,
                "op {i}: planes {op:?}"
            );
            let timing = if op.mode == CellMode::Slc {
                &self.cfg.nand.slc
            } else {
                &self.cfg.nand.tlc
            };
            let pages_per_block = if op.mode == CellMode::Slc {
                g.wordlines_per_block
            } else {
                g.pages_per_block()
            };
            let mut start = self.die_free[die as usize].max(self.now_ps);
            if let Some(d) = op.after {
                start = start.max(done[d as usize]);
            }
            let ch = a.die.channel as usize;
            let fin = match op.kind {
                NandOpKind::Read => {
                    for p in a.plane..a.plane + op.planes {
                        let n = self
                            .programmed
                            .get(&(die, p, a.block))
                            .copied()
                            .unwrap_or(0);
                        assert!(a.page < n, "op {i}: read of unprogrammed page {} (plane {p}, {n} programmed): {op:?}", a.page);
                    }
                    let t_r = timing.t_read(a.page % 3).as_ps();
                    let bus_start = (start + t_r).max(self.chan_free[ch]);
                    let fin = bus_start + self.bus_ps(op.bus_bytes);
                    self.chan_free[ch] = fin;
                    fin
                }
                NandOpKind::Program => {
                    let pages = if op.mode == CellMode::Slc {
                        1
                    } else {
                        g.bits_per_cell
                    };
                    for p in a.plane..a.plane + op.planes {
                        let n = self.programmed.entry((die, p, a.block)).or_insert(0);
                        assert_eq!(
                            *n, a.page,
                            "op {i}: out-of-order program on plane {p}: {op:?}"
                        );
                        *n += pages;
                        assert!(
                            *n <= pages_per_block,
                            "op {i}: program past the end of the block: {op:?}"
                        );
                    }
                    let bus_start = start.max(self.chan_free[ch]);
                    let bus_end = bus_start + self.bus_ps(op.bus_bytes);
                    self.chan_free[ch] = bus_end;
                    bus_end + timing.t_prog().as_ps()
                }
                NandOpKind::Erase => {
                    for p in a.plane..a.plane + op.planes {
                        self.programmed.remove(&(die, p, a.block));
                    }
                    start + timing.t_erase().as_ps()
                }
            };
            self.die_free[die as usize] = fin;
            done[i] = fin;
            end = end.max(fin);
            self.ops_done += 1;
        }
        end
    }

    /// Moves time forward to `t_ps` (host submits the next batch then).
    pub fn advance(&mut self, t_ps: u64) {
        self.now_ps = self.now_ps.max(t_ps);
    }
}
