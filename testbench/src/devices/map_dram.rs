//! Plain-Rust DRAM and NAND-table model for the mapping cache's test bench (like rust-hdl-sim's
//! SDRAM chip model, but at the level of the cache's simple memory interface).
//!
//! DRAM: one command at a time. A read accepted in cycle t delivers beat j in cycle
//! `t + latency + j*interval`; a write accepted in cycle t takes a beat at the earliest in cycle
//! t+1 and then at most one every `interval` cycles. Bandwidth = 4 B per `interval` cycles.
//! Words never written read as `UNMAPPED`, the boot content of the table.
//! NAND table (`TpMover`): translation pages moved between NAND and DRAM slots on the cache's
//! `tp_req` port, answered `tp_latency` cycles later (tR of a map page, in cycles).

use ssdlab_model::ftl::dram_table::TP_ENTRIES;
use ssdlab_model::ftl::map_cache::UNMAPPED;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramTiming {
    /// Cycles from read-command handshake to the first beat (>= 1).
    pub latency: u64,
    /// Cycles per 32-bit beat (>= 1): bandwidth = 4 B / interval per cycle.
    pub interval: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Idle,
    Read { addr: u32, start: u64, beat: u32 },
    Write { addr: u32, next_ok: u64, beat: u32 },
}

/// What the DRAM drives this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DramOut {
    pub cmd_ready: bool,
    pub wdata_ready: bool,
    pub rdata_valid: bool,
    pub rdata: u32,
}

/// What the cache drives this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DramIn {
    pub cmd_valid: bool,
    pub cmd_write: bool,
    pub cmd_addr: u32,
    pub wdata_valid: bool,
    pub wdata: u32,
}

pub struct DramModel {
    timing: DramTiming,
    burst: u32,
    op: Op,
    /// DRAM words, grown on demand (addresses are slot * 1024 + offset, a few MiB at most).
    mem: Vec<u32>,
    pub reads: u64,
    pub writes: u64,
}

impl DramModel {
    pub fn new(timing: DramTiming, burst: u32) -> DramModel {
        assert!(
            timing.latency >= 1 && timing.interval >= 1 && burst >= 1,
            "bad DRAM model timing {timing:?}"
        );
        DramModel {
            timing,
            burst,
            op: Op::Idle,
            mem: Vec::new(),
            reads: 0,
            writes: 0,
        }
    }

    pub fn word(&self, addr: u32) -> u32 {
        self.mem.get(addr as usize).copied().unwrap_or(UNMAPPED)
    }

    pub fn set_word(&mut self, addr: u32, v: u32) {
        let a = addr as usize;
        assert!(a < 1 << 28, "DRAM model address {addr:#x} beyond 1 GiB");
        if a >= self.mem.len() {
            self.mem.resize((a + 1).next_power_of_two(), UNMAPPED);
        }
        self.mem[a] = v;
    }

    /// Outputs for `cycle` (a function of the state only).
    pub fn outputs(&self, cycle: u64) -> DramOut {
        match self.op {
            Op::Idle => DramOut {
                cmd_ready: true,
                ..Default::default()
            },
            Op::Read { addr, start, beat } => {
                let due = start + self.timing.latency + beat as u64 * self.timing.interval;
                assert!(cycle <= due, "DRAM model missed a beat");
                let valid = cycle == due;
                DramOut {
                    rdata_valid: valid,
                    rdata: if valid { self.word(addr + beat) } else { 0 },
                    ..Default::default()
                }
            }
            Op::Write { next_ok, .. } => DramOut {
                wdata_ready: cycle >= next_ok,
                ..Default::default()
            },
        }
    }

    /// The first cycle >= `cycle` at which [`DramModel::outputs`] can change while the cache
    /// drives nothing (the next read beat, the next write-beat slot; `u64::MAX`: none). Lets a
    /// bench run the cache ahead without stepping this model.
    pub fn next_change(&self, cycle: u64) -> u64 {
        match self.op {
            Op::Idle => u64::MAX,
            Op::Read { start, beat, .. } => {
                start + self.timing.latency + beat as u64 * self.timing.interval
            }
            Op::Write { next_ok, .. } if cycle < next_ok => next_ok,
            Op::Write { .. } => u64::MAX,
        }
    }

