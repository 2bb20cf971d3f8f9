//! fio-like human-readable summary (layout of fio 3.x "normal" output): per job an IOPS/BW line,
//! clat/lat min/max/avg/stdev, a clat percentile table, then "Run status group" totals, plus
//! ssdlab's device figures (write amplification, NAND ops, SLC, energy, power).

use super::{fio_runtime_ms, json};
use crate::workload::device::Extras;
use crate::workload::lat_dist::percent;
use crate::workload::stats::DirStats;
use crate::workload::{GroupResult, JobResult};
use std::fmt::Write;

/// 3-significant-figure number with k/M/G suffix (fio's `num2str` style): 428000 -> "428k".
pub fn si(v: f64) -> String {
    let (v, s) = if v >= 1e9 {
        (v / 1e9, "G")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    if v >= 100.0 {
        format!("{v:.0}{s}")
    } else if v >= 10.0 {
        format!("{v:.1}{s}")
    } else {
        format!("{v:.2}{s}")
    }
}

/// A number in at most four characters as fio's `num2str` prints it (sig_figs 4): the smallest
/// unit that leaves at most four integer digits, then, when it divided, as many decimals as fit
/// the four characters (9.60, 18.8, 156, 4096). `base` 1024 with IEC units or 1000 with SI ones.
pub fn fio_num(v: f64, base: f64, units: &[&str]) -> String {
    assert!(!units.is_empty());
    let (mut v, mut i) = (v.max(0.0), 0);
    while v.round() >= 10_000.0 && i + 1 < units.len() {
        v /= base;
        i += 1;
    }
    let decimals = match v {
        x if x.round() >= 100.0 => 0,
        x if x >= 9.995 => 1,
        _ => 2,
    };
    let decimals = if i == 0 { 0 } else { decimals };
    format!("{v:.decimals$}{}", units[i])
}

/// Bytes (or bytes/s) in fio's two spellings: IEC (`18.8MiB`) and SI (`19.7MB`).
fn iec(b: f64) -> String {
    fio_num(b, 1024.0, &["B", "KiB", "MiB", "GiB", "TiB", "PiB"])
}
fn dec(b: f64) -> String {
    fio_num(b, 1000.0, &["B", "kB", "MB", "GB", "TB", "PB"])
}

fn bytes_iec(b: f64) -> String {
    const U: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b;
    let mut i = 0;
    while v >= 1024.0 && i < U.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    format!("{v:.1}{}", U[i])
}

/// One direction of one job; `group_bw` is the group's bandwidth in this direction, B/s.
fn dir_block(out: &mut String, label: &str, d: &DirStats, j: &JobResult, group_bw: f64) {
    if d.ios == 0 {
        return;
    }
    let bw = d.bw_bytes(j.runtime);
    let _ = writeln!(
        out,
        "  {label}: IOPS={}, BW={}/s ({}/s)({}/{}msec)",
        fio_num(d.iops(j.runtime), 1000.0, &["", "k", "M", "G"]),
        iec(bw),
        dec(bw),
        iec(d.bytes as f64),
        fio_runtime_ms(j.runtime)
    );
    let l = &d.lat;
    let us = |ns: f64| ns / 1000.0;
    // ssdlab submits straight to the device: slat is 0, so lat = clat (fio prints both).
    for label in ["    clat", "     lat"] {
        let _ = writeln!(
            out,
            "{label} (usec): min={}, max={}, avg={:.2}, stdev={:.2}",
            l.min_ns() / 1000, // fio's nsec_to_usec: integer division for min and max
            l.max_ns() / 1000,
            us(l.mean_ns()),
            us(l.stddev_ns())
        );
    }
    // fio's show_clat_percentiles rounds each value up when it scales ns to us.
    let _ = writeln!(out, "    clat percentiles (usec):");
    let rows: Vec<&[f64]> = j.spec.percentiles.chunks(4).collect();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .map(|p| format!("{:>6.2}th=[{:>6}]", p, l.percentile_ns(*p).div_ceil(1000)))
            .collect();
        let end = if i + 1 < rows.len() { "," } else { "" };
        let _ = writeln!(out, "     | {}{end}", cells.join(", "));
    }
    sample_lines(out, d, j, group_bw);
}

