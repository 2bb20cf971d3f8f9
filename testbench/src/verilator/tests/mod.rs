//! Tests of the Verilator runner that build a model: fast-forward stepping and VCD traces.

mod ff;
mod second_clock;
mod trace;
