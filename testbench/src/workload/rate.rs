//! The issue schedule of a rate-capped job clone and its `rate_min` check, as fio's
//! `usec_for_io` and `check_min_rate` compute them (fio `io_u.c`, `backend.c`).
//!
//! Linear: the n-th IO of a direction may start at `t0 + bytes issued before it / rate` (an
//! IO held up by a full queue leaves at once when a slot frees, so a clone that fell behind
//! catches up, as fio does). Poisson: each IO of a direction may start an exponential gap of
//! mean `1 / iops` after the previous one's start time (`iops` = `rate / smallest bs` when the
//! cap is in bytes). The minimum: from 2 s after the clone started (fio's settle period), each
//! time a direction's completions span a `rate_cycle`, its rate over that span must reach
//! `rate_min` (B/s) or `rate_iops_min`; otherwise the job fails.

use crate::fio::rate::{RateProcess, RateSpec};
use crate::fio::JobSpec;
use rand::Rng;
use ssdlab_model::rng::ModelRng;
use ssdlab_model::SimTime;

const PS_PER_S: u128 = 1_000_000_000_000;

/// Per-direction issue schedule of one clone (index 0 reads, 1 writes).
pub struct RateLimiter {
    t0: SimTime,
    bps: [u64; 2],
    iops: [u64; 2],
    min_bs: [u64; 2],
    poisson: Option<[ModelRng; 2]>,
    issued_bytes: [u64; 2],
    next_poisson: [SimTime; 2],
}

impl RateLimiter {
    /// `None` when the job has no cap. `stream` gives the clone's seeded RNG streams.
    pub fn new(j: &JobSpec, t0: SimTime, stream: impl Fn(&str) -> ModelRng) -> Option<Self> {
        let r = &j.rate;
        if !r.caps() {
            return None;
        }
        let min_of = |bs: u64, split: &[(u64, u32)]| split.iter().map(|e| e.0).min().unwrap_or(bs);
        Some(RateLimiter {
            t0,
            bps: r.bps,
            iops: r.iops,
            min_bs: [
                min_of(j.bs_read, &j.bssplit_read),
                min_of(j.bs_write, &j.bssplit_write),
            ],
            poisson: (r.process == RateProcess::Poisson)
                .then(|| [stream("rate/read"), stream("rate/write")]),
            issued_bytes: [0; 2],
            next_poisson: [t0; 2],
        })
    }

    /// IOs per second of direction `d` (for the Poisson gaps), 0 = uncapped.
    fn dir_iops(&self, d: usize) -> u64 {
        if self.bps[d] > 0 {
            self.bps[d] / self.min_bs[d]
        } else {
            self.iops[d]
        }
    }

    /// The earliest start of the next IO of direction `d`; call once per IO, in issue order,
    /// then [`RateLimiter::issued`] when it is submitted.
    pub fn due(&mut self, d: usize) -> SimTime {
        let iops = self.dir_iops(d);
        if let Some(rngs) = &mut self.poisson {
            if iops == 0 {
                return self.t0;
            }
            let at = self.next_poisson[d];
            // Exponential gap of mean 1 / iops: -ln(U) / iops, U in (0, 1].
            let u: f64 = 1.0 - rngs[d].gen::<f64>();
            let gap_ps = (-u.ln() * PS_PER_S as f64 / iops as f64).round() as u64;
            self.next_poisson[d] = at + SimTime::from_ps(gap_ps);
            return at;
        }
        // Bytes per second; a cap in IOPS counts bytes in smallest blocks (fio: iops x min_bs).
        let rate = if self.bps[d] > 0 {
            self.bps[d]
        } else {
            self.iops[d].saturating_mul(self.min_bs[d])
        };
        if rate == 0 {
            return self.t0;
        }
        let ps = self.issued_bytes[d] as u128 * PS_PER_S / rate as u128;
        self.t0 + SimTime::from_ps(ps.min(u64::MAX as u128) as u64)
    }