/// fio's `bw (  KiB/s):` and `iops        :` lines over the time samples.
fn sample_lines(out: &mut String, d: &DirStats, j: &JobResult, group_bw: f64) {
    let bws = json::samples(d, j.runtime, j.spec.bw_avg, json::Per::KiB);
    let iopss = json::samples(d, j.runtime, j.spec.iops_avg, json::Per::Io);
    if bws.is_empty() && iopss.is_empty() {
        return; // fio prints the lines only when there are samples
    }
    let (bmin, bmax, bmean, bdev) = json::stat(&bws);
    let (imin, imax, imean, idev) = json::stat(&iopss);
    let per = json::bw_agg_pct(bmean, group_bw);
    let _ = writeln!(
        out,
        "   bw (  KiB/s): min={bmin:.0}, max={bmax:.0}, per={per:.2}%, avg={bmean:.2}, stdev={bdev:.2}, samples={}",
        bws.len()
    );
    let _ = writeln!(out, "   iops        : min={imin:.0}, max={imax:.0}, avg={imean:.2}, stdev={idev:.2}, samples={}", iopss.len());
}

/// fio's `lat (usec)   : 100=0.02%, 250=99.98%` lines: the non-empty latency ranges per unit,
/// in percent of all the job's IOs.
fn lat_lines(out: &mut String, j: &JobResult) {
    let mut d = j.read.dist.clone();
    d.merge(&j.write.dist);
    let total = j.read.ios + j.write.ios;
    for (unit, keys) in d.by_unit() {
        let cells: Vec<String> = keys
            .iter()
            .filter(|(_, c)| *c > 0)
            .map(|(k, c)| format!("{k}={:.2}%", percent(*c, total)))
            .collect();
        if !cells.is_empty() {
            let _ = writeln!(out, "  lat ({unit})   : {}", cells.join(", "));
        }
    }
}

/// fio's `4096B-4096B` (one size) or `4096B-64.0KiB` (a `bssplit`'s smallest and largest).
fn bs_range(bs: u64, split: &[(u64, u32)]) -> String {
    let lo = split.iter().map(|e| e.0).min().unwrap_or(bs);
    let hi = split.iter().map(|e| e.0).max().unwrap_or(bs);
    format!("{}-{}", iec(lo as f64), iec(hi as f64))
}

/// The whole summary of one job-file run.
pub fn summary(groups: &[GroupResult]) -> String {
    let mut out = String::new();
    for g in groups {
        let (r, w) = g.totals();
        let bw = (r.bw_bytes(g.window()), w.bw_bytes(g.window()));
        for j in &g.jobs {
            let s = &j.spec;
            let clone = match j.clone {
                Some(c) if s.numjobs > 1 => format!(", clone={c}"),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "{}: (groupid={}, jobs={}): err= 0: rw={}, bs=(R) {r}, (W) {w}, iodepth={}{clone}",
                j.name,
                g.groupid,
                if j.clone.is_some() { 1 } else { s.numjobs },
                s.rw.fio_name(),
                s.iodepth,
                r = bs_range(s.bs_read, &s.bssplit_read),
                w = bs_range(s.bs_write, &s.bssplit_write),
            );
            dir_block(&mut out, "read", &j.read, j, bw.0);
            dir_block(&mut out, "write", &j.write, j, bw.1);
            dir_block(&mut out, "trim", &j.trim, j, 0.0);
            lat_lines(&mut out, j);
        }
        group_footer(&mut out, g);
    }
    out
}

