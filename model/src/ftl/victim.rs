//! Garbage-collection victim selection, a policy behind a trait (one implementation per file:
//! `greedy.rs`, `cost_benefit.rs`, `windowed.rs`). Source: Rosenblum & Ousterhout, "The Design and
//! Implementation of a Log-Structured File System" (1992) for greedy and cost-benefit cleaning.

/// What a policy sees of one closed block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub dbid: u32,
    /// Valid 4 KiB units in the block.
    pub valid: u32,
    /// Units the block holds when full (depends on its cell mode).
    pub capacity: u32,
    /// Host writes since the block was last written (its data's age).
    pub age: u64,
}

pub trait VictimPolicy: std::fmt::Debug + Send {
    /// Index of the candidate to collect, or None when `cands` is empty. Deterministic: ties go
    /// to the lowest index.
    fn pick(&self, cands: &[Candidate]) -> Option<usize>;
}

/// The configured policy; `window` is `ftl.gc_window_blocks` (used by windowed greedy only).
pub fn policy(kind: crate::config::GcPolicyKind, window: u32) -> Box<dyn VictimPolicy> {
    match kind {
        crate::config::GcPolicyKind::Greedy => Box::new(super::greedy::Greedy),
        crate::config::GcPolicyKind::CostBenefit => Box::new(super::cost_benefit::CostBenefit),
        crate::config::GcPolicyKind::WindowedGreedy => {
            Box::new(super::windowed::WindowedGreedy { window })
        }
    }
}
