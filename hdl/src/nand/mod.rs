//! NAND side: the ONFI channel sequencer and the 8-channel array.
//!
//! Block per file: `way_queue` (per-way op FIFO), `way_fsm` (operation FSM per way), `arbiter`
//! (bus arbiter), `bus_engine` (bus primitives, PHY outputs), `sequencer` (one channel,
//! `NandChannel`), `array` (8 channels + dispatcher). `timing` elaborates cycle counts from the
//! model's `OnfiConfig`; `op` packs the op word of the command port.

pub mod arbiter;
pub mod array;
pub mod bus_engine;
pub mod op;
pub mod phy;
pub mod sequencer;
pub mod timing;
pub mod way_fsm;
pub mod way_queue;

use rust_hdl::prelude::{generate_verilog, Logic};
use ssdlab_model::DriveConfig;

/// Row-address increment between planes for `cfg`'s geometry: the plane bit sits just above the
/// page bits of the row address (ONFI: plane = lowest block address bit).
pub fn plane_stride(cfg: &DriveConfig) -> u32 {
    let pages = cfg.geometry.wordlines_per_block * cfg.geometry.bits_per_cell;
    pages.next_power_of_two()
}

/// The generated Verilog of every NAND block, elaborated from `cfg` (`make verilog`).
pub fn verilog_blocks(cfg: &DriveConfig) -> Vec<(&'static str, String)> {
    let t = timing::HdlTiming::new(&cfg.onfi, plane_stride(cfg)).unwrap_or_else(|e| {
        eprintln!("export-verilog: {e}");
        std::process::exit(2)
    });
    fn gen<L: Logic + rust_hdl::prelude::Block>(mut b: L) -> String {
        b.connect_all();
        generate_verilog(&b)
    }
    vec![
        ("nand_way_queue", gen(way_queue::WayQueue::default())),
        ("nand_way_fsm", gen(way_fsm::WayFsm::new(&t))),
        ("nand_arbiter", gen(arbiter::Arbiter::default())),
        ("nand_bus_engine", gen(bus_engine::BusEngine::new(&t))),
        ("nand_channel", gen(sequencer::NandChannel::new(&t))),
        ("nand_array", gen(array::NandArray::new(&t))),
    ]
}
