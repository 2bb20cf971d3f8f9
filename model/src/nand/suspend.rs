//! Program/erase suspend policy: whether a read that reaches a die busy programming or erasing
//! suspends that operation. The sequencer (`nand::sequencer`) applies the hard rules first (the
//! read must be next in the die's queue, at most `nand.suspend.max_suspends_per_op` suspends
//! per operation, `nand.suspend.min_progress_us` of array time between suspends) and asks the
//! policy only when they allow a suspend. One policy per file: [`never::Never`],
//! [`always::Always`], [`wait_over::WaitOver`]. Timing sources: `config/suspend.rs`.

pub mod always;
pub mod never;
pub mod wait_over;

use crate::config::{SuspendCommandSet, SuspendConfig, SuspendPolicyKind};
use crate::encoding::onfi::{SuspendCommands, SUSPEND_ONENAND, SUSPEND_SAMSUNG};
use crate::nand::NandOpKind;
use crate::time::SimTime;
use std::sync::Arc;

/// What the policy sees when a read could suspend the operation its die runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuspendQuery {
    /// The running operation: `Program` or `Erase`.
    pub kind: NandOpKind,
    /// Array time the operation has left: how long the read would wait without a suspend.
    pub array_left: SimTime,
    /// Suspends this operation has had already.
    pub suspends: u32,
}

/// Decides whether a read suspends the die's program or erase.
pub trait SuspendPolicy: std::fmt::Debug + Send + Sync {
    fn suspend(&self, q: &SuspendQuery) -> bool;
}

/// The policy `nand.suspend.policy` names.
pub fn policy_for(cfg: &SuspendConfig) -> Arc<dyn SuspendPolicy> {
    match cfg.policy {
        SuspendPolicyKind::Never => Arc::new(never::Never),
        SuspendPolicyKind::Always => Arc::new(always::Always),
        SuspendPolicyKind::WaitOver => Arc::new(wait_over::WaitOver {
            threshold: cfg.wait_over(),
        }),
    }
}

/// The command bytes `nand.suspend.commands` names.
pub fn commands_for(set: SuspendCommandSet) -> SuspendCommands {
    match set {
        SuspendCommandSet::Samsung => SUSPEND_SAMSUNG,
        SuspendCommandSet::Onenand => SUSPEND_ONENAND,
    }
}
