//! The integrity checker's verdict on a whole drive run (`ftl::integrity` checks every host read
//! against the spare area's write sequence): reads checked, violations, and the first one with
//! the host command that found it and when. A run that served a lost or stale unit must fail,
//! so the command line reads this after every run (docs/cli.md, "Errors and exit codes").

use super::{Cmd, Drive, IoOp};
use crate::time::SimTime;
use std::fmt;

/// Counts since the drive was built (not reset with the statistics window).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntegrityVerdict {
    /// Host-read 4 KiB units verified (0 with `ftl.integrity_check = false`).
    pub checked: u64,
    pub violations: u64,
    pub first: Option<Violation>,
}

/// The first violation: what the checker found and the host read that found it.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The checker's description: lpn, expected write sequence, what was served.
    pub detail: String,
    pub op: IoOp,
    pub offset: u64,
    pub len: u64,
    /// Simulated time at which the firmware looked the read up.
    pub at: SimTime,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (host {:?} of {} bytes at byte {}, at {:.6} s simulated)",
            self.detail,
            self.op,
            self.len,
            self.offset,
            self.at.as_secs_f64()
        )
    }
}

impl Drive {
    /// The checker's verdict so far.
    pub fn integrity(&self) -> IntegrityVerdict {
        let s = self.ftl.stats();
        IntegrityVerdict {
            checked: s.integrity_checked_units,
            violations: s.integrity_violations,
            first: self.first_violation.clone(),
        }
    }

    /// Called after the FTL served command `c`: records the first violation with its command.
    pub(super) fn note_integrity(&mut self, now: SimTime, c: &Cmd) {
        if self.first_violation.is_none() && self.ftl.stats().integrity_violations > 0 {
            self.first_violation = Some(Violation {
                detail: self
                    .ftl
                    .integrity_failure()
                    .unwrap_or("violation")
                    .to_string(),
                op: c.op,
                offset: c.lpn * 4096,
                len: c.len,
                at: now,
            });
        }
    }

    /// Test-only fault injection (feature `fault-injection`, never enabled by the command
    /// line): the FTL drops the mapping update of host write number `n` (1-based, counting
    /// units), so that a later read of it is served stale or lost data.
    #[cfg(feature = "fault-injection")]
    pub fn inject_dropped_mapping_update(&mut self, n: u64) {
        self.ftl.inject_dropped_mapping_update(n);
    }
}
