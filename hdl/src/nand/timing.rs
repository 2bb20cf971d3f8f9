//! Elaboration-time cycle counts of the HDL sequencer, derived from the same
//! [`OnfiConfig`] the behavioural model uses (through `SeqTiming`, i.e. `OnfiConfig::cycles_ceil`),
//! so the model and the hardware cannot drift apart. Checked against the HDL counter widths.

use ssdlab_model::config::OnfiConfig;
use ssdlab_model::nand::sequencer::SeqTiming;

/// Cycle counts the HDL blocks are built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HdlTiming {
    pub seq: SeqTiming,
    /// Row-address increment from one plane to the next (the plane bit of the row address).
    pub plane_stride: u32,
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
        if plane_stride == 0 || plane_stride >= 1 << 22 {
            return Err(format!("plane stride {plane_stride} must be 1..2^22"));
        }
        Ok(HdlTiming { seq, plane_stride })
    }
}
