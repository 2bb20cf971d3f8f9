//! Bus programs of the ONFI page operations: the command/address/data sequence each operation
//! puts on the channel, and the cycle counts of every ONFI timing parameter at the sequencer
//! clock. Source: ONFI 4.1 section 5 (command set: 00h-30h read, 00h-32h multi-plane read,
//! 06h-E0h change read column enhanced, 80h-10h/11h program, 60h-D0h/D1h erase, 70h status) and
//! section 4 timing parameters. A one-shot TLC program loads its pages one after the other,
//! every plane of a page (80h-addr-data-11h) before the next, the page's last plane closed by
//! 1Ah and the last page's by 10h (the vendors' one-pass program). After a multi-plane read every plane's data is selected with
//! 06h-E0h (change read column enhanced); a single-plane read streams data right after tRR.
//! A sequential cache read of N pages (ONFI 4.1 section 5.6, Read Cache Sequential 31h / Read
//! Cache End 3Fh) is 00h-addr-30h, then N + 1 cache steps: `[31h]`, `[data 31h]` x (N - 2),
//! `[data 3Fh]`, `[data]`; each 31h/3Fh is followed by tWB + tRCBSY (+ the rest of the array
//! read of the next page, started by the previous 31h) before the cache register's data out.
//!
//! The rust_hdl sequencer (`ssdlab_hdl::nand`) elaborates its counters from [`SeqTiming`] and
//! emits exactly these programs; the behavioural sequencer uses [`SeqTiming::phase_cycles`] for
//! the length of each bus phase. Known simplification (both sides): the short busy tDBSY after a
//! 32h/11h/D1h multi-plane command or a 1Ah is not modelled (not in `OnfiConfig`); the target model does
//! not require it either.

use super::SeqOp;
use crate::config::OnfiConfig;
use crate::nand::NandOpKind;
use crate::time::SimTime;

use crate::encoding::onfi as opcode;

/// Column address cycles of a full address (large-page devices: 2); the rest are row cycles.
pub const COLUMN_CYCLES: u32 = 2;

/// ONFI timing parameters in whole sequencer cycles (rounded up with [`OnfiConfig::cycles_ceil`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqTiming {
    /// Cycles one command or address latch occupies the bus (tWC, at least 1).
    pub latch: u32,
    pub t_adl: u32,
    pub t_wb: u32,
    pub t_whr: u32,
    pub t_ccs: u32,
    pub t_rr: u32,
    /// Cache read busy tRCBSY (after 31h/3Fh, beyond the array read in progress).
    pub t_rcbsy: u32,
    /// Address cycles of a full (column + row) address.
    pub addr_cycles: u32,
    /// Row address cycles (erase carries a row address only).
    pub row_cycles: u32,
    /// Bytes per sequencer cycle at the PHY boundary.
    pub bytes_per_cycle: u32,
    /// Cycles before the first beat of every data-out burst: the ONFI PHY's RE# preamble
    /// (tRPRE, `[onfi.pins]`), which the pins show in the burst's own bus time.
    pub rd_lead: u32,
    /// Cycles after the last beat of every data-out burst: the RE# postamble (tRPST, at least
    /// 1), before the bus carries anything else.
    pub rd_tail: u32,
    /// Cycles the ONFI PHY adds to every R/B# wait: the NAND latches behind the beat port and
    /// its R/B# comes back through a register (`nand::phy::rb_lag_cycles`).
    pub rb_lag: u32,
    /// Cycles from a data-out beat at the beat port to its bytes back at the controller: the
    /// ONFI PHY's read return (`nand::phy::read_return_cycles`). Longer than the postamble, so
    /// an op whose last phase ends in a data out (every op: a read's page, a program's or an
    /// erase's status byte) completes [`SeqTiming::return_cycles`] after its phase ends.
    pub rd_return: u32,
    /// Sequencer clock period in picoseconds.
    pub period_ps: u64,
}

