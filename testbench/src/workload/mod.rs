//! Workloads: the device contract ([`device`]), the fio runner ([`runner`]), offsets, statistics.

pub mod device;
pub mod drive_adapter;
pub mod iolog;
pub mod lat_dist;
pub mod occupancy;
pub mod offsets;
pub mod rate;
pub mod result;
pub mod runner;
pub mod skew;
pub mod stats;
pub mod steady;
pub mod testdev;
pub mod unwritten;

pub use device::{Completion, Device, Extras, Integrity, Io, Op, PowerLossOutcome};
pub use result::{GroupResult, JobResult};
pub use runner::{run_jobs, Observer, Quiet};

#[cfg(test)]
mod tests;
