//! Which behavioural model (a type of `ssdlab_model`) every exported HDL block is checked
//! against, one model per block. The test below holds ARCHITECTURE.md's invariant "every block
//! that exists in hdl/ has exactly one behavioural model, and the `Drive` runs it": every block
//! in `hdl/synth-report.txt` (the list `make synth` checks against the exported blocks) must be
//! in the table, and its model must be among `Drive::reference_blocks()`.

use ssdlab_model::ctrl::clock_crossing::ClockCrossing;
use ssdlab_model::ctrl::PageBuffer;
use ssdlab_model::ftl::map_cache::{MapCache, TagsOnly};
use ssdlab_model::nand::sequencer::ChannelSequencer;
use ssdlab_model::nvme::frontend::arbiter::RoundRobin;
use ssdlab_model::nvme::frontend::FrontEnd;
use std::any::type_name;

/// (exported block, the type of its behavioural model).
pub fn reference_models() -> Vec<(&'static str, &'static str)> {
    let seq = type_name::<ChannelSequencer>();
    let fe = type_name::<FrontEnd>();
    // The drive runs the cache's decision rule over tags only (its DRAM level is the FTL's
    // `DramTable`); the co-simulations run the same type over a `DramTable` of their own.
    let mut v = vec![("map_cache", type_name::<MapCache<TagsOnly>>())];
    for b in crate::export::NAND_STEMS {
        v.push((b, seq));
    }
    // The ONFI PHY: the sequencer charges what it adds to the channel's timing (the strobes'
    // bus time, the R/B# lag, the read return; `SeqTiming` from `nand::phy`), and its pin
    // schedule (`nand::phy::PhyTiming`) is what the pin-level tests check.
    v.push(("nand_phy", seq));
    v.push(("nvme_sq_arbiter", type_name::<RoundRobin>()));
    for b in [
        "nvme_rq_mux",
        "nvme_regs",
        "nvme_sq_fetch",
        "nvme_cq_post",
        "nvme_frontend",
        "nvme_prp_split",
        "nvme_prp_list",
        "nvme_prp_walk",
        "nvme_prp_write_data",
        "nvme_prp_read_data",
        "nvme_prp_dma",
    ] {
        v.push((b, fe));
    }
    // The top's own timing beyond its children is the DMA port's latency (`hdl/src/top.rs`, "DMA
    // latency"), which the page buffer's model carries.
    v.push(("page_buffer", type_name::<PageBuffer>()));
    v.push(("datapath", type_name::<PageBuffer>()));
    v
}

/// Blocks of hdl/ that are not exported blocks of their own (so not in the synthesis report),
/// with their models: the clock-crossing FIFO, two per channel inside `nand_array` when a
/// drive's sequencer clock is not the PCIe clock (every preset; the drive runs its model there).
pub fn standalone_models() -> Vec<(&'static str, &'static str)> {
    vec![("clock_crossing", type_name::<ClockCrossing>())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::drive::Drive;
    use std::collections::BTreeSet;

    /// Block names of the checked-in synthesis report (first column of its non-comment lines).
    fn synthesised_blocks() -> BTreeSet<&'static str> {
        include_str!("../synth-report.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split_whitespace().next())
            .collect()
    }

    #[test]
    fn every_hdl_block_has_one_model_and_the_drive_runs_it() {
        let table = reference_models();
        let blocks: BTreeSet<&str> = table.iter().map(|(b, _)| *b).collect();
        assert_eq!(
            blocks.len(),
            table.len(),
            "a block listed twice (one model each)"
        );
        let exported = synthesised_blocks();
        assert_eq!(
            blocks, exported,
            "the table and hdl/synth-report.txt name different blocks"
        );
        let drive = Drive::new(&crate::top::small_drive_config(), 1).unwrap();
        let runs = drive.reference_blocks();
        let mut unreached = BTreeSet::new();
        for (block, model) in &table {
            if !runs.contains(model) {
                unreached.insert(*block);
            }
        }
        assert!(
            unreached.is_empty(),
            "blocks whose reference model the Drive does not run: {unreached:?} (Drive runs {runs:?})"
        );
    }

    #[test]
    fn the_preset_drive_runs_the_models_of_the_standalone_blocks() {
        let cfg = ssdlab_model::DriveConfig::default_drive();
        let runs = Drive::new(&cfg, 1).unwrap().reference_blocks();
        for (block, model) in standalone_models() {
            assert!(
                runs.contains(&model),
                "{block}: the drive does not run {model} (runs {runs:?})"
            );
        }
        // On one clock there is no crossing to run.
        let one_clock = Drive::new(&crate::top::small_drive_config(), 1).unwrap();
        assert!(!one_clock
            .reference_blocks()
            .contains(&type_name::<ClockCrossing>()));
    }
}
