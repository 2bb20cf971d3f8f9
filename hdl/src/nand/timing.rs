//! Elaboration-time cycle counts of the HDL sequencer, derived from the same
//! [`OnfiConfig`] the behavioural model uses (through `SeqTiming`, i.e. `OnfiConfig::cycles_ceil`),
//! so the model and the hardware cannot drift apart. Checked against the HDL counter widths.

use ssdlab_model::config::{OnfiConfig, SuspendConfig, SuspendPolicyKind};
use ssdlab_model::encoding::onfi::SuspendCommands;
use ssdlab_model::nand::sequencer::{SeqTiming, SuspendRules};

/// Longest array time (tPROG/tBERS) a command-port op carries, and longest suspend count, in
/// sequencer cycles (the way FSM counts in 32 bits with room for tWB and the resume latency).
pub const MAX_ARRAY_CYCLES: u64 = (1 << 31) - 1;
/// Longest read return the delay lines are built for (`SeqTiming::rd_return`, cycles): the
/// PHY's deepest pipe and capture delay with the io round trip stay under it.
pub const MAX_READ_RETURN: u32 = 48;

/// Program/erase suspend rules in sequencer cycles, from the model's [`SuspendRules`]
/// (`[nand.suspend]` through `SeqTiming::to_cycles_ceil`). tSUS and the array time are the
/// target's (R/B#); the way FSM needs only what decides and paces a suspend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HdlSuspend {
    /// False with the `never` policy or a cap of 0.
    pub enabled: bool,
    /// A read suspends when the array cycles left at its check exceed this: 0 for `always`,
    /// floor(`wait_over_us` / period) for `wait_over` (the model's `array_left > threshold`).
    pub threshold: u64,
    /// Resume latency, cycles (added to the array time left at the suspend latch).
    pub t_resume: u64,
    /// Resume latency + minimum progress, cycles: from the resume latch's end to the next check.
    pub guard: u64,
    /// Most suspends of one operation.
    pub max_per_op: u32,
    /// Suspend and resume command bytes.
    pub commands: SuspendCommands,
}

/// Cycle counts the HDL blocks are built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HdlTiming {
    pub seq: SeqTiming,
    /// Row-address increment from one plane to the next (the plane bit of the row address).
    pub plane_stride: u32,
    /// Program/erase suspend (off unless [`HdlTiming::with_suspend`] sets it).
    pub suspend: HdlSuspend,
}

impl HdlTiming {
    /// Fails (naming the field) when a count does not fit the HDL's 16-bit counters or the
    /// layout cannot be built: tWB >= 2 cycles (R/B# is sampled through a 2-flop synchronizer),
    /// 3 row-address cycles (24-bit rows), 4 bytes per cycle at most (32-bit data path).
    pub fn new(onfi: &OnfiConfig, plane_stride: u32) -> Result<Self, String> {
        let seq = SeqTiming::new(onfi);
        for (name, v) in [
            ("onfi.t_wc_ns", seq.latch),
            ("onfi.t_adl_ns", seq.t_adl),
            ("onfi.t_wb_ns", seq.t_wb),
            ("onfi.t_whr_ns", seq.t_whr),
            ("onfi.t_ccs_ns", seq.t_ccs),
            ("onfi.t_rr_ns", seq.t_rr),
        ] {
            if v > 0xFFFF {
                return Err(format!(
                    "{name}: {v} cycles exceed the sequencer's 16-bit counters"
                ));
            }
        }
        if seq.t_wb < 2 {
            return Err(format!(
                "onfi.t_wb_ns: {} cycles; the R/B# synchronizer needs at least 2",
                seq.t_wb
            ));
        }
        if seq.row_cycles != 3 {
            return Err(format!(
                "onfi.addr_cycles: {} (the HDL sequencer drives 2 column + 3 row cycles)",
                onfi.addr_cycles
            ));
        }
        if !(1..=4).contains(&seq.bytes_per_cycle) {
            return Err(format!(
                "onfi.transfer_mts: {} bytes per cycle; the data path is 4 bytes wide",
                seq.bytes_per_cycle
            ));
        }
        if seq.rd_return > MAX_READ_RETURN {
            return Err(format!(
                "onfi.pins.t_dqsre_ns: a read return of {} cycles (pin pipe, tDQSRE, io and \
                 capture); the completion and read-tag delay lines hold at most {MAX_READ_RETURN}",
                seq.rd_return
            ));
        }
        if plane_stride == 0 || plane_stride >= 1 << 22 {
            return Err(format!("plane stride {plane_stride} must be 1..2^22"));
        }
        let suspend = HdlSuspend::new(&SuspendConfig::default(), &seq)?;
        Ok(HdlTiming {
            seq,
            plane_stride,
            suspend,
        })
    }

    /// The same timing with the suspend rules of `cfg` (`nand.suspend`); fails, naming the
    /// field, when a count does not fit the way FSM's counters.
    pub fn with_suspend(mut self, cfg: &SuspendConfig) -> Result<Self, String> {
        self.suspend = HdlSuspend::new(cfg, &self.seq)?;
        Ok(self)
    }
}

impl HdlSuspend {
    fn new(cfg: &SuspendConfig, seq: &SeqTiming) -> Result<Self, String> {
        let r = SuspendRules::new(cfg, seq);
        let threshold = match cfg.policy {
            SuspendPolicyKind::WaitOver => cfg.wait_over().as_ps() / seq.period_ps,
            SuspendPolicyKind::Always | SuspendPolicyKind::Never => 0,
        };
        let guard = r.t_resume + r.min_progress;
        if r.enabled {
            // The next check is decided two cycles ahead of the grant (registered arbitration).
            if guard < 2 {
                return Err(format!(
                    "nand.suspend.min_progress_us: resume latency + minimum progress is {guard} cycles; the HDL way FSM needs at least 2"
                ));
            }
            if guard > MAX_ARRAY_CYCLES {
                return Err(format!(
                    "nand.suspend.min_progress_us: resume latency + minimum progress is {guard} cycles; the HDL counter holds {MAX_ARRAY_CYCLES}"
                ));
            }
            if threshold > MAX_ARRAY_CYCLES {
                return Err(format!(
                    "nand.suspend.wait_over_us: {threshold} cycles exceed the HDL's {MAX_ARRAY_CYCLES}-cycle array counter"
                ));
            }
        }
        Ok(HdlSuspend {
            enabled: r.enabled,
            threshold,
            t_resume: r.t_resume,
            guard,
            max_per_op: r.max_per_op,
            commands: r.commands,
        })
    }
}

#[cfg(test)]
mod tests;