    /// The IO of direction `d` asked for with [`RateLimiter::due`] was submitted.
    pub fn issued(&mut self, d: usize, len: u64) {
        self.issued_bytes[d] = self.issued_bytes[d].saturating_add(len);
    }
}

/// The `rate_min` / `rate_iops_min` check of one clone.
pub struct MinRate {
    start: SimTime,
    cycle: SimTime,
    min_bps: [u64; 2],
    min_iops: [u64; 2],
    /// Per direction: completed bytes and IOs, and at the last check (time, bytes, IOs).
    bytes: [u64; 2],
    ios: [u64; 2],
    last: [Option<(SimTime, u64, u64)>; 2],
}

/// fio's settle period before the first minimum-rate check.
const SETTLE: SimTime = SimTime::from_ms(2000);

impl MinRate {
    pub fn new(r: &RateSpec, start: SimTime) -> Option<Self> {
        r.has_min().then_some(MinRate {
            start,
            cycle: r.cycle,
            min_bps: r.min_bps,
            min_iops: r.min_iops,
            bytes: [0; 2],
            ios: [0; 2],
            last: [None; 2],
        })
    }

    /// A completion of direction `d` at `now`; `Err` with fio's wording when the minimum
    /// of that direction was not met over the cycle that just ended.
    pub fn completed(&mut self, d: usize, len: u64, now: SimTime) -> Result<(), String> {
        self.bytes[d] += len;
        self.ios[d] += 1;
        if now < self.start + SETTLE {
            return Ok(());
        }
        let Some((t, b, n)) = self.last[d] else {
            self.last[d] = Some((now, self.bytes[d], self.ios[d]));
            return Ok(());
        };
        let spent = now - t;
        if spent < self.cycle {
            return Ok(());
        }
        let secs = spent.as_secs_f64();
        let (bps, iops) = (
            (self.bytes[d] - b) as f64 / secs,
            (self.ios[d] - n) as f64 / secs,
        );
        let dir = ["read", "write"][d];
        if self.min_bps[d] > 0 && bps < self.min_bps[d] as f64 {
            return Err(format!(
                "{dir} rate_min={}B/s not met, got {bps:.0}B/s over the {:.0} ms to {:.3} s",
                self.min_bps[d],
                spent.as_secs_f64() * 1e3,
                now.as_secs_f64()
            ));
        }
        if self.min_iops[d] > 0 && iops < self.min_iops[d] as f64 {
            return Err(format!(
                "{dir} rate_iops_min={} not met, got {iops:.0} IOPS over the {:.0} ms to {:.3} s",
                self.min_iops[d],
                spent.as_secs_f64() * 1e3,
                now.as_secs_f64()
            ));
        }
        self.last[d] = Some((now, self.bytes[d], self.ios[d]));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::workload::testdev::run_on_fixed;
    use crate::workload::testdev::FixedLatencyDevice;
    use crate::workload::{run_jobs, Op, Quiet};
    use ssdlab_model::{SeedTree, SimTime};

    /// Submission times (ps) of a job file's IOs on a 10 us fixed-latency device.
    fn starts(text: &str) -> Vec<u64> {
        let jobs = crate::fio::parse_job_file(text, "t").unwrap();
        let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(10));
        run_jobs(&mut dev, &jobs, "t", &SeedTree::new(1), &mut Quiet).unwrap();
        dev.log.iter().map(|(t, _)| t.as_ps()).collect()
    }

    const RAND: &str = "[a]\nrw=randread\niodepth=32\nruntime=10\ntime_based\nrate_iops=1000\n";

    #[test]
    fn linear_rate_spaces_ios_evenly() {
        // 1000 IOPS: IO k may start at k ms; the k = 10 000th would start at the 10 s runtime.
        let t = starts(RAND);
        assert_eq!(t.len(), 10_000);
        assert!(t
            .iter()
            .enumerate()
            .all(|(k, &ps)| ps == k as u64 * 1_000_000_000));
        // In bytes: rate=4m (4 MiB/s) of 4 KiB blocks is 1024 IO/s, IO k at k / 1024 s.
        let t = starts("[a]\nrw=randread\nruntime=1\ntime_based\nrate=4m\n");
        assert_eq!(t.len(), 1024);
        assert_eq!(t[512], 500_000_000_000);
    }

