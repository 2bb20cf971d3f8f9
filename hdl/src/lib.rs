//! ssdlab-hdl: the controller datapath in rust_hdl (crate rust-hdl 0.46).
//!
//! Folders follow the data path and mirror the behavioural model's module names: `nand`
//! (sequencer), `nvme`/`pcie` (front end), `ftl` (map_cache); `top` composes them with the page
//! buffer into the datapath (`top::Datapath`). `export` turns rust-hdl's Verilog (every file
//! `module top`) into the files `make verilog` writes (`module ssdlab_<block>`). Every block lives in its own file,
//! documents each port with its unit, and ends in an `_is_synthesizable` test.

mod elab;
pub mod export;
pub mod ftl;
pub mod nand;
pub mod nvme;
pub mod pcie;
pub mod pnr;
pub mod reference_models;
#[cfg(test)]
mod test_support;
pub mod top;

use rust_hdl::prelude::{generate_verilog, Block};

/// rust-hdl's Verilog of `block`, top module `top` (what the simulations load; `export` makes
/// the integrable files from it): connects the block's default drivers
/// (`connect_all`), then runs rust-hdl's generator. Every block's `export_verilog` goes through
/// here.
pub fn verilog_of<B: Block>(mut block: B) -> String {
    block.connect_all();
    generate_verilog(&block)
}

/// Re-evaluates a block's combinational logic until nothing changes: the settle step of every
/// cycle-by-cycle driver of a rust_hdl block (test benches and co-simulation DUTs that step a
/// block without rust_hdl's `Simulation`). At most `max_passes` passes; needing more means a
/// combinational loop, a bug in the block, so this panics naming `what`.
pub fn settle<B: Block + ?Sized>(uut: &mut B, max_passes: usize, what: &str) {
    for _ in 0..max_passes {
        uut.update_all();
        if !uut.has_changed() {
            return;
        }
    }
    panic!("rust_hdl {what} did not settle in {max_passes} passes (combinational loop?)");
}

/// `make synth`'s resource report and its regression check (tooling, not hardware).
pub mod synth_report;
