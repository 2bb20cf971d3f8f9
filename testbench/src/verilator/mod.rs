//! Generic Verilator runner: builds generated Verilog into a shared library and drives its ports from Rust tests. (being built)
