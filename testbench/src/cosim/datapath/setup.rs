//! The co-simulation drive and stimulus: a small geometry on the 8-channel, 4-way datapath (one
//! die per way as the HDL has, one plane, 4 KiB pages, SLC-native so a program unit is one
//! 4 KiB unit — the page-buffer rule of `jobs.rs`), the core clock at the front end's 250 MHz
//! (`onfi.core_clock_mhz` = 250, 1000 MT/s = 4 bytes per cycle: one clock for the whole top),
//! array times scaled down so a run covers many ops (tR 8 us, tPROG 40 us, tBERS 200 us), no
//! read-ahead, a mapping table that fits the DRAM, no firmware CPU time. Everything else is the
//! default preset.
//! [`with_suspend`] turns program/erase suspend on with its times scaled down alike.
//! [`preset_config`] is a built-in preset as the co-simulation runs it (no prefetch engine),
//! and [`preload_precondition`] loads its precondition's data into the NAND
//! targets of a hardware execution.

use super::exec::{run, RunLimits};
use super::firmware::Firmware;
use super::host::{unit_data, HostDriver, IoPattern};
use super::hw_exec::HwExec;
use super::jobs::{Planner, UNIT};
use super::model_exec::ModelExec;
use super::port::Streams;
use super::sig::DatapathDut;
use crate::fio::parse_job_file;
use crate::workload::runner::Draws;
use ssdlab_model::config::{DriveConfig, SuspendConfig, SuspendPolicyKind};
use ssdlab_model::ftl::Ftl;
use ssdlab_model::rng::SeedTree;

/// The co-simulation drive.
pub fn cosim_config() -> DriveConfig {
    let mut cfg = DriveConfig::default_drive();
    let g = &mut cfg.geometry;
    (
        g.channels,
        g.ways_per_channel,
        g.dies_per_way,
        g.planes_per_die,
    ) = (8, 4, 1, 1);
    (
        g.blocks_per_plane,
        g.wordlines_per_block,
        g.page_bytes,
        g.spare_bytes,
        g.bits_per_cell,
    ) = (32, 32, 4096, 0, 1);
    (cfg.onfi.core_clock_mhz, cfg.onfi.transfer_mts) = (250, 1000);
    for m in [&mut cfg.nand.slc, &mut cfg.nand.tlc] {
        (
            m.t_read_lsb_us,
            m.t_read_csb_us,
            m.t_read_msb_us,
            m.t_prog_us,
            m.t_erase_ms,
        ) = (8.0, 8.0, 8.0, 40.0, 0.2);
    }
    let f = &mut cfg.ftl;
    (
        f.over_provisioning_pct,
        f.gc_threshold_free_blocks,
        f.bg_gc_threshold_free_blocks,
        f.read_ahead_kib,
    ) = (25.0, 3, 6, 0);
    f.slc_cache.enabled = false;
    (
        f.slc_cache.static_blocks_per_plane,
        f.slc_cache.fold_ahead_blocks,
    ) = (0, 0);
    f.slc_cache.fold_when_full = false;
    // Relocation paced by each die's own host programs, whatever the preset calibrates.
    cfg.controller.relocation_while_writes_wait = false;
    // The short forms' commands reach the datapath as they are fetched (a preset's
    // co-simulation charges its own CPU time, `firmware::cores`).
    without_firmware_time(cfg)
}

/// `cfg` with no firmware CPU time (`controller.cpu_ns_per_*` = 0): the co-simulation's
/// firmware acts on each command in the cycle it is fetched.
pub fn without_firmware_time(mut cfg: DriveConfig) -> DriveConfig {
    let c = &mut cfg.controller;
    (c.cpu_ns_per_cmd, c.cpu_ns_per_unit, c.cpu_ns_per_write_cmd) = (0.0, 0.0, 0.0);
    cfg
}

