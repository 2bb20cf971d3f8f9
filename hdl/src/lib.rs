//! ssdlab-hdl: the controller datapath in rust_hdl (crate rust-hdl 0.46).
//!
//! Folders follow the data path and mirror the behavioural model's module names: `nand`
//! (sequencer), `nvme`/`pcie` (front end), `ftl` (map_cache); `top` composes them with the page
//! buffer into the datapath (`top::Datapath`, Verilog `module top`). Every block lives in its own file,
//! documents each port with its unit, and ends in an `_is_synthesizable` test.

pub mod ftl;
pub mod nand;
pub mod nvme;
pub mod pcie;
pub mod top;

use rust_hdl::prelude::{generate_verilog, Block};

/// Verilog of `block` as the top module `top`: connects the block's default drivers
/// (`connect_all`), then runs rust-hdl's generator. Every block's `export_verilog` goes through
/// here.
pub fn verilog_of<B: Block>(mut block: B) -> String {
    block.connect_all();
    generate_verilog(&block)
}

/// `make synth`'s resource report and its regression check (tooling, not hardware).
pub mod synth_report;