/// One bus phase of an operation: the first (command/address/data in), the second (data out
/// or status read, after the array time), or step `k` (0..=N) of an N-page cache read's second
/// part: step 0 is `[31h]`, steps 1..N-2 `[data 31h]`, step N-1 `[data 3Fh]`, step N `[data]`;
/// or the suspend / resume latch of a program or erase (`sequencer/suspend.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    First,
    Second,
    CacheStep(u16),
    Suspend,
    Resume,
}

impl Phase {
    /// First-phase requests (commands that start array work) win arbitration over the others;
    /// so do the suspend and resume latches (they start or restart array work).
    pub fn is_first(self) -> bool {
        matches!(self, Phase::First | Phase::Suspend | Phase::Resume)
    }
}

impl SeqTiming {
    pub fn new(onfi: &OnfiConfig) -> Self {
        assert!(
            onfi.addr_cycles > COLUMN_CYCLES,
            "onfi.addr_cycles must exceed the column cycles"
        );
        SeqTiming {
            latch: onfi.cycles_ceil(onfi.t_wc_ns).max(1),
            t_adl: onfi.cycles_ceil(onfi.t_adl_ns),
            t_wb: onfi.cycles_ceil(onfi.t_wb_ns),
            t_whr: onfi.cycles_ceil(onfi.t_whr_ns),
            t_ccs: onfi.cycles_ceil(onfi.t_ccs_ns),
            t_rr: onfi.cycles_ceil(onfi.t_rr_ns),
            t_rcbsy: onfi.cycles_ceil(onfi.t_rcbsy_us * 1000.0),
            addr_cycles: onfi.addr_cycles,
            row_cycles: onfi.addr_cycles - COLUMN_CYCLES,
            bytes_per_cycle: onfi.bytes_per_cycle(),
            rd_lead: onfi.cycles_ceil(onfi.pins.t_rpre_ns),
            rd_tail: onfi.cycles_ceil(onfi.pins.t_rpst_ns).max(1),
            rb_lag: crate::nand::phy::rb_lag_cycles(onfi),
            rd_return: crate::nand::phy::read_return_cycles(onfi),
            period_ps: onfi.core_period().as_ps(),
        }
    }
    /// Bus cycles of one data-out burst of `beats` data cycles: the RE# preamble, the beats and
    /// the postamble.
    pub fn data_out_cycles(&self, beats: u64) -> u64 {
        self.rd_lead as u64 + beats + self.rd_tail as u64
    }
    /// Cycles from the end of an op's last phase (its postamble's end) to its completion: its
    /// last byte, on the bus `rd_tail` cycles before the phase ends, is at the controller
    /// `rd_return` cycles after its beat (0 when the postamble is the longer).
    pub fn return_cycles(&self) -> u64 {
        self.rd_return.saturating_sub(self.rd_tail) as u64
    }
    /// A time in whole cycles, rounded up (issue times, array times).
    pub fn to_cycles_ceil(&self, t: SimTime) -> u64 {
        t.as_ps().div_ceil(self.period_ps)
    }
    /// The start of cycle `c`.
    pub fn to_time(&self, c: u64) -> SimTime {
        SimTime::from_ps(c * self.period_ps)
    }
    /// Data cycles of one plane's share of `bus_bytes` (each plane moves `ceil(bytes / planes)`).
    pub fn plane_data_cycles(&self, bus_bytes: u32, planes: u8) -> u32 {
        assert!(planes >= 1, "an op addresses at least one plane");
        bus_bytes
            .div_ceil(planes as u32)
            .div_ceil(self.bytes_per_cycle)
    }
    /// Data cycles of one plane (or one page of a cache read) of `op`.
    pub fn unit_data_cycles(&self, op: &SeqOp) -> u32 {
        self.plane_data_cycles(op.bus_bytes.div_ceil(op.pages as u32), op.planes)
    }
    /// Cycles the bus is held by `phase` of `op`.
    pub fn phase_cycles(&self, op: &SeqOp, phase: Phase) -> u64 {
        let p = op.planes as u64;
        let latch = self.latch as u64;
        let full_addr = self.addr_cycles as u64 * latch;
        let data = self.unit_data_cycles(op) as u64;
        let out = self.data_out_cycles(data);
        let status = latch + self.t_whr as u64 + self.data_out_cycles(1);
        match (op.kind, phase) {
            // one command latch, no address
            (_, Phase::Suspend | Phase::Resume) => latch,
            // per plane: 00h, address, 32h/30h (a cache read starts the same way, one plane)
            (NandOpKind::Read, Phase::First) => p * (2 * latch + full_addr),
            // single plane: data out at once; multi-plane: per plane 06h, address, E0h, tCCS, data
            // (each data out with its RE# preamble and postamble)
            (NandOpKind::Read, Phase::Second) if p == 1 => out,
            (NandOpKind::Read, Phase::Second) => {
                p * (2 * latch + full_addr + self.t_ccs as u64 + out)
            }
            // [31h]; [data 31h/3Fh]; last: [data]
            (NandOpKind::Read, Phase::CacheStep(0)) => latch,
            (NandOpKind::Read, Phase::CacheStep(k)) if (k as u64) < op.pages as u64 => out + latch,
            (NandOpKind::Read, Phase::CacheStep(_)) => out,
            // per page, per plane: 80h, address, tADL, data in, 11h/1Ah/10h
            (NandOpKind::Program, Phase::First) => {
                op.pages as u64 * p * (2 * latch + full_addr + self.t_adl as u64 + data)
            }
            // per plane: 60h, row address, D1h/D0h
            (NandOpKind::Erase, Phase::First) => p * (2 * latch + self.row_cycles as u64 * latch),
            // 70h, tWHR, one status beat (a data out: with its preamble and postamble)
            (NandOpKind::Program | NandOpKind::Erase, Phase::Second) => status,
            (k, ph) => panic!("{k:?} has no bus phase {ph:?}"),
        }
    }
    /// Data cycles (in or out, status beats included) `phase` of `op` moves.
    pub fn phase_data_cycles(&self, op: &SeqOp, phase: Phase) -> u64 {
        let data = self.unit_data_cycles(op) as u64;
        match (op.kind, phase) {
            (_, Phase::Suspend | Phase::Resume) => 0,
            (NandOpKind::Erase, Phase::First) | (NandOpKind::Read, Phase::First) => 0,
            (NandOpKind::Program | NandOpKind::Erase, Phase::Second) => 1,
            (NandOpKind::Read, Phase::CacheStep(0)) => 0,
            (NandOpKind::Read, Phase::CacheStep(_)) => data,
            (NandOpKind::Program, Phase::First) => data * op.planes as u64 * op.pages as u64,
            _ => data * op.planes as u64,
        }
    }
    /// Cycles from the end of the first phase until the way requests the bus again:
    /// tWB, the array time (R/B# busy), then tRR before data out of a read. A cache read's
    /// 31h follows ready without tRR (tRR is ready to RE# low).
    pub fn wait_cycles(&self, op: &SeqOp, array_cycles: u64) -> u64 {
        let post = if op.kind == NandOpKind::Read && op.pages == 1 {
            self.t_rr as u64
        } else {
            0
        };
        self.t_wb as u64 + array_cycles + post
    }
    /// When a target that latched 31h/3Fh in a phase ending at cycle `end` is ready again
    /// (R/B# high): it goes busy within tWB, waits for the array read in progress (until
    /// `array_free`), then moves the page into the cache register (tRCBSY).
    pub fn cache_ready(&self, end: u64, array_free: u64) -> u64 {
        (end + self.t_wb as u64).max(array_free) + self.t_rcbsy as u64
    }
}

