//! Tests of the workload runner against a fixed-latency device.

mod runner;
mod language;
