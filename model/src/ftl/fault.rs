//! Test-only fault injection (feature `fault-injection`): a firmware bug on demand, so that
//! tests can show the integrity checker and the command line catch it. Not a model of any
//! hardware; the command line never enables the feature and no input reaches it.
//!
//! The fault: one host write's mapping update is lost. The data is programmed and its spare
//! area written, and the checker records the write, but the mapping entry keeps pointing to
//! the unit's previous location (or stays unmapped), as when firmware loses a table update.
//! The next read of that unit is served stale (or no) data.

use super::Ftl;

/// Which host write (1-based, counted in units) loses its mapping update; 0: none.
#[derive(Clone, Debug, Default)]
pub struct DroppedMappingUpdate {
    pub target: u64,
    pub seen: u64,
}

impl Ftl {
    /// Arms the fault for host unit write number `n` (1-based) from now.
    pub fn inject_dropped_mapping_update(&mut self, n: u64) {
        self.fault = DroppedMappingUpdate { target: n, seen: 0 };
    }

    /// The location the mapping entry of the unit being written gets: the new one, or, for the
    /// write chosen by the fault, the old one (`old`, possibly NONE).
    #[inline]
    pub(super) fn faulty_mapping(&mut self, new: u32, old: u32) -> u32 {
        if self.fault.target == 0 {
            return new;
        }
        self.fault.seen += 1;
        if self.fault.seen == self.fault.target {
            old
        } else {
            new
        }
    }
}