/// `cfg` with program/erase suspend on under `policy`, its times scaled down with the array
/// times (tSUS 2 us, resume 1 us, minimum progress 5 us, `wait_over` 10 us, at most 5
/// suspends per op; at 250 MHz 500, 250, 1250 and 2500 cycles).
pub fn with_suspend(mut cfg: DriveConfig, policy: SuspendPolicyKind) -> DriveConfig {
    cfg.nand.suspend = SuspendConfig {
        policy,
        t_suspend_us: 2.0,
        t_resume_us: 1.0,
        max_suspends_per_op: 5,
        min_progress_us: 5.0,
        wait_over_us: 10.0,
        ..SuspendConfig::default()
    };
    cfg
}

/// A built-in preset as the co-simulation runs it: the preset, its geometry, NAND and ONFI
/// timing, sequencer clock (with the clock crossing), SLC cache, stream page cache (a stream's
/// reads read whole pages, `jobs`) and read-ahead (prefetched pages wait in a half of their
/// way's page-buffer region, `firmware::prefetch`). A read-ahead that runs through the drive's
/// prefetch engine ([`prefetch_engine`]), which the co-simulation's firmware does not have, is
/// turned off (`ftl.read_ahead_kib` = 0).
pub fn preset_config(name: &str) -> Result<DriveConfig, String> {
    preset_config_with(name, &[])
}

/// [`preset_config`] after `--set` overrides (`KEY=VALUE`, as `ssdlab run --preset NAME --set`
/// resolves them, derived keys included): a what-if on the datapath, `make sim PRESET=NAME
/// SET='ftl.slc_cache.enabled=false'`. A read-ahead override the co-simulation then turns off
/// again (the prefetch engine's) is refused, naming it.
pub fn preset_config_with(name: &str, sets: &[String]) -> Result<DriveConfig, String> {
    let mut cfg = shipped_config_with(name, sets)?;
    if let Some(key) = prefetch_engine(&cfg) {
        if let Some(s) = sets.iter().find(|s| s.starts_with("ftl.read_ahead")) {
            return Err(format!(
                "--set {s}: the co-simulation runs {name} with read-ahead off ({key} asks for the drive's prefetch engine, which its firmware does not have)"
            ));
        }
        let f = &mut cfg.ftl;
        (
            f.read_ahead_kib,
            f.read_ahead_inflight_kib,
            f.read_ahead_queue_kib,
        ) = (0, 0, 0);
        f.read_ahead_issue_ns_per_unit = 0.0;
    }
    cfg.validate()
        .map_err(|e| format!("{name} for the co-simulation: {e}"))?;
    Ok(cfg)
}

/// The built-in preset `name` as it ships, after `--set` overrides: what `ssdlab run --preset
/// NAME --set ...` runs, read-ahead and the stream page cache as configured (the drive beside
/// [`preset_config_with`]'s in `make sim`).
pub fn shipped_config_with(name: &str, sets: &[String]) -> Result<DriveConfig, String> {
    Ok(crate::drive_cfg::resolve(Some(name), None, sets)
        .map_err(|e| e.to_string())?
        .cfg)
}

/// The key of `cfg`'s read-ahead that runs it through the drive's prefetch engine
/// (`drive::prefetch`: a bound on prefetch data in flight, or an issue cost per unit), if
/// any: the co-simulation's firmware issues each prefetch as the FTL emits it.
pub fn prefetch_engine(cfg: &DriveConfig) -> Option<&'static str> {
    let f = &cfg.ftl;
    if f.read_ahead_kib == 0 {
        None
    } else if f.read_ahead_inflight_kib > 0 {
        Some("ftl.read_ahead_inflight_kib")
    } else if f.read_ahead_issue_ns_per_unit > 0.0 {
        Some("ftl.read_ahead_issue_ns_per_unit")
    } else {
        None
    }
}

