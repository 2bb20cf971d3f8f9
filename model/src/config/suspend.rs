//! `[nand.suspend]`: program/erase suspend and resume, the rules the sequencer applies when a
//! read reaches a die that is busy programming or erasing.
//!
//! Sources for the figures: no public 3D NAND datasheet found gives suspend timing, so the
//! defaults are fitted and carry the range public flash datasheets span: program suspend within
//! 5 us typical / 15 us max (Spansion/Cypress parallel NOR, "Program Suspend/Program Resume
//! Command Sequence"), tSUS 22 us and a resume-to-suspend interval TLRS of 50 us to 1000 us
//! (Microchip SST26 serial flash, "Write Suspend"), erase suspend within 500 us (Samsung
//! OneNAND128). The command bytes are in [`crate::encoding::onfi::SuspendCommands`].

use crate::error::{check, ConfigError};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// `nand.suspend.policy`: when a read suspends the program or erase its die is running.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SuspendPolicyKind {
    /// Reads wait for the whole program or erase (no suspend).
    #[default]
    Never,
    /// Every read that may suspend does (within the cap and the minimum progress).
    Always,
    /// A read suspends only when the array time left exceeds `nand.suspend.wait_over_us`.
    WaitOver,
}

/// `nand.suspend.commands`: the vendor command set of the suspend and resume latches.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SuspendCommandSet {
    /// Samsung / AMD NAND: suspend B0h, resume D0h.
    #[default]
    Samsung,
    /// Samsung OneNAND: suspend B0h, resume 30h.
    Onenand,
}

/// `[nand.suspend]`: program/erase suspend. Off (`policy = "never"`) unless set.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SuspendConfig {
    /// When a read suspends a program or erase. Range: never, always, wait_over.
    /// Moves: read tail latency under mixed load (p99.9 and beyond), write throughput a little.
    #[serde(default)]
    pub policy: SuspendPolicyKind,
    /// Suspend latency (tSUS): from the suspend command to the die accepting the read. Fitted
    /// (public flash datasheets: 5 to 500 us).
    /// Unit: us. Range: 0..=1000. Moves: read latency of suspending reads.
    #[serde(default = "default_t_suspend_us")]
    pub t_suspend_us: f64,
    /// Resume latency: from the resume command to the array working on the operation again,
    /// added to the suspended operation's remaining time. Fitted (0 to 100 us).
    /// Unit: us. Range: 0..=1000. Moves: program/erase time under reads, write throughput.
    #[serde(default = "default_t_resume_us")]
    pub t_resume_us: f64,
    /// Most suspends of one program or erase; later reads wait for it to finish.
    /// Unit: suspends. Range: 0..=1000. Moves: worst read latency vs program starvation.
    #[serde(default = "default_max_suspends_per_op")]
    pub max_suspends_per_op: u32,
    /// Least array time a resumed operation runs before it may be suspended again (SST26
    /// TLRS: 50 us). Unit: us. Range: 0..=100000. Moves: read tail when reads arrive densely.
    #[serde(default = "default_min_progress_us")]
    pub min_progress_us: f64,
    /// `wait_over` policy: a read suspends only when the operation has more than this much
    /// array time left. Unit: us. Range: 0..=100000. Moves: how many reads suspend.
    #[serde(default = "default_wait_over_us")]
    pub wait_over_us: f64,
    /// Vendor command bytes of the suspend and resume latches. Range: samsung, onenand.
    /// Moves: no figure (the bytes on the bus).
    #[serde(default)]
    pub commands: SuspendCommandSet,
}

fn default_t_suspend_us() -> f64 {
    20.0
}
fn default_t_resume_us() -> f64 {
    10.0
}
fn default_max_suspends_per_op() -> u32 {
    5
}
fn default_min_progress_us() -> f64 {
    50.0
}
fn default_wait_over_us() -> f64 {
    200.0
}

impl Default for SuspendConfig {
    fn default() -> Self {
        SuspendConfig {
            policy: SuspendPolicyKind::Never,
            t_suspend_us: default_t_suspend_us(),
            t_resume_us: default_t_resume_us(),
            max_suspends_per_op: default_max_suspends_per_op(),
            min_progress_us: default_min_progress_us(),
            wait_over_us: default_wait_over_us(),
            commands: SuspendCommandSet::Samsung,
        }
    }
}

impl SuspendConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (name, v, max) in [
            ("t_suspend_us", self.t_suspend_us, 1000.0),
            ("t_resume_us", self.t_resume_us, 1000.0),
            ("min_progress_us", self.min_progress_us, 100_000.0),
            ("wait_over_us", self.wait_over_us, 100_000.0),
        ] {
            check(
                v.is_finite() && (0.0..=max).contains(&v),
                &format!("nand.suspend.{name}"),
                &format!("must be 0..={max} us"),
            )?;
        }
        check(
            self.max_suspends_per_op <= 1000,
            "nand.suspend.max_suspends_per_op",
            "must be 0..=1000",
        )?;
        Ok(())
    }
    pub fn t_suspend(&self) -> SimTime {
        SimTime::from_us_f64(self.t_suspend_us)
    }
    pub fn t_resume(&self) -> SimTime {
        SimTime::from_us_f64(self.t_resume_us)
    }
    pub fn min_progress(&self) -> SimTime {
        SimTime::from_us_f64(self.min_progress_us)
    }
    pub fn wait_over(&self) -> SimTime {
        SimTime::from_us_f64(self.wait_over_us)
    }
}
