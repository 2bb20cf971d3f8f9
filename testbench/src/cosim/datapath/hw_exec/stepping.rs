//! How the hardware execution advances through cycles in which nothing reaches the bench
//! ([`Stepping`]: every cycle through Rust, quiet stretches clocked by the DUT, or those with a
//! quiescent Verilated design fast-forwarded), and the Verilator execution's construction,
//! which picks the fastest stepping that stays exact for the design.

use super::{HwExec, VerilatorExec};
use crate::cosim::datapath::sig::{quiesce, VerilatorDut};
use crate::verilator::{RunnerError, VerilatorModel};
use ssdlab_model::config::DriveConfig;

/// How the hardware execution advances through cycles in which nothing reaches the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stepping {
    /// Every cycle through Rust.
    PerCycle,
    /// Quiet stretches clocked by the DUT itself (`DatapathDut::run_quiet`), without fast-forward.
    Quiet,
    /// As `Quiet`, and a quiescent Verilated design fast-forwarded (`sig::quiesce`).
    FastForward,
}

impl Stepping {
    /// `SSDLAB_STEPPING` = `per-cycle` | `quiet` | `fast-forward` if set (to compare speeds or
    /// rule the run-ahead out when debugging), else `default`.
    pub fn from_env(default: Stepping) -> Result<Stepping, RunnerError> {
        match std::env::var("SSDLAB_STEPPING").ok().as_deref() {
            None => Ok(default),
            Some("per-cycle") => Ok(Stepping::PerCycle),
            Some("quiet") => Ok(Stepping::Quiet),
            Some("fast-forward") => Ok(Stepping::FastForward),
            Some(v) => Err(RunnerError::Parse(format!(
                "SSDLAB_STEPPING={v}: expected per-cycle, quiet or fast-forward"
            ))),
        }
    }
}

impl VerilatorExec {
    /// Builds (or takes from the cache) `verilog`, the datapath's `module top`, for drive `cfg`;
    /// with `vcd`, a traced build writing every signal to that file.
    pub fn verilated(
        cfg: &DriveConfig,
        verilog: &str,
        line_entries: u32,
        vcd: Option<&std::path::Path>,
    ) -> Result<Self, RunnerError> {
        let m = VerilatorModel::build_with("datapath", verilog, vcd, &quiesce())?;
        let mut x = HwExec::new(cfg, VerilatorDut::new(m)?, line_entries);
        let mut s = Stepping::from_env(if vcd.is_some() {
            Stepping::Quiet
        } else {
            Stepping::FastForward
        })?;
        // Default fast-forward never at the price of exactness: quiet stepping (same results,
        // slower) with a warning; an explicit SSDLAB_STEPPING=fast-forward is refused below.
        if s == Stepping::FastForward && std::env::var_os("SSDLAB_STEPPING").is_none() {
            if let Some(h) = x.dut.m.fast_forward_hazard() {
                eprintln!(
                    "warning: {}: no fast-forward, stepping quiet (same results, slower): {h}",
                    x.dut.m.name()
                );
                s = Stepping::Quiet;
            }
        }
        x.set_stepping(s)?;
        Ok(x)
    }

    /// Chooses how cycles are advanced (all give the same streams; `FastForward` is fastest).
    /// `FastForward` is an error naming the memory, module and line for a design with an
    /// asynchronous memory read (`verilator::async_memory_reads`): it would not be exact.
    pub fn set_stepping(&mut self, s: Stepping) -> Result<(), RunnerError> {
        if s == Stepping::FastForward {
            if let Some(h) = self.dut.m.fast_forward_hazard() {
                return Err(RunnerError::FastForward {
                    block: self.dut.m.name().to_string(),
                    read: h.clone(),
                });
            }
        }
        self.stepping = s;
        self.dut.ff = s == Stepping::FastForward;
        Ok(())
    }
}