    /// Apply the handshakes of `cycle` (`out` = what `outputs(cycle)` returned).
    pub fn step(&mut self, cycle: u64, out: DramOut, inp: DramIn) {
        match self.op {
            Op::Idle => {
                if inp.cmd_valid && out.cmd_ready {
                    assert_eq!(
                        inp.cmd_addr % self.burst,
                        0,
                        "unaligned line address {:#x}",
                        inp.cmd_addr
                    );
                    self.op = if inp.cmd_write {
                        self.writes += 1;
                        Op::Write {
                            addr: inp.cmd_addr,
                            next_ok: cycle + 1,
                            beat: 0,
                        }
                    } else {
                        self.reads += 1;
                        Op::Read {
                            addr: inp.cmd_addr,
                            start: cycle,
                            beat: 0,
                        }
                    };
                }
            }
            Op::Read { addr, start, beat } => {
                if out.rdata_valid {
                    self.op = if beat + 1 == self.burst {
                        Op::Idle
                    } else {
                        Op::Read {
                            addr,
                            start,
                            beat: beat + 1,
                        }
                    };
                }
            }
            Op::Write { addr, beat, .. } => {
                if inp.wdata_valid && out.wdata_ready {
                    self.set_word(addr + beat, inp.wdata);
                    self.op = if beat + 1 == self.burst {
                        Op::Idle
                    } else {
                        Op::Write {
                            addr,
                            next_ok: cycle + self.timing.interval,
                            beat: beat + 1,
                        }
                    };
                }
            }
        }
    }
}

/// A translation-page move requested by the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TpReq {
    pub tp: u64,
    pub slot: u64,
    pub evict_tp: u64,
    pub evict_dirty: bool,
}

/// The NAND-resident table: pages written back on dirty evictions, loaded on fetches.
#[derive(Default)]
pub struct TpMover {
    nand: HashMap<u64, Vec<u32>>,
}

impl TpMover {
    /// Perform `r` on `dram`: save the evicted page when dirty, load the requested one.
    pub fn apply(&mut self, r: TpReq, dram: &mut DramModel) {
        let base = (r.slot * TP_ENTRIES) as u32;
        if r.evict_dirty {
            let page = (0..TP_ENTRIES as u32)
                .map(|i| dram.word(base + i))
                .collect();
            self.nand.insert(r.evict_tp, page);
        }
        for i in 0..TP_ENTRIES as u32 {
            let v = self.nand.get(&r.tp).map_or(UNMAPPED, |p| p[i as usize]);
            dram.set_word(base + i, v);
        }
    }
}

#[cfg(test)]
mod next_change_tests {
    use super::*;

    #[test]
    fn next_change_is_the_next_beat_or_write_slot() {
        let mut d = DramModel::new(
            DramTiming {
                latency: 12,
                interval: 2,
            },
            2,
        );
        assert_eq!(d.next_change(0), u64::MAX, "idle: outputs constant");
        let rd = DramIn {
            cmd_valid: true,
            cmd_addr: 8,
            ..Default::default()
        };
        d.step(10, d.outputs(10), rd);
        // Beat j of a read accepted in cycle 10 comes in cycle 10 + 12 + 2 j.
        assert_eq!(d.next_change(11), 22);
        d.step(22, d.outputs(22), DramIn::default());
        assert_eq!(d.next_change(23), 24);
        d.step(24, d.outputs(24), DramIn::default());
        assert_eq!(d.next_change(25), u64::MAX, "burst of 2 done: idle");
        let wr = DramIn {
            cmd_valid: true,
            cmd_write: true,
            cmd_addr: 0,
            ..Default::default()
        };
        d.step(30, d.outputs(30), wr);
        // First write beat taken at the earliest in cycle 31; after that wdata_ready stays up.
        assert_eq!(d.next_change(30), 31);
        assert_eq!(d.next_change(31), u64::MAX);
    }
}
