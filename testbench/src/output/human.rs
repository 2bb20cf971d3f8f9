//! fio-like human-readable summary (layout of fio 3.x "normal" output): per job an IOPS/BW line,
//! clat/lat min/max/avg/stdev, a clat percentile table, then "Run status group" totals, plus
//! ssdlab's device figures (write amplification, NAND ops, SLC, energy, power).

use super::{fio_runtime_ms, json};
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
fn dir_block(out: &mut String, label: &str, d: &DirStats, j: &JobResult, bs: u64, group_bw: f64) {
    if d.ios == 0 {
        return;
    }
    let bw = d.bw_bytes(j.runtime);
    let _ = writeln!(
        out,
        "  {label}: IOPS={}, BW={}/s ({}B/s)({}/{}msec)",
        si(d.iops(j.runtime)),
        bytes_iec(bw),
        si(bw),
        bytes_iec(d.bytes as f64),
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
        let cells: Vec<String> =
            row.iter().map(|p| format!("{:>6.2}th=[{:>6}]", p, l.percentile_ns(*p).div_ceil(1000))).collect();
        let end = if i + 1 < rows.len() { "," } else { "" };
        let _ = writeln!(out, "     | {}{end}", cells.join(", "));
    }
    sample_lines(out, d, j, bs, group_bw);
}

/// fio's `bw (  KiB/s):` and `iops        :` lines over the time samples.
fn sample_lines(out: &mut String, d: &DirStats, j: &JobResult, bs: u64, group_bw: f64) {
    let bws = json::samples(d, j.runtime, j.spec.bw_avg, 1024);
    let iopss = json::samples(d, j.runtime, j.spec.iops_avg, bs);
    if bws.is_empty() && iopss.is_empty() {
        return; // fio prints the lines only when there are samples
    }
    let (bmin, bmax, bmean, bdev) = json::stat(&bws);
    let (imin, imax, imean, idev) = json::stat(&iopss);
    let per = if group_bw > 1024.0 { (bmean * 100.0 / (group_bw / 1024.0)).min(100.0) } else { 100.0 };
    let _ = writeln!(
        out,
        "   bw (  KiB/s): min={bmin:.0}, max={bmax:.0}, per={per:.2}%, avg={bmean:.2}, stdev={bdev:.2}, samples={}",
        bws.len()
    );
    let _ = writeln!(out, "   iops        : min={imin:.0}, max={imax:.0}, avg={imean:.2}, stdev={idev:.2}, samples={}", iopss.len());
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
                "{}: (groupid={}, jobs={}): err= 0: rw={}, bs=(R) {}-(W) {}, iodepth={}{clone}",
                j.name,
                g.groupid,
                if j.clone.is_some() { 1 } else { s.numjobs },
                s.rw.fio_name(),
                bytes_iec(s.bs_read as f64),
                bytes_iec(s.bs_write as f64),
                s.iodepth
            );
            dir_block(&mut out, "read", &j.read, j, s.bs_read, bw.0);
            dir_block(&mut out, "write", &j.write, j, s.bs_write, bw.1);
        }
        group_footer(&mut out, g);
    }
    out
}

fn group_footer(out: &mut String, g: &GroupResult) {
    let (r, w) = g.totals();
    let win = g.window();
    let _ = writeln!(out, "\nRun status group {} (all jobs):", g.groupid);
    for (label, d) in [("READ", &r), ("WRITE", &w)] {
        if d.ios > 0 {
            let _ = writeln!(
                out,
                "   {label}: bw={}/s ({}B/s), io={}, run={}msec",
                bytes_iec(d.bw_bytes(win)),
                si(d.bw_bytes(win)),
                bytes_iec(d.bytes as f64),
                fio_runtime_ms(win)
            );
        }
    }
    let e = &g.extras;
    let wa = e.write_amplification().map_or("-".to_string(), |v| format!("{v:.2}"));
    let ops: Vec<String> = e.nand_ops.iter().filter(|(_, n)| **n > 0).map(|(k, n)| format!("{k}={}", si(*n as f64))).collect();
    let _ = writeln!(out, "  ssdlab: write amplification={wa}, SLC used={}", bytes_iec(e.slc_used_bytes as f64));
    if !ops.is_empty() {
        let _ = writeln!(out, "  ssdlab: NAND ops: {}", ops.join(", "));
    }
    if let Some(p) = g.avg_power_w() {
        let mbps = (r.bytes + w.bytes) as f64 / win.as_secs_f64() / 1e6;
        let _ = writeln!(out, "  ssdlab: energy={:.3} J, avg power={p:.2} W, {:.0} MB/s per W", e.energy_j, mbps / p.max(1e-12));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    use crate::fio::parse_job_file;
    use crate::workload::runner::{run_jobs, Quiet};
    use crate::workload::testdev::FixedLatencyDevice;
    use ssdlab_model::{SeedTree, SimTime};

    #[test]
    fn text_matches_fio_rounding() {
        // 100 reads of 4 KiB at QD4, 100 us each: 2.5 ms -> fio prints 3 msec (rounded up);
        // 100 us latency -> min=max=100 (usec), every percentile [100].
        let jobs = parse_job_file("[j]\nrw=read\niodepth=4\nsize=400k\nbwavgtime=1\niopsavgtime=1\n", "t").unwrap();
        let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
        let g = run_jobs(&mut dev, &jobs, "t", &SeedTree::new(1), &mut Quiet).unwrap();
        let out = summary(&g);
        assert!(out.contains("  read: IOPS=40.0k, ") && out.contains("(400.0KiB/3msec)"), "{out}");
        assert!(out.contains("    clat (usec): min=100, max=100, avg=100.00, stdev=0.00"), "{out}");
        assert!(out.contains(" 50.00th=[   100]") && out.contains(" 99.99th=[   100]\n"), "{out}");
        assert!(out.contains("   READ: bw=") && out.contains("io=400.0KiB, run=3msec"), "{out}");
        // 2 whole 1 ms samples, each 40 x 4 KiB: 160 000 KiB/s and 40 000 IO/s.
        assert!(out.contains("   bw (  KiB/s): min=160000, max=160000, per=100.00%, avg=160000.00, stdev=0.00, samples=2"), "{out}");
        assert!(out.contains("   iops        : min=40000, max=40000, avg=40000.00, stdev=0.00, samples=2"), "{out}");
    }
}