fn group_footer(out: &mut String, g: &GroupResult) {
    let (r, w) = g.totals();
    let win = g.window();
    let _ = writeln!(out, "\nRun status group {} (all jobs):", g.groupid);
    for (label, d, pick) in [("READ", &r, 0), ("WRITE", &w, 1)] {
        if d.ios == 0 {
            continue;
        }
        // fio's show_group_stats: aggregate, per-job min-max bandwidth, io, per-job min-max run.
        let per_job: Vec<(f64, u64)> = g
            .jobs
            .iter()
            .map(|j| (if pick == 0 { &j.read } else { &j.write }, j.runtime))
            .filter(|(jd, _)| jd.ios > 0)
            .map(|(jd, rt)| (jd.bw_bytes(rt), fio_runtime_ms(rt)))
            .collect();
        let bw_min = per_job.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let bw_max = per_job.iter().map(|p| p.0).fold(0.0, f64::max);
        let run_min = per_job.iter().map(|p| p.1).min().unwrap_or(0);
        let run_max = per_job.iter().map(|p| p.1).max().unwrap_or(0);
        let agg = d.bw_bytes(win);
        let _ = writeln!(
            out,
            "  {label:>5}: bw={}/s ({}/s), {}/s-{}/s ({}/s-{}/s), io={} ({}), run={run_min}-{run_max}msec",
            iec(agg),
            dec(agg),
            iec(bw_min),
            iec(bw_max),
            dec(bw_min),
            dec(bw_max),
            iec(d.bytes as f64),
            dec(d.bytes as f64)
        );
    }
    let e = &g.extras;
    let wa = e
        .write_amplification()
        .map_or("-".to_string(), |v| format!("{v:.2}"));
    let ops: Vec<String> = e
        .nand_ops
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| format!("{k}={}", si(*n as f64)))
        .collect();
    let _ = writeln!(
        out,
        "  ssdlab: write amplification={wa}, SLC used={}",
        bytes_iec(e.slc_used_bytes as f64)
    );
    if !ops.is_empty() {
        let _ = writeln!(out, "  ssdlab: NAND ops: {}", ops.join(", "));
    }
    if let Some(share) = e.unwritten_read_share() {
        let _ = writeln!(
            out,
            "  ssdlab: reads of never-written or trimmed LBAs={:.1}% ({} of {} 4 KiB units)",
            share * 100.0,
            e.unwritten_read_units,
            e.read_units
        );
    }
    if let Some(line) = map_lookup_line(e) {
        out.push_str(&line);
    }
    if let Some(p) = g.avg_power_w() {
        let mbps = (r.bytes + w.bytes) as f64 / win.as_secs_f64() / 1e6;
        let _ = writeln!(
            out,
            "  ssdlab: energy={:.3} J, avg power={p:.2} W, {:.0} MB/s per W",
            e.energy_j,
            mbps / p.max(1e-12)
        );
    }
    if let Some(u) = e.utilisation() {
        out.push_str(&u.text_block(e.slc_blocks, e.free_blocks));
    }
}