    #[test]
    fn poisson_count_and_gaps() {
        // A Poisson process at 1000/s over 10 s: N ~ Poisson(10 000), sigma = 100; within
        // 4 sigma. Exponential gaps: mean 1 ms and standard deviation equal to the mean (the
        // estimate's relative error over 10 000 gaps is about 1 / sqrt(10 000) x 1.4 = 1.4 %).
        let t = starts(&format!("{RAND}rate_process=poisson\n"));
        let n = t.len() as f64;
        assert!((n - 10_000.0).abs() < 400.0, "{n} IOs");
        let gaps: Vec<f64> = t.windows(2).map(|w| (w[1] - w[0]) as f64 / 1e9).collect();
        let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
        let sd = (gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / gaps.len() as f64).sqrt();
        assert!((mean - 1.0).abs() < 0.04, "mean gap {mean} ms");
        assert!((sd / mean - 1.0).abs() < 0.06, "cv {}", sd / mean);
        // randseed picks the stream: the same seed, the same arrivals; another, others.
        let a = starts(&format!("{RAND}rate_process=poisson\nrandseed=5\n"));
        assert_eq!(
            a,
            starts(&format!("{RAND}rate_process=poisson\nrandseed=5\n"))
        );
        assert_ne!(
            a,
            starts(&format!("{RAND}rate_process=poisson\nrandseed=6\n"))
        );
    }

    #[test]
    fn per_direction_caps() {
        // 50/50 mix at QD1, reads capped at 100/s, writes uncapped: the k-th read may start at
        // k x 10 ms. Drawn earlier (writes take 10 us each), it holds the slot and starts at
        // exactly k x 10 ms; the first is drawn after the writes before it, all at once.
        // Over 1 s, 100 reads.
        let g = run_on_fixed(
            "[a]\nrw=randrw\nruntime=1\ntime_based\nrate_iops=100,\n",
            10,
        );
        assert_eq!(g[0].jobs[0].read.ios, 100);
        let jobs = crate::fio::parse_job_file(
            "[a]\nrw=randrw\nruntime=1\ntime_based\nrate_iops=100,\n",
            "t",
        )
        .unwrap();
        let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(10));
        run_jobs(&mut dev, &jobs, "t", &SeedTree::new(1), &mut Quiet).unwrap();
        let reads: Vec<u64> = dev
            .log
            .iter()
            .filter(|(_, io)| io.op == Op::Read)
            .map(|(t, _)| t.as_ps())
            .collect();
        assert!(reads[0] < 1_000_000_000, "first read at {} ps", reads[0]);
        for (k, &ps) in reads.iter().enumerate().skip(1) {
            assert_eq!(ps, k as u64 * 10_000_000_000, "read {k}");
        }
    }

    #[test]
    fn rate_min_not_met_fails_the_job_at_its_line() {
        // QD1 at 1 ms per 4 KiB IO gives 1000 IOPS = 4 096 000 B/s; asking 5 MB/s fails at
        // the first check after the 2 s settle period, naming the rate_min line.
        let text = "[a]\nrw=randread\nruntime=5\ntime_based\nrate_min=5m\n";
        let jobs = crate::fio::parse_job_file(text, "t.fio").unwrap();
        let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_ms(1));
        let e = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.fio:5: job `a`: read rate_min=5242880B/s not met, got 4096000B/s"),
            "{e}"
        );
        // 4 000 000 B/s and 999 IOPS are met: the job runs.
        let ok = "[a]\nrw=randread\nruntime=5\ntime_based\nrate_min=4000000\nrate_iops_min=999\n";
        let jobs = crate::fio::parse_job_file(ok, "t.fio").unwrap();
        let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_ms(1));
        let r = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet);
        assert!(
            r.is_ok(),
            "{}",
            r.err().map(|e| e.to_string()).unwrap_or_default()
        );
    }
}
