//! `[onfi.pins]`: the ONFI 4.x pin timing the controller's PHY drives and a NAND target checks,
//! beyond the bus-level parameters of `[onfi]`. Sources: ONFI 4.1 section 4.16 (SDR timing
//! mode 5 for the command and address cycles: tWP, tWH, tCLS/tALS, tCLH/tALH) and section 4.17
//! (NV-DDR2/NV-DDR3 data strobes: tWPRE, tWPST, tRPRE, tRPST, tDQSRE); the defaults are the
//! datasheet-typical minimums (maximum for tDQSRE) of those tables.
//!
//! The PHY (`model::nand::phy`, the HDL `nand::phy`) and the pin-level target read these; the
//! sequencer's bus timing (`SeqTiming`, the model's and the HDL's) reads two: every data-out
//! burst holds the bus for its RE# preamble (tRPRE) and postamble (tRPST) too, so the PHY's
//! strobes never overlap another phase.

use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

/// `[onfi.pins]`: pin-level timing of the command/address cycles and the DDR data strobes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct OnfiPinTiming {
    /// WE# pulse width (low) tWP. Default 10 (SDR mode 5).
    /// Unit: ns. Range: (0, 1000]. Moves: the PHY's pin schedule only.
    pub t_wp_ns: f64,
    /// WE# high hold time tWH. Default 7 (SDR mode 5).
    /// Unit: ns. Range: [0, 1000]. Moves: the PHY's pin schedule only.
    pub t_wh_ns: f64,
    /// CLE setup to WE# rising tCLS. Default 10 (SDR mode 5).
    /// Unit: ns. Range: [0, 1000]. Moves: the PHY's pin schedule only.
    pub t_cls_ns: f64,
    /// CLE hold after WE# rising tCLH. Default 5 (SDR mode 5).
    /// Unit: ns. Range: [0, 1000]. Moves: the PHY's pin schedule only.
    pub t_clh_ns: f64,
    /// ALE setup to WE# rising tALS. Default 10 (SDR mode 5).
    /// Unit: ns. Range: [0, 1000]. Moves: the PHY's pin schedule only.
    pub t_als_ns: f64,
    /// ALE hold after WE# rising tALH. Default 5 (SDR mode 5).
    /// Unit: ns. Range: [0, 1000]. Moves: the PHY's pin schedule only.
    pub t_alh_ns: f64,
    /// DQS write preamble tWPRE: DQS driven low before its first latching edge.
    /// Default 15 (NV-DDR2/3).
    /// Unit: ns. Range: [0, 1000]. Moves: the PHY's pin schedule only.
    pub t_wpre_ns: f64,
    /// DQS write postamble tWPST: DQS held low after its last edge before release.
    /// Default 6.5 (NV-DDR2/3).
    /// Unit: ns. Range: [0, 1000]. Moves: the PHY's pin schedule only.
    pub t_wpst_ns: f64,
    /// Read preamble tRPRE: RE# low before its first (data-requesting) rising edge.
    /// Default 15 (NV-DDR2/3).
    /// Unit: ns. Range: [0, 1000]. Moves: bus time of every data out (reads, status polls).
    pub t_rpre_ns: f64,
    /// Read postamble tRPST: RE# held low after its last data edge before it returns high
    /// (the target's DQS postamble follows it). Default 25 (tDQSRE + 0.5 tRC at the NV-DDR2/3
    /// modes). Unit: ns. Range: [0, 1000]. Moves: bus time of every data out (reads, status
    /// polls).
    pub t_rpst_ns: f64,
    /// Access window of DQS from RE# tDQSRE: the target's DQS edge and byte follow each RE#
    /// edge by at most this. Default 20 (NV-DDR2/3 maximum).
    /// Unit: ns. Range: (0, 1000]. Moves: the PHY's pin schedule only.
    pub t_dqsre_ns: f64,
}

impl Default for OnfiPinTiming {
    fn default() -> Self {
        OnfiPinTiming {
            t_wp_ns: 10.0,
            t_wh_ns: 7.0,
            t_cls_ns: 10.0,
            t_clh_ns: 5.0,
            t_als_ns: 10.0,
            t_alh_ns: 5.0,
            t_wpre_ns: 15.0,
            t_wpst_ns: 6.5,
            t_rpre_ns: 15.0,
            t_rpst_ns: 25.0,
            t_dqsre_ns: 20.0,
        }
    }
}

impl OnfiPinTiming {
    /// Serde's skip test: a config without `[onfi.pins]` serializes as before.
    pub fn is_default(&self) -> bool {
        *self == OnfiPinTiming::default()
    }
    /// Every field by its config key.
    pub fn fields(&self) -> [(&'static str, f64); 11] {
        [
            ("onfi.pins.t_wp_ns", self.t_wp_ns),
            ("onfi.pins.t_wh_ns", self.t_wh_ns),
            ("onfi.pins.t_cls_ns", self.t_cls_ns),
            ("onfi.pins.t_clh_ns", self.t_clh_ns),
            ("onfi.pins.t_als_ns", self.t_als_ns),
            ("onfi.pins.t_alh_ns", self.t_alh_ns),
            ("onfi.pins.t_wpre_ns", self.t_wpre_ns),
            ("onfi.pins.t_wpst_ns", self.t_wpst_ns),
            ("onfi.pins.t_rpre_ns", self.t_rpre_ns),
            ("onfi.pins.t_rpst_ns", self.t_rpst_ns),
            ("onfi.pins.t_dqsre_ns", self.t_dqsre_ns),
        ]
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (name, v) in self.fields() {
            check(
                v.is_finite() && (0.0..=1000.0).contains(&v),
                name,
                "must be 0..=1000 ns",
            )?;
        }
        check(
            self.t_wp_ns > 0.0,
            "onfi.pins.t_wp_ns",
            "must be above 0 ns",
        )?;
        check(
            self.t_dqsre_ns > 0.0,
            "onfi.pins.t_dqsre_ns",
            "must be above 0 ns",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_bad_values_name_the_key() {
        let mut p = OnfiPinTiming::default();
        assert!(p.validate().is_ok());
        p.t_wpst_ns = -1.0;
        let e = p.validate().unwrap_err().to_string();
        assert!(e.contains("onfi.pins.t_wpst_ns"), "{e}");
        let p = OnfiPinTiming {
            t_wp_ns: 0.0,
            ..Default::default()
        };
        let e = p.validate().unwrap_err().to_string();
        assert!(e.contains("onfi.pins.t_wp_ns"), "{e}");
    }
}