/// The mapping hierarchy's hit rate per level (SRAM entry cache, DRAM table), when the device
/// counted lookups in the window.
fn map_lookup_line(e: &Extras) -> Option<String> {
    if e.map_sram.0 == 0 {
        return None;
    }
    let level = |(acc, hits): (u64, u64)| {
        if acc == 0 {
            "-".to_string()
        } else {
            format!("{:.2}% ({hits} of {acc})", hits as f64 * 100.0 / acc as f64)
        }
    };
    Some(format!(
        "  ssdlab: map lookups hit rate: SRAM cache={}, DRAM table={}\n",
        level(e.map_sram),
        level(e.map_dram)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_lookup_line_gives_each_level() {
        // 1000 SRAM accesses, 875 hits: 87.50 %; the 125 misses all hit the DRAM table.
        let e = Extras {
            map_sram: (1000, 875),
            map_dram: (125, 125),
            ..Default::default()
        };
        assert_eq!(
            map_lookup_line(&e).unwrap(),
            "  ssdlab: map lookups hit rate: SRAM cache=87.50% (875 of 1000), DRAM table=100.00% (125 of 125)\n"
        );
        assert_eq!(map_lookup_line(&Extras::default()), None);
    }

    #[test]
    fn fio_num_fits_four_characters() {
        // Spellings from fio 3.x output: BW=18.8MiB/s (19.7MB/s), 4096MiB, IOPS=2458, 10.3k,
        // 1747MB/s.
        let b = ["B", "KiB", "MiB", "GiB"];
        assert_eq!(fio_num(18.8 * 1_048_576.0, 1024.0, &b), "18.8MiB");
        assert_eq!(fio_num(4096.0 * 1_048_576.0, 1024.0, &b), "4096MiB");
        // num2str divides only while the integer has more than 4 digits: 10 066 330 B -> 9830 KiB.
        assert_eq!(fio_num(9.6 * 1_048_576.0, 1024.0, &b), "9830KiB");
        assert_eq!(fio_num(9.6 * 1024.0 * 1_048_576.0, 1024.0, &b), "9830MiB");
        assert_eq!(fio_num(12_000.0 * 1_048_576.0, 1024.0, &b), "11.7GiB");
        assert_eq!(fio_num(2458.0, 1000.0, &["", "k"]), "2458");
        assert_eq!(fio_num(10_300.0, 1000.0, &["", "k"]), "10.3k");
        assert_eq!(
            fio_num(1_747_000_000.0, 1000.0, &["B", "kB", "MB", "GB"]),
            "1747MB"
        );
    }

    #[test]
    fn si_three_figures() {
        assert_eq!(si(428_000.0), "428k");
        assert_eq!(si(11_000.0), "11.0k");
        assert_eq!(si(3_222_000_000.0), "3.22G");
        assert_eq!(si(999.0), "999");
    }
}

#[cfg(test)]
mod run_tests {
    use super::*;
    use crate::workload::testdev::run_on_fixed;

    #[test]
    fn text_matches_fio_rounding() {
        // 100 reads of 4 KiB at QD4, 100 us each: 2.5 ms -> fio prints 3 msec (rounded up);
        // 100 us latency -> min=max=100 (usec), every percentile [100].
        let g = run_on_fixed(
            "[j]\nrw=read\niodepth=4\nsize=400k\nbwavgtime=1\niopsavgtime=1\n",
            100,
        );
        let out = summary(&g);
        // 409 600 B / 2.5 ms = 163 840 000 B/s = 156.25 MiB/s; fio's four characters.
        assert!(out.contains("j: (groupid=0, jobs=1): err= 0: rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, iodepth=4"), "{out}");
        assert!(
            out.contains("  read: IOPS=40.0k, BW=156MiB/s (164MB/s)(400KiB/3msec)"),
            "{out}"
        );
        assert!(
            out.contains("    clat (usec): min=100, max=100, avg=100.00, stdev=0.00"),
            "{out}"
        );
        assert!(
            out.contains(" 50.00th=[   100]") && out.contains(" 99.99th=[   100]\n"),
            "{out}"
        );
        assert!(out.contains("   READ: bw=156MiB/s (164MB/s), 156MiB/s-156MiB/s (164MB/s-164MB/s), io=400KiB (410kB), run=3-3msec"), "{out}");
        // 2 whole 1 ms samples, each 40 x 4 KiB: 160 000 KiB/s and 40 000 IO/s.
        assert!(out.contains("   bw (  KiB/s): min=160000, max=160000, per=100.00%, avg=160000.00, stdev=0.00, samples=2"), "{out}");
        assert!(
            out.contains(
                "   iops        : min=40000, max=40000, avg=40000.00, stdev=0.00, samples=2"
            ),
            "{out}"
        );
        assert!(out.contains("\n  lat (usec)   : 250=100.00%\n"), "{out}");
    }
}
