//! Program/erase suspend on the NAND target (ONFI 4.1 suspend and resume, vendor command
//! bytes from the drive's config): a suspend latched while a program or erase is open keeps the
//! array time the operation had left and holds R/B# low for tSUS; reads may then run; a resume
//! holds R/B# low for the resume latency plus the time left. A suspend with nothing to suspend,
//! a resume while busy or without a suspend, and any command but a read while suspended are
//! violations.

use super::{Expect, NandTarget};
use ssdlab_model::encoding::onfi::SuspendCommands;

/// Program/erase suspend on a target: command bytes, tSUS and resume latency in cycles.
#[derive(Clone, Copy, Debug)]
pub struct TargetSuspend {
    pub commands: SuspendCommands,
    pub t_suspend: u64,
    pub t_resume: u64,
}

impl NandTarget {
    /// Accept program/erase suspend and resume from now on.
    pub fn set_suspend(&mut self, s: TargetSuspend) {
        self.sus = Some(s);
    }
    /// A program or erase is suspended.
    pub fn suspended(&self) -> bool {
        self.suspended.is_some()
    }
    /// A program or erase was suspended at some beat-port cycle from `n` on: it is now, or a
    /// resume was latched after `n`. An op completes the PHY's read return after its last
    /// phase (and a clock crossing later on the PCIe side), by when the resume that follows a
    /// suspension's last read may be latched: a bench asks about the read's phase end (or
    /// earlier), never the completion's cycle. Its program or erase completes at least the
    /// resume latency after the resume.
    pub fn suspended_since(&self, n: u64) -> bool {
        self.suspended() || self.resumed_at.is_some_and(|r| r > self.at_pins(n))
    }
    /// Suspend (legal while a program or erase is open, busy or just finished) or resume
    /// (legal only while suspended) latched at cycle `n`; false if `cmd` is neither.
    pub(super) fn suspend_command(&mut self, n: u64, cmd: u8) -> bool {
        let Some(s) = self.sus else { return false };
        if self.expect != Expect::Command {
            return false;
        }
        let end = n + self.t.latch as u64;
        if cmd == s.commands.suspend {
            self.check_latch(n);
            if !self.pe_open || self.suspended.is_some() {
                self.violation(
                    n,
                    format!("suspend {cmd:02X}h with no program or erase to suspend"),
                );
            }
            self.suspended = Some(self.busy_until.saturating_sub(end));
            self.busy_until = end + s.t_suspend;
            self.array_free = self.busy_until;
            return true;
        }
        if cmd == s.commands.resume && (self.suspended.is_some() || self.pe_open) {
            self.check_latch(n);
            if !self.ready(n) {
                self.violation(
                    n,
                    format!("resume {cmd:02X}h while busy (until {})", self.busy_until),
                );
            }
            let Some(left) = self.suspended.take() else {
                self.violation(n, format!("resume {cmd:02X}h without a suspend"));
                return true;
            };
            self.busy_until = end + s.t_resume + left;
            self.array_free = self.busy_until;
            self.resumed_at = Some(n);
            return true;
        }
        false
    }
}