/// What the bus carries at one latch or burst, as recorded in a bus-cycle trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusKind {
    /// Command latch (CLE) with its opcode.
    Cmd(u8),
    /// Address latch (ALE); the behavioural model carries no addresses, so only the count matters.
    Addr,
    /// Data into the target, `cycles` consecutive sequencer cycles.
    DataIn { cycles: u32 },
    /// Data out of the target, `cycles` consecutive sequencer cycles.
    DataOut { cycles: u32 },
}

/// One entry of a bus-cycle trace: at sequencer cycle `cycle`, way `way` starts `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusEvent {
    pub cycle: u64,
    pub way: u8,
    pub kind: BusKind,
}

/// Writes one phase's trace: each latch or burst starts at the running cycle `t`, which then
/// advances by its length.
struct TraceCursor<'a> {
    out: &'a mut Vec<BusEvent>,
    way: u8,
    t: u64,
    latch: u64,
    rd_lead: u64,
    rd_tail: u64,
}

impl TraceCursor<'_> {
    fn push(&mut self, kind: BusKind, len: u64) {
        self.out.push(BusEvent {
            cycle: self.t,
            way: self.way,
            kind,
        });
        self.t += len;
    }
    fn cmd(&mut self, c: u8) {
        self.push(BusKind::Cmd(c), self.latch);
    }
    /// Command `c` followed by `addr` address latches.
    fn cmd_addr(&mut self, c: u8, addr: u32) {
        self.cmd(c);
        for _ in 0..addr {
            self.push(BusKind::Addr, self.latch);
        }
    }
    fn data_in(&mut self, cycles: u32) {
        self.push(BusKind::DataIn { cycles }, cycles as u64);
    }
    /// A data-out burst: the RE# preamble, `cycles` beats (the event), the postamble.
    fn data_out(&mut self, cycles: u32) {
        self.t += self.rd_lead;
        self.push(BusKind::DataOut { cycles }, cycles as u64 + self.rd_tail);
    }
    /// A timing gap with nothing latched (tADL, tCCS, tWHR).
    fn wait(&mut self, cycles: u32) {
        self.t += cycles as u64;
    }
}

