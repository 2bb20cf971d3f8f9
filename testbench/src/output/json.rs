//! `--output-format=json`: fio 3.x's JSON shape, so fio post-processing tools read it.
//!
//! Per job `read`/`write`/`trim` objects carry io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops,
//! runtime (ms), total_ios, slat_ns/clat_ns/lat_ns {min,max,mean,stddev,N} and
//! clat_ns.percentile {"50.000000": ns, ...}, plus bw/iops min/max/mean over time samples. ssdlab
//! submits straight to the device, so slat is 0 and lat = clat. The device's figures live under
//! the top-level key `ssdlab`, which fio tools ignore.

use super::fio_runtime_ms;
use crate::fio::JobSpec;
use crate::workload::lat_dist::percent;
use crate::workload::stats::DirStats;
use crate::workload::{GroupResult, JobResult};
use serde_json::{json, Map, Value};
use ssdlab_model::SimTime;

fn lat_obj(d: &DirStats, percentiles: Option<&[f64]>) -> Value {
    let l = &d.lat;
    let mut o = json!({
        "min": l.min_ns(), "max": l.max_ns(), "mean": l.mean_ns(), "stddev": l.stddev_ns(), "N": l.count(),
    });
    if let Some(list) = percentiles.filter(|_| l.count() > 0) {
        let p: Map<String, Value> = list
            .iter()
            .map(|p| (format!("{p:.6}"), json!(l.percentile_ns(*p))))
            .collect();
        o["percentile"] = Value::Object(p);
    }
    o
}

/// What a sample measures: KiB/s (fio's `bw_*`) or IO/s (`iops_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Per {
    KiB,
    Io,
}

/// Samples of one direction as fio takes them: one per whole `window` of the runtime (a partial
/// last window gives none: fio's sample count is runtime / window, rounded down), each the KiB or
/// IOs completed in it over its length. Windows are built from the throughput series' bins (by
/// bin start); a window shorter than a bin is widened to one bin.
pub(crate) fn samples(d: &DirStats, runtime: SimTime, window: SimTime, per: Per) -> Vec<f64> {
    let bin = d.series.bin;
    let w = window.max(bin);
    let n = (runtime.as_ps() / w.as_ps()) as usize;
    let (values, unit) = match per {
        Per::KiB => (&d.series.bytes, 1024.0),
        Per::Io => (&d.series.ios, 1.0),
    };
    let mut sums = vec![0u64; n];
    for (i, v) in values.iter().enumerate() {
        let k = ((bin * i as u64).as_ps() / w.as_ps()) as usize;
        if k < n {
            sums[k] += v;
        }
    }
    sums.iter()
        .map(|v| *v as f64 / unit / w.as_secs_f64())
        .collect()
}