/// Checks the geometry rule the firmware relies on (`jobs`): one die per way, and a
/// read-ahead without the prefetch engine. What an op may move beyond that is checked per op
/// (`jobs::Planner::jobs`).
pub fn check_geometry(cfg: &DriveConfig) -> Result<(), String> {
    let g = &cfg.geometry;
    if g.dies_per_way != 1 {
        return Err(format!(
            "co-simulation needs 1 die per way: geometry.dies_per_way is {}",
            g.dies_per_way
        ));
    }
    if let Some(key) = prefetch_engine(cfg) {
        return Err(format!(
            "co-simulation issues each prefetch as the FTL emits it: {key} must be 0 (the drive's prefetch engine)"
        ));
    }
    Ok(())
}

/// Firmware and host of one run: the job file `job` (first job), functional precondition of the
/// job's region when `precondition`, all from `seed`.
pub fn stimulus(
    cfg: &DriveConfig,
    job: &str,
    seed: u64,
    precondition: bool,
) -> Result<(Firmware, HostDriver), String> {
    cfg.validate().map_err(|e| e.to_string())?;
    let jobs = parse_job_file(job, "cosim job").map_err(|e| e.to_string())?;
    let j = jobs.first().ok_or("the job file has no job")?;
    let seeds = SeedTree::new(seed);
    let mut ftl = Ftl::new(cfg, &seeds).map_err(|e| e.to_string())?;
    let pat = IoPattern::from_job(j, ftl.logical_units())?;
    let capacity = ftl.logical_units() * 4096;
    let draws = (0..pat.numjobs)
        .map(|k| Draws::for_clone(j, (0, k), capacity, &seeds))
        .collect::<Result<Vec<_>, _>>()?;
    check_geometry(cfg)?;
    if precondition {
        let mut ops = Vec::new();
        let mut lpn = pat.first_unit;
        while lpn < pat.first_unit + pat.units {
            let n = 64.min(pat.first_unit + pat.units - lpn) as u32;
            ftl.host_write(lpn, n, &mut ops);
            ops.clear();
            lpn += n as u64;
        }
        // Units still staged for a partial program unit are programmed (padded), so every
        // read finds its unit on NAND.
        if ftl.has_staged() {
            ftl.flush(&mut ops);
        }
    }
    ftl.set_map_trace(true);
    let _ = ftl.take_map_trace();
    let planner = Planner::new(cfg, ftl.layout().unit_bus_bytes());
    let g = &cfg.geometry;
    Ok((
        Firmware::new(
            ftl,
            planner,
            g.channels as usize,
            g.ways_per_channel as usize,
            &cfg.controller,
        )
        .with_reads_beside(cfg.nand.suspend.policy != SuspendPolicyKind::Never),
        HostDriver::new(pat, draws),
    ))
}

/// Stores the data of the host's region (`HostDriver::region`, which the stimulus
/// preconditions; `host::unit_data` of each unit) in the NAND targets of `hw` where `fw`'s FTL
/// put it: row by `Planner::row`, column 4096 x the unit's slot (`jobs`). Returns the units
/// stored.
pub fn preload_precondition<D: DatapathDut>(
    host: &HostDriver,
    fw: &Firmware,
    hw: &mut HwExec<D>,
) -> u64 {
    let (ftl, planner) = (fw.ftl(), fw.planner());
    let l = ftl.layout();
    let mut stored = 0;
    for lpn in host.region() {
        let Some(ppa) = ftl.lookup(lpn) else { continue };
        let (page, slot) = l.page_and_slot(ppa);
        let die = page.die;
        hw.preload(
            die.channel as u8,
            die.way,
            planner.row(&page),
            (slot * UNIT) as usize,
            &unit_data(lpn),
        );
        stored += 1;
    }
    stored
}

/// The behavioural execution of `job` from `seed`.
pub fn run_model(
    cfg: &DriveConfig,
    job: &str,
    lim: RunLimits,
    precondition: bool,
) -> Result<Streams, String> {
    let (mut fw, mut host) = stimulus(cfg, job, lim.seed, precondition)?;
    let mut x = ModelExec::new(cfg)?;
    run(&mut x, &mut fw, &mut host, lim)
}

#[cfg(test)]
mod tests;
