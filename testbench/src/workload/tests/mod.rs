//! Tests of the workload runner against a fixed-latency device.

mod language;
mod runner;
