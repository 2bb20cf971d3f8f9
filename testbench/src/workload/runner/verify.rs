//! fio's verify phase (HOWTO "verify"; `backend.c` `do_verify` after each `do_io` pass): once a
//! pass's writes have completed, every block it wrote is read back, in offset order (fio's
//! default `verify_sort=1`; a later write at an offset replaces the earlier one). No data bytes
//! are stored: the drive's data-integrity checker (`Drive::integrity`) compares every host
//! read's units with the versions last written, which is the check fio's checksums make, so the
//! read-back is what `verify` adds; a mismatch fails the run (`cli.rs`, exit 1). Verify reads
//! count as reads, as fio reports them; `runtime` does not cut them short.

use super::Clone;
use std::collections::BTreeMap;

/// fio's `verify=` values (`options.c`); `0` and `null` verify nothing.
pub const VERIFY_TYPES: &[&str] = &[
    "0",
    "md5",
    "crc64",
    "crc32",
    "crc32c-intel",
    "crc32c",
    "crc16",
    "crc7",
    "sha1",
    "sha256",
    "sha512",
    "sha3-224",
    "sha3-256",
    "sha3-384",
    "sha3-512",
    "xxhash",
    "meta",
    "pattern",
    "pattern_hdr",
    "null",
];

#[derive(Debug)]
enum Phase {
    Writing,
    /// The pass ended; its writes are still in the device.
    Waiting,
    Reading(std::collections::btree_map::IntoIter<u64, u64>),
    Done,
}

/// A clone's verify state for the current pass.
#[derive(Debug)]
pub(super) struct Verify {
    written: BTreeMap<u64, u64>,
    phase: Phase,
}

impl Verify {
    pub(super) fn new() -> Verify {
        Verify {
            written: BTreeMap::new(),
            phase: Phase::Writing,
        }
    }
}

/// What the verify phase does next.
pub(super) enum Step {
    Wait,
    Read(u64, u64),
    Done,
}

impl Clone {
    /// A write of this pass was submitted.
    pub(super) fn wrote(&mut self, offset: u64, len: u64) {
        if let Some(v) = &mut self.verify {
            if matches!(v.phase, Phase::Writing) {
                v.written.insert(offset, len);
            }
        }
    }
    /// The pass ended with writes not yet read back.
    pub(super) fn verify_pending(&self) -> bool {
        self.verify
            .as_ref()
            .is_some_and(|v| matches!(v.phase, Phase::Writing) && !v.written.is_empty())
    }
    /// The verify phase is under way or still due: the clone is not finished.
    pub(super) fn verify_open(&self) -> bool {
        self.verify_pending()
            || self
                .verify
                .as_ref()
                .is_some_and(|v| matches!(v.phase, Phase::Waiting | Phase::Reading(_)))
    }
    pub(super) fn begin_verify(&mut self) {
        if let Some(v) = &mut self.verify {
            v.phase = Phase::Waiting;
        }
    }
    /// The next verify action; `None` outside the verify phase.
    pub(super) fn verify_step(&mut self) -> Option<Step> {
        let outstanding = self.outstanding;
        let v = self.verify.as_mut()?;
        if matches!(v.phase, Phase::Waiting) {
            if outstanding > 0 {
                return Some(Step::Wait);
            }
            v.phase = Phase::Reading(std::mem::take(&mut v.written).into_iter());
        }
        match &mut v.phase {
            Phase::Reading(it) => Some(match it.next() {
                Some((o, l)) => Step::Read(o, l),
                None => {
                    v.phase = Phase::Done;
                    Step::Done
                }
            }),
            _ => None,
        }
    }
    /// A new pass writes (and verifies) afresh.
    pub(super) fn verify_next_pass(&mut self) {
        if let Some(v) = &mut self.verify {
            *v = Verify::new();
        }
    }
}
