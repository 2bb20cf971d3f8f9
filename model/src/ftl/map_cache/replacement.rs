//! Replacement policy interface of the mapping cache: which way of a full set to evict.
//! The hardware (`ssdlab_hdl::ftl::map_cache`) implements the same policy bit for bit, so a
//! policy here is a contract, not a tuning knob: changing it means changing the HDL too.

/// Per-set replacement state. Called only for sets whose ways are all valid (invalid ways are
/// filled lowest-index first by the cache itself, before the policy is asked).
pub trait Replacement {
    /// Record a use (hit or fill) of `way` in `set`.
    fn touch(&mut self, set: usize, way: usize);
    /// The way to evict next from `set` (does not change state).
    fn victim(&self, set: usize) -> usize;
    /// Raw state bits of `set` (for comparison with the hardware's state word).
    fn state_bits(&self, set: usize) -> u32;
}
