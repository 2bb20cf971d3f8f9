//! NAND side: the ONFI channel sequencer and the array of channels.
//!
//! Block per file: `way_queue` (per-way op FIFO), `way_fsm` (operation FSM per way), `arbiter`
//! (bus arbiter), `bus_engine` (bus primitives, PHY outputs), `sequencer` (one channel,
//! `NandChannel`, 1-8 ways), `array` (1-16 channels + dispatcher). `timing` elaborates cycle counts from the
//! model's `OnfiConfig`; `op` packs the op word of the command port. `phy` holds the beat-port
//! bundle (`NandPhy`) and the pin-level ONFI PHY behind it (`OnfiPhy`, not yet in the channel).

pub mod arbiter;
pub mod array;
pub mod bus_engine;
pub mod op;
pub mod phy;
pub mod sequencer;
pub mod timing;
pub mod way_fsm;
pub mod way_queue;

use ssdlab_model::DriveConfig;

/// Row-address increment between planes for `cfg`'s geometry: the plane bit sits just above the
/// page bits of the row address (ONFI: plane = lowest block address bit).
pub fn plane_stride(cfg: &DriveConfig) -> u32 {
    let pages = cfg.geometry.wordlines_per_block * cfg.geometry.bits_per_cell;
    pages.next_power_of_two()
}

/// `(channels, ways)` of `cfg`'s geometry as the array elaborates it, or why it cannot, naming
/// the field and the limit: 1..=16 channels ([`array::MAX_CHANNELS`], the 4-bit channel id),
/// 1..=8 ways ([`arbiter::MAX_WAYS`], the 8-bit CE and R/B# vectors) and one die per way (a way
/// FSM runs one target: several LUNs behind one CE would need per-LUN FSMs on a shared CE).
pub fn array_geometry(cfg: &DriveConfig) -> Result<(usize, usize), Vec<String>> {
    let g = &cfg.geometry;
    let mut why = Vec::new();
    if !(1..=array::MAX_CHANNELS as u32).contains(&g.channels) {
        why.push(format!(
            "geometry.channels: {}; the NAND array has 1..={} channels",
            g.channels,
            array::MAX_CHANNELS
        ));
    }
    if !(1..=arbiter::MAX_WAYS as u32).contains(&g.ways_per_channel) {
        why.push(format!(
            "geometry.ways_per_channel: {}; a NAND channel has 1..={} ways",
            g.ways_per_channel,
            arbiter::MAX_WAYS
        ));
    }
    if g.dies_per_way != 1 {
        why.push(format!(
            "geometry.dies_per_way: {}; a way of the NAND sequencer drives one die",
            g.dies_per_way
        ));
    }
    match why.is_empty() {
        true => Ok((g.channels as usize, g.ways_per_channel as usize)),
        false => Err(why),
    }
}

/// The ONFI PHY's rust-hdl Verilog for `cfg`, or the refusal naming the config field
/// (`make verilog`'s `nand_phy`; its model in the drive is the sequencer's PHY terms,
/// `reference_models`).
pub fn phy_verilog(cfg: &DriveConfig) -> Result<String, String> {
    phy::OnfiPhy::new(&cfg.onfi).map(crate::verilog_of)
}

/// The generated Verilog of every NAND block, elaborated from `cfg` (`make verilog`); the error
/// (from `HdlTiming`) names the config field the sequencer cannot time.
pub fn verilog_blocks(cfg: &DriveConfig) -> Result<Vec<(&'static str, String)>, String> {
    let (channels, ways) = array_geometry(cfg).map_err(|why| why.join("\n"))?;
    let cross = crate::top::crosses_clocks(cfg);
    let t = timing::HdlTiming::new(&cfg.onfi, plane_stride(cfg))
        .and_then(|t| t.with_suspend(&cfg.nand.suspend))?;
    Ok(vec![
        (
            "nand_way_queue",
            crate::verilog_of(way_queue::WayQueue::default()),
        ),
        ("nand_way_fsm", crate::verilog_of(way_fsm::WayFsm::new(&t))),
        (
            "nand_arbiter",
            crate::verilog_of(arbiter::Arbiter::default()),
        ),
        (
            "nand_bus_engine",
            crate::verilog_of(bus_engine::BusEngine::new(&t)),
        ),
        (
            "nand_channel",
            crate::verilog_of(sequencer::NandChannel::new(&t, ways)),
        ),
        (
            "nand_array",
            crate::verilog_of(array::NandArray::new(&t, channels, ways, cross)),
        ),
    ])
}