impl SeqTiming {
    /// Appends the trace of `phase` of an op started at cycle `start` on `way`.
    pub fn trace_phase(&self, op: &SeqOp, phase: Phase, start: u64, out: &mut Vec<BusEvent>) {
        use opcode::*;
        let planes = op.planes;
        let data = self.unit_data_cycles(op);
        let mut c = TraceCursor {
            out,
            way: op.way,
            t: start,
            latch: self.latch as u64,
            rd_lead: self.rd_lead as u64,
            rd_tail: self.rd_tail as u64,
        };
        let last = planes - 1;
        match (op.kind, phase) {
            (NandOpKind::Read, Phase::First) => {
                for i in 0..planes {
                    c.cmd_addr(READ_1, self.addr_cycles);
                    c.cmd(if i == last { READ_2 } else { READ_MULTIPLANE });
                }
            }
            (NandOpKind::Read, Phase::Second) => {
                for _ in 0..planes {
                    if planes > 1 {
                        c.cmd_addr(CHANGE_COL_1, self.addr_cycles);
                        c.cmd(CHANGE_COL_2);
                        c.wait(self.t_ccs);
                    }
                    c.data_out(data);
                }
            }
            (NandOpKind::Read, Phase::CacheStep(k)) => {
                if k > 0 {
                    c.data_out(data);
                }
                if (k as u32) < op.pages as u32 {
                    c.cmd(if k as u32 + 1 < op.pages as u32 {
                        READ_CACHE_SEQ
                    } else {
                        READ_CACHE_END
                    });
                }
            }
            (NandOpKind::Program, Phase::First) => {
                for k in 0..op.pages {
                    for i in 0..planes {
                        c.cmd_addr(PROGRAM_1, self.addr_cycles);
                        c.wait(self.t_adl);
                        c.data_in(data);
                        c.cmd(match (i == last, k + 1 == op.pages) {
                            (false, _) => PROGRAM_MULTIPLANE,
                            (true, false) => PROGRAM_NEXT_PAGE,
                            (true, true) => PROGRAM_2,
                        });
                    }
                }
            }
            (NandOpKind::Erase, Phase::First) => {
                for i in 0..planes {
                    c.cmd_addr(ERASE_1, self.row_cycles);
                    c.cmd(if i == last { ERASE_2 } else { ERASE_MULTIPLANE });
                }
            }
            (NandOpKind::Program | NandOpKind::Erase, Phase::Second) => {
                c.cmd(READ_STATUS);
                c.wait(self.t_whr);
                c.data_out(1);
            }
            (k, ph) => panic!("{k:?} has no bus phase {ph:?}"),
        }
        debug_assert_eq!(c.t - start, self.phase_cycles(op, phase));
    }
}
