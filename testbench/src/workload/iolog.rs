//! fio's bandwidth, IOPS and latency log files (fio HOWTO "Log File Formats"; `iolog.c`
//! `flush_samples`, `stat.c` `add_*_sample`), from a clone's completions.
//!
//! Each line is `time (ms), value, data direction (0 read, 1 write), block size (bytes),
//! priority (0)`, fio's columns without `log_offset`. Files are `PREFIX_bw.N.log`,
//! `PREFIX_iops.N.log` and, for `write_lat_log`, `PREFIX_lat.N.log`, `PREFIX_slat.N.log`,
//! `PREFIX_clat.N.log`, where N counts the job file's clones from 1 (fio's `thread_number`)
//! and PREFIX is the option's value or the job's name. Times are from the end of `ramp_time`.
//!
//! Without `log_avg_msec` every IO has a line: latency in ns (lat = clat, slat 0: the model
//! has no submission latency), IOPS 1, bandwidth `bytes x 10^6 / clat_ns` as fio's
//! `add_bw_sample`. With `log_avg_msec=W` each W ms window with IO in a direction has one
//! line at its end: the mean latency rounded, `bytes x 1000 / W / 1024` KiB/s, `ios x 1000 / W`
//! IOPS, block size 0, as fio's windowed entries (a last partial window over its own span).
//! fio's background stats thread stamps windowed lines at its wake-ups, a millisecond or two late; here
//! they fall exactly on the window ends.

use crate::fio::logs::LogSpec;
use ssdlab_model::SimTime;

/// One counted completion: time since the window start, direction (0 read, 1 write),
/// length, completion latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub at: SimTime,
    pub dir: u8,
    pub len: u64,
    pub lat_ns: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bw,
    Iops,
    Lat,
    Slat,
}

/// The log files of clone `number` (1-based) of job `name`: (file name, contents).
pub fn log_files(
    spec: &LogSpec,
    name: &str,
    number: usize,
    samples: &[Sample],
) -> Vec<(String, String)> {
    let pre = |p: &str| {
        if p.is_empty() {
            name.to_string()
        } else {
            p.to_string()
        }
    };
    let mut out = Vec::new();
    let mut add = |p: &str, kind: &str, k: Kind| {
        out.push((
            format!("{}_{kind}.{number}.log", pre(p)),
            render(k, spec.avg_msec, samples),
        ));
    };
    if let Some(p) = &spec.bw {
        add(p, "bw", Kind::Bw);
    }
    if let Some(p) = &spec.iops {
        add(p, "iops", Kind::Iops);
    }
    if let Some(p) = &spec.lat {
        add(p, "lat", Kind::Lat);
        add(p, "slat", Kind::Slat);
        add(p, "clat", Kind::Lat);
    }
    out
}

fn ms(t: SimTime) -> u64 {
    t.as_ps() / 1_000_000_000
}

fn render(kind: Kind, avg_msec: u64, samples: &[Sample]) -> String {
    let mut s = String::new();
    if avg_msec == 0 {
        for x in samples {
            let v = match kind {
                Kind::Lat => x.lat_ns,
                Kind::Slat => 0,
                Kind::Iops => 1,
                Kind::Bw => (x.len as u128 * 1_000_000 / x.lat_ns.max(1) as u128) as u64,
            };
            s.push_str(&format!("{}, {v}, {}, {}, 0\n", ms(x.at), x.dir, x.len));
        }
        return s;
    }
    let end = samples.iter().map(|x| ms(x.at)).max().unwrap_or(0);
    // (window, direction) -> (ios, latency sum ns, bytes)
    let mut win: std::collections::BTreeMap<(u64, u8), (u128, u128, u128)> = Default::default();
    for x in samples {
        let e = win.entry((ms(x.at) / avg_msec, x.dir)).or_default();
        *e = (e.0 + 1, e.1 + x.lat_ns as u128, e.2 + x.len as u128);
    }
    for (&(w, dir), &(n, lat, bytes)) in &win {
        let lo = w * avg_msec;
        // The last window ends with the last completion, over its own span.
        let span = if lo + avg_msec <= end {
            avg_msec
        } else {
            (end - lo).max(1)
        };
        let v = match kind {
            Kind::Lat => ((lat * 2 + n) / (2 * n)) as u64,
            Kind::Slat => 0,
            Kind::Iops => (n * 1000 / span as u128) as u64,
            Kind::Bw => (bytes * 1000 / span as u128 / 1024) as u64,
        };
        s.push_str(&format!("{}, {v}, {dir}, 0, 0\n", lo + span));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(t: u64, dir: u8, len: u64, lat_us: u64) -> Sample {
        Sample {
            at: SimTime::from_us(t * 1000 + 10),
            dir,
            len,
            lat_ns: lat_us * 1000,
        }
    }

    #[test]
    fn per_io_lines_follow_fios_columns() {
        let spec = LogSpec {
            bw: Some(String::new()),
            iops: Some("x".into()),
            lat: Some(String::new()),
            avg_msec: 0,
        };
        let s = [at_ms(0, 0, 4096, 100), at_ms(2, 1, 8192, 200)];
        let f = log_files(&spec, "job", 3, &s);
        let names: Vec<&str> = f.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "job_bw.3.log",
                "x_iops.3.log",
                "job_lat.3.log",
                "job_slat.3.log",
                "job_clat.3.log"
            ]
        );
        // bw: 4096 x 10^6 / 100 000 ns = 40 960; 8192 x 10^6 / 200 000 = 40 960.
        assert_eq!(f[0].1, "0, 40960, 0, 4096, 0\n2, 40960, 1, 8192, 0\n");
        assert_eq!(f[1].1, "0, 1, 0, 4096, 0\n2, 1, 1, 8192, 0\n");
        assert_eq!(f[2].1, "0, 100000, 0, 4096, 0\n2, 200000, 1, 8192, 0\n");
        assert_eq!(f[3].1, "0, 0, 0, 4096, 0\n2, 0, 1, 8192, 0\n");
    }

    #[test]
    fn windowed_lines_average_per_direction() {
        // 1000 ms windows: reads at 0, 500 and 900 ms (100, 200, 301 us), a write at 1500 ms.
        let spec = LogSpec {
            bw: Some(String::new()),
            iops: Some(String::new()),
            lat: Some(String::new()),
            avg_msec: 1000,
        };
        let s = [
            at_ms(0, 0, 4096, 100),
            at_ms(500, 0, 4096, 200),
            at_ms(900, 0, 4096, 301),
            at_ms(1500, 1, 8192, 50),
        ];
        let f = log_files(&spec, "j", 1, &s);
        // bw: 3 x 4096 B in 1 s = 12 KiB/s; the last window spans 1000..1500 ms: 8192 x 1000 /
        // 500 / 1024 = 16 KiB/s at 1500 ms.
        assert_eq!(f[0].1, "1000, 12, 0, 0, 0\n1500, 16, 1, 0, 0\n");
        // IOPS 3 in 1 s, then 1 in 0.5 s = 2.
        assert_eq!(f[1].1, "1000, 3, 0, 0, 0\n1500, 2, 1, 0, 0\n");
        // Mean clat (100 + 200 + 301) / 3 = 200.33 us -> 200 333 ns.
        assert_eq!(f[2].1, "1000, 200333, 0, 0, 0\n1500, 50000, 1, 0, 0\n");
    }
}