/// (min, max, mean, standard deviation) of samples; the deviation with n - 1 as fio's `calc_lat`
/// computes it (0 for a single sample).
pub(crate) fn stat(v: &[f64]) -> (f64, f64, f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = if v.len() > 1 {
        v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let min = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = v.iter().cloned().fold(0.0, f64::max);
    (min, max, mean, var.sqrt())
}

/// A job's mean sampled bandwidth `bmean_kib` (KiB/s) in percent of its group's `group_bw_bytes`
/// (B/s), capped at 100; 100 for a group below 1 KiB/s (fio's `convert_agg_kbytes_percent`).
pub(super) fn bw_agg_pct(bmean_kib: f64, group_bw_bytes: f64) -> f64 {
    if group_bw_bytes > 1024.0 {
        (bmean_kib * 100.0 / (group_bw_bytes / 1024.0)).min(100.0)
    } else {
        100.0
    }
}

/// One direction's object. As in fio's `add_ddir_status_json`: `runtime` is 0 for a direction
/// without IO, `bw` (KiB/s) is `bw_bytes / 1024` in integer arithmetic; `bw_bytes` and `iops`
/// are over the exact simulated runtime (fio divides by whole milliseconds). `bw_agg` is the mean
/// sampled bandwidth in percent of the group's (`group_bw_bytes`, B/s), capped at 100, as fio's
/// `convert_agg_kbytes_percent`.
fn dir_obj(d: &DirStats, runtime: SimTime, spec: &JobSpec, group_bw_bytes: f64) -> Value {
    let zero = DirStats::default();
    let runtime = if d.ios > 0 { runtime } else { SimTime::ZERO };
    let bws = samples(d, runtime, spec.bw_avg, Per::KiB);
    let iopss = samples(d, runtime, spec.iops_avg, Per::Io);
    let (bmin, bmax, bmean, bdev) = stat(&bws);
    let (imin, imax, imean, idev) = stat(&iopss);
    let bw_bytes = d.bw_bytes(runtime).floor() as u64;
    let bw_agg = if bws.is_empty() {
        0.0
    } else {
        bw_agg_pct(bmean, group_bw_bytes)
    };
    json!({
        "io_bytes": d.bytes,
        "io_kbytes": d.bytes / 1024,
        "bw_bytes": bw_bytes,
        "bw": bw_bytes / 1024,
        "iops": d.iops(runtime),
        "runtime": fio_runtime_ms(runtime),
        "total_ios": d.ios,
        "short_ios": 0,
        "drop_ios": 0,
        "slat_ns": lat_obj(&zero, None),
        "clat_ns": lat_obj(d, Some(&spec.percentiles)),
        "lat_ns": lat_obj(d, None),
        "bw_min": bmin.round() as u64, "bw_max": bmax.round() as u64, "bw_agg": bw_agg,
        "bw_mean": bmean, "bw_dev": bdev, "bw_samples": bws.len(),
        "iops_min": imin.round() as u64, "iops_max": imax.round() as u64,
        "iops_mean": imean, "iops_stddev": idev, "iops_samples": iopss.len(),
    })
}

/// Options as fio's JSON prints them: every value a string, as written in the job file.
fn options_obj(opts: &[(String, String)]) -> Value {
    Value::Object(
        opts.iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    )
}

/// fio's `latency_ns/us/ms` objects of a job: percent of all its IOs per latency range.
fn latency_dist(j: &JobResult) -> [Value; 3] {
    let mut d = j.read.dist.clone();
    d.merge(&j.write.dist);
    let total = j.read.ios + j.write.ios;
    d.by_unit().map(|(_, keys)| {
        Value::Object(
            keys.into_iter()
                .map(|(k, c)| (k, json!(percent(c, total))))
                .collect(),
        )
    })
}

/// One job; `group_bw` = its group's (read, write) bandwidth, B/s.
fn job_obj(j: &JobResult, group_bw: (f64, f64)) -> Value {
    let s = &j.spec;
    let opts = options_obj(&s.options);
    let ms = fio_runtime_ms(j.runtime);
    let dist = latency_dist(j);
    let mut v = json!({
        "jobname": j.name,
        "groupid": j.groupid,
        "error": 0,
        "eta": 0,
        "elapsed": ms.div_ceil(1000),
        "job options": opts,
        "read": dir_obj(&j.read, j.runtime, s, group_bw.0),
        "write": dir_obj(&j.write, j.runtime, s, group_bw.1),
        "trim": dir_obj(&j.trim, j.runtime, s, 0.0),
        "sync": { "total_ios": 0, "lat_ns": lat_obj(&DirStats::default(), None) },
        "job_runtime": ms,
        "latency_ns": dist[0].clone(), "latency_us": dist[1].clone(), "latency_ms": dist[2].clone(),
        "usr_cpu": 0.0, "sys_cpu": 0.0, "ctx": 0, "majf": 0, "minf": 0,
    });
    for (k, x) in &j.extra {
        v[k] = x.clone();
    }
    v
}

/// One level of the mapping hierarchy: accesses, hits, hit rate (null without accesses).
fn map_level((accesses, hits): (u64, u64)) -> Value {
    let rate = (accesses > 0).then(|| hits as f64 / accesses as f64);
    json!({"accesses": accesses, "hits": hits, "hit_rate": rate})
}

/// ssdlab's device figures of one group.
pub fn group_extras(g: &GroupResult) -> Value {
    let e = &g.extras;
    let (r, w) = g.totals();
    let secs = g.window().as_secs_f64();
    let power = g.avg_power_w();
    let mbps = if secs > 0.0 {
        (r.bytes + w.bytes) as f64 / secs / 1e6
    } else {
        0.0
    };
    json!({
        "groupid": g.groupid,
        "window_s": secs,
        "host_bytes_read": r.bytes,
        "host_bytes_written": w.bytes,
        "write_amplification": e.write_amplification(),
        "nand_ops": e.nand_ops,
        "slc_used_bytes": e.slc_used_bytes,
        "slc_blocks": e.slc_blocks,
        "free_blocks": e.free_blocks,
        "gc_blocks": e.gc_blocks,
        "gc_victim_valid_fraction": e.gc_victim_valid_fraction,
        "fold_blocks": e.fold_blocks,
        "read_units": e.read_units,
        "unwritten_read_units": e.unwritten_read_units,
        "unwritten_read_pct": e.unwritten_read_share().map(|s| s * 100.0),
        "energy_j": e.energy_j,
        "energy_by_source_j": e.energy_by_source_j,
        "map_lookups": {"sram": map_level(e.map_sram), "dram": map_level(e.map_dram)},
        "avg_power_w": power,
        "mbps_per_w": power.filter(|p| *p > 0.0).map(|p| mbps / p),
        "utilisation": e.utilisation().map(|u| u.json()),
        "flash_state_over_time": flash_state_over_time(g),
    })
}

/// The SLC cache's valid data and the free die-blocks over the window, one entry per time bin
/// that holds a sample (`workload::occupancy`): `t_ms` is the bin's end from the window start;
/// null for devices without an FTL.
fn flash_state_over_time(g: &GroupResult) -> Value {
    let pts = g.occupancy.points(g.window());
    if pts.is_empty() {
        return Value::Null;
    }
    json!({
        "bin_ms": g.occupancy.bin.as_secs_f64() * 1e3,
        "t_ms": pts.iter().map(|(t, _)| t.as_secs_f64() * 1e3).collect::<Vec<_>>(),
        "slc_valid_bytes": pts.iter().map(|(_, s)| s.slc_bytes).collect::<Vec<_>>(),
        "slc_blocks": pts.iter().map(|(_, s)| s.slc_blocks).collect::<Vec<_>>(),
        "free_blocks": pts.iter().map(|(_, s)| s.free_blocks).collect::<Vec<_>>(),
    })
}

/// fio's top-level `disk_util` entry for the modelled drive (fio reads /proc/diskstats): IOs,
/// 512-byte sectors and summed latencies (ms) per direction over the measurement windows,
/// `in_queue` = both directions' summed latency, `util` = 100 x time with a command outstanding
/// / window time. Named after the job's `filename` (`/dev/nvme0n1` -> `nvme0n1`), else "ssdlab".
fn disk_util(groups: &[GroupResult]) -> Value {
    let (mut r, mut w) = (DirStats::default(), DirStats::default());
    let (mut busy, mut window) = (SimTime::ZERO, SimTime::ZERO);
    for g in groups {
        let (gr, gw) = g.totals();
        r.merge(&gr);
        w.merge(&gw);
        busy += g.busy;
        window += g.window();
    }
    let ticks_ms = |d: &DirStats| (d.lat.mean_ns() * d.lat.count() as f64 / 1e6).round() as u64;
    let util = if window > SimTime::ZERO {
        (100.0 * busy.as_secs_f64() / window.as_secs_f64()).min(100.0)
    } else {
        0.0
    };
    let name = groups
        .iter()
        .flat_map(|g| &g.jobs)
        .flat_map(|j| j.spec.options.iter().chain(&j.spec.global_options))
        .find(|(k, _)| k == "filename")
        .and_then(|(_, v)| v.rsplit('/').next().filter(|n| !n.is_empty()))
        .unwrap_or("ssdlab");
    json!([{
        "name": name,
        "read_ios": r.ios, "write_ios": w.ios,
        "read_sectors": r.bytes / 512, "write_sectors": w.bytes / 512,
        "read_merges": 0, "write_merges": 0,
        "read_ticks": ticks_ms(&r), "write_ticks": ticks_ms(&w),
        "in_queue": ticks_ms(&r) + ticks_ms(&w),
        "util": util,
    }])
}

/// fio's `--output-format=json+`: [`document`] with `clat_ns.bins` in every job's read and
/// write object, `{"latency ns": count}` for each non-empty histogram bucket (fio keys its
/// `bins` by its own buckets' values; here the buckets are ssdlab's: exact below 128 ns, then
/// 64 per power of two, like fio's `FIO_IO_U_PLAT_BITS` = 6).
pub fn document_plus(groups: &[GroupResult], meta: Value) -> Value {
    let mut doc = document(groups, meta);
    let jobs = groups.iter().flat_map(|g| g.jobs.iter());
    for (i, j) in jobs.enumerate() {
        for (dir, d) in [("read", &j.read), ("write", &j.write)] {
            let bins: Map<String, Value> = d
                .lat
                .bins()
                .into_iter()
                .map(|(ns, c)| (ns.to_string(), json!(c)))
                .collect();
            doc["jobs"][i][dir]["clat_ns"]["bins"] = Value::Object(bins);
        }
    }
    doc
}

/// The fio-shaped document of one job-file run; `meta` goes under `ssdlab` beside the groups.
pub fn document(groups: &[GroupResult], meta: Value) -> Value {
    let mut jobs: Vec<Value> = Vec::new();
    for g in groups {
        let (r, w) = g.totals();
        let bw = (r.bw_bytes(g.window()), w.bw_bytes(g.window()));
        jobs.extend(g.jobs.iter().map(|j| job_obj(j, bw)));
    }
    let globals = groups
        .last()
        .and_then(|g| g.jobs.last())
        .map_or(json!({}), |j| options_obj(&j.spec.global_options));
    let mut ssd = meta;
    ssd["groups"] = Value::Array(groups.iter().map(group_extras).collect());
    json!({
        "fio version": concat!("ssdlab-", env!("CARGO_PKG_VERSION")),
        "timestamp": 0,
        "timestamp_ms": 0,
        "time": "simulated",
        "global options": globals,
        "jobs": jobs,
        "disk_util": disk_util(groups),
        "ssdlab": ssd,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::testdev::run_on_fixed;

    #[test]
    fn fio_shape_with_hand_figures() {
        // 100 reads of 4 KiB at QD4, 100 us each: 2.5 ms, 40 000 IOPS,
        // 409 600 B / 2.5 ms = 163 840 000 B/s = 160 000 KiB/s.
        let g = run_on_fixed(
            "[j]\nrw=read\niodepth=4\nsize=400k\nbwavgtime=1\niopsavgtime=1\n",
            100,
        );
        let doc = document(&g, json!({"seed": 1}));
        let r = &doc["jobs"][0]["read"];
        assert_eq!(doc["jobs"][0]["jobname"], "j");
        assert_eq!(r["io_bytes"], 409_600);
        assert_eq!(r["total_ios"], 100);
        assert_eq!(r["bw"], 160_000);
        assert_eq!(r["bw_bytes"], 163_840_000u64);
        assert_eq!(r["iops"], 40_000.0);
        assert_eq!(r["runtime"], 3); // 2.5 ms, rounded up like fio
        assert_eq!(r["io_kbytes"], 400);
        // bwavgtime=1: 2 whole 1 ms windows in 2.5 ms (fio drops the partial one), each with
        // 40 completions of 4 KiB: 160 KiB / 1 ms = 160 000 KiB/s, 40 000 IO/s.
        assert_eq!(
            (
                r["bw_min"].as_u64(),
                r["bw_max"].as_u64(),
                r["bw_samples"].as_u64()
            ),
            (Some(160_000), Some(160_000), Some(2))
        );
        assert_eq!(
            (r["iops_min"].as_u64(), r["iops_max"].as_u64()),
            (Some(40_000), Some(40_000))
        );
        // fio: a direction without IO has runtime 0.
        assert_eq!(doc["jobs"][0]["write"]["runtime"], 0);
        assert_eq!(doc["jobs"][0]["trim"]["runtime"], 0);
        assert_eq!(r["clat_ns"]["percentile"]["50.000000"], 100_000);
        assert_eq!(r["clat_ns"]["percentile"]["99.990000"], 100_000);
        assert_eq!(r["lat_ns"]["mean"], 100_000.0);
        assert_eq!(r["slat_ns"]["max"], 0);
        assert_eq!(doc["jobs"][0]["write"]["total_ios"], 0);
        assert_eq!(doc["ssdlab"]["seed"], 1);
        assert!(doc["ssdlab"]["groups"][0]["write_amplification"].is_null());
        // The test device has no mapping cache: zero accesses, no hit rate.
        let sram = &doc["ssdlab"]["groups"][0]["map_lookups"]["sram"];
        assert_eq!(sram["accesses"], 0);
        assert!(sram["hit_rate"].is_null());
        // disk_util: 100 reads x 100 us = 10 ms of summed latency; a command is outstanding for
        // the whole 2.5 ms window (QD4 back to back): util 100 %; 409 600 B = 800 sectors.
        let du = &doc["disk_util"][0];
        assert_eq!(
            (
                du["name"].as_str(),
                du["read_ios"].as_u64(),
                du["write_ios"].as_u64()
            ),
            (Some("ssdlab"), Some(100), Some(0))
        );
        assert_eq!(
            (
                du["read_ticks"].as_u64(),
                du["in_queue"].as_u64(),
                du["read_sectors"].as_u64()
            ),
            (Some(10), Some(10), Some(800))
        );
        assert_eq!(du["util"], 100.0);
        // Every read took 100 us: the "250" us range (100..249 us) holds 100 % of the IOs.
        let j = &doc["jobs"][0];
        assert_eq!(
            (
                j["latency_us"]["250"].as_f64(),
                j["latency_us"]["100"].as_f64()
            ),
            (Some(100.0), Some(0.0))
        );
        assert_eq!(
            (
                j["latency_ns"]["1000"].as_f64(),
                j["latency_ms"][">=2000"].as_f64()
            ),
            (Some(0.0), Some(0.0))
        );
    }

    #[test]
    fn json_plus_bins_count_every_io() {
        // 10 reads at a constant 100 us, QD1: one bin, {"100000": 10}; no writes: no bins.
        let g = run_on_fixed("[j]\nrw=read\nsize=40k\n", 100);
        let doc = document_plus(&g, json!({}));
        let r = &doc["jobs"][0]["read"]["clat_ns"]["bins"];
        assert_eq!(r, &json!({"100000": 10}));
        assert_eq!(doc["jobs"][0]["write"]["clat_ns"]["bins"], json!({}));
        // Plain json has no bins.
        assert!(document(&g, json!({}))["jobs"][0]["read"]["clat_ns"]["bins"].is_null());
    }

    #[test]
    fn percentile_list_sets_the_json_keys() {
        // fio prints exactly the listed percentiles, keyed "%f"; constant 100 us latency.
        let g = run_on_fixed("[j]\nrw=read\nsize=40k\npercentile_list=99.999:50\n", 100);
        let p = &document(&g, json!({}))["jobs"][0]["read"]["clat_ns"]["percentile"];
        assert_eq!(p, &json!({"50.000000": 100_000, "99.999000": 100_000}));
    }

    #[test]
    fn bw_agg_is_each_clones_share_of_the_group() {
        // Two clones at QD1 and 100 us each for 2 ms: both move 160 KiB per 1 ms sample, the
        // group twice that; each clone's bw_agg is 50 %, with group_reporting 100 %.
        for (gr, want) in [("", 50.0), ("group_reporting\n", 100.0)] {
            let text = format!("[j]\nrw=read\nnumjobs=2\nbs=16k\nsize=320k\nbwavgtime=1\n{gr}");
            let g = run_on_fixed(&text, 100);
            let doc = document(&g, json!({}));
            assert_eq!(doc["jobs"][0]["read"]["bw_agg"], want, "{gr}");
            assert_eq!(doc["jobs"][0]["write"]["bw_agg"], 0.0);
        }
    }

    #[test]
    fn default_sample_window_is_fios_500_ms() {
        // 1 s of 4 KiB reads at QD1 and 100 us: 10 000 IOs; two 500 ms windows of 5 000 IOs:
        // 20 000 KiB / 0.5 s = 40 000 KiB/s and 10 000 IO/s each.
        let g = run_on_fixed("[j]\nrw=read\nnumber_ios=10000\n", 100);
        let r = &document(&g, json!({}))["jobs"][0]["read"];
        assert_eq!(
            (
                r["bw_samples"].as_u64(),
                r["bw_min"].as_u64(),
                r["bw_max"].as_u64()
            ),
            (Some(2), Some(40_000), Some(40_000))
        );
        assert_eq!(
            (
                r["iops_samples"].as_u64(),
                r["iops_min"].as_u64(),
                r["iops_mean"].as_f64()
            ),
            (Some(2), Some(10_000), Some(10_000.0))
        );
    }

    #[test]
    fn disk_util_counts_idle_thinktime() {
        // QD1, 100 us per read, 100 us thinktime, 10 reads: IO k runs 200k..200k+100 us, the
        // last ends at 1900 us; busy 10 x 100 us of 1900 us = 52.63 %.
        let g = run_on_fixed(
            "[j]\nrw=read\nthinktime=100\nsize=40k\nfilename=/dev/nvme0n1\n",
            100,
        );
        let du = &document(&g, json!({}))["disk_util"][0];
        assert_eq!(du["name"], "nvme0n1");
        let util = du["util"].as_f64().unwrap();
        assert!((util - 100.0 * 1000.0 / 1900.0).abs() < 1e-9, "{util}");
    }
}
