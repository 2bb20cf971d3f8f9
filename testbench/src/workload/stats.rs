//! Per-direction IO statistics of one job: counts, bytes, latency (min/mean/stddev/max and a
//! log-linear histogram for percentiles, like fio's own clat bins), and throughput over time.
//!
//! The histogram is exact below 128 ns and has 64 sub-buckets per power of two above (relative
//! error under 1.6 %); a percentile is reported as its bucket's midpoint clamped to the observed
//! min/max, so a constant latency reports exactly. Memory is bounded (3776 buckets; the
//! throughput series is coarsened by 2 whenever it would exceed 4096 points).

use super::lat_dist::LatDist;
use ssdlab_model::SimTime;

const EXACT: u64 = 128;
const SUB_BITS: u32 = 6;
const BUCKETS: usize = 128 + 57 * 64;
const SERIES_MAX: usize = 4096;

/// fio's default percentile list (`percentile_list`), in percent.
pub const FIO_PERCENTILES: [f64; 17] = [
    1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95,
    99.99,
];

#[derive(Clone, Debug)]
pub struct LatencyHist {
    counts: Vec<u64>,
    n: u64,
    min_ns: u64,
    max_ns: u64,
    sum_ns: u128,
    sum_sq: f64,
}

impl Default for LatencyHist {
    fn default() -> Self {
        LatencyHist {
            counts: vec![0; BUCKETS],
            n: 0,
            min_ns: u64::MAX,
            max_ns: 0,
            sum_ns: 0,
            sum_sq: 0.0,
        }
    }
}

fn bucket(v: u64) -> usize {
    if v < EXACT {
        return v as usize;
    }
    let msb = 63 - v.leading_zeros();
    let shift = msb - SUB_BITS;
    let sub = (v >> shift) - 64;
    128 + (msb as usize - 7) * 64 + sub as usize
}

fn bucket_mid(i: usize) -> u64 {
    if i < EXACT as usize {
        return i as u64;
    }
    let msb = (i - 128) / 64 + 7;
    let sub = ((i - 128) % 64) as u64 + 64;
    let shift = msb as u32 - SUB_BITS;
    let lo = sub << shift;
    lo + ((1u64 << shift) - 1) / 2
}

impl LatencyHist {
    pub fn record(&mut self, ns: u64) {
        self.counts[bucket(ns)] += 1;
        self.n += 1;
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
        self.sum_ns += ns as u128;
        self.sum_sq += (ns as f64) * (ns as f64);
    }
    pub fn merge(&mut self, o: &LatencyHist) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        self.n += o.n;
        self.min_ns = self.min_ns.min(o.min_ns);
        self.max_ns = self.max_ns.max(o.max_ns);
        self.sum_ns += o.sum_ns;
        self.sum_sq += o.sum_sq;
    }
    pub fn count(&self) -> u64 {
        self.n
    }
    pub fn min_ns(&self) -> u64 {
        if self.n == 0 {
            0
        } else {
            self.min_ns
        }
    }
    pub fn max_ns(&self) -> u64 {
        self.max_ns
    }
    pub fn mean_ns(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum_ns as f64 / self.n as f64
        }
    }
    pub fn stddev_ns(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let m = self.mean_ns();
        ((self.sum_sq / self.n as f64 - m * m).max(0.0) * self.n as f64 / (self.n - 1) as f64)
            .sqrt()
    }
    /// The non-empty buckets as (latency ns, count), ascending: each bucket's midpoint clamped
    /// to the observed min/max (exact below 128 ns), as fio's json+ `bins` list its buckets.
    pub fn bins(&self) -> Vec<(u64, u64)> {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, c)| (bucket_mid(i).clamp(self.min_ns, self.max_ns), *c))
            .collect()
    }
    /// The `p`-th percentile (0 < p <= 100), ns; 0 with no samples.
    pub fn percentile_ns(&self, p: f64) -> u64 {
        if self.n == 0 {
            return 0;
        }
        let rank = ((p / 100.0) * self.n as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return bucket_mid(i).clamp(self.min_ns, self.max_ns);
            }
        }
        self.max_ns
    }
}

/// Bytes and IOs completed per time bin, from the start of the measurement window.
#[derive(Clone, Debug)]
pub struct Series {
    pub bin: SimTime,
    pub bytes: Vec<u64>,
    /// Completions per bin (same length as `bytes`).
    pub ios: Vec<u64>,
}

impl Default for Series {
    fn default() -> Self {
        Series {
            bin: SimTime::from_us(100),
            bytes: Vec::new(),
            ios: Vec::new(),
        }
    }
}

impl Series {
    /// Bin k holds completions in (k * bin, (k + 1) * bin]: a completion at exactly the end of a
    /// bin belongs to the interval it ends (time 0 goes to bin 0).
    pub fn add(&mut self, since_start: SimTime, bytes: u64) {
        let ps = since_start.as_ps().saturating_sub(1);
        let mut idx = (ps / self.bin.as_ps()) as usize;
        while idx >= SERIES_MAX {
            self.coarsen();
            idx = (ps / self.bin.as_ps()) as usize;
        }
        if self.bytes.len() <= idx {
            self.bytes.resize(idx + 1, 0);
            self.ios.resize(idx + 1, 0);
        }
        self.bytes[idx] += bytes;
        self.ios[idx] += 1;
    }
    /// Doubles the bin width.
    pub fn coarsen(&mut self) {
        self.bin = self.bin * 2;
        self.bytes = self.bytes.chunks(2).map(|c| c.iter().sum()).collect();
        self.ios = self.ios.chunks(2).map(|c| c.iter().sum()).collect();
    }
    pub fn merge(&mut self, o: &Series) {
        let mut o = o.clone();
        while o.bin < self.bin {
            o.coarsen();
        }
        while self.bin < o.bin {
            self.coarsen();
        }
        if self.bytes.len() < o.bytes.len() {
            self.bytes.resize(o.bytes.len(), 0);
            self.ios.resize(o.ios.len(), 0);
        }
        for (a, b) in self.bytes.iter_mut().zip(&o.bytes) {
            *a += b;
        }
        for (a, b) in self.ios.iter_mut().zip(&o.ios) {
            *a += b;
        }
    }
}

/// One direction (read or write) of one job.
#[derive(Clone, Debug, Default)]
pub struct DirStats {
    pub ios: u64,
    pub bytes: u64,
    pub lat: LatencyHist,
    /// Exact counts in fio's latency ranges.
    pub dist: LatDist,
    pub series: Series,
}

impl DirStats {
    pub fn record(&mut self, len: u64, lat: SimTime, since_start: SimTime) {
        self.ios += 1;
        self.bytes += len;
        self.lat.record(lat.as_ps() / 1000);
        self.dist.record(lat.as_ps() / 1000);
        self.series.add(since_start, len);
    }
    pub fn merge(&mut self, o: &DirStats) {
        self.ios += o.ios;
        self.bytes += o.bytes;
        self.lat.merge(&o.lat);
        self.dist.merge(&o.dist);
        self.series.merge(&o.series);
    }
    /// IO/s over `runtime`.
    pub fn iops(&self, runtime: SimTime) -> f64 {
        if runtime == SimTime::ZERO {
            0.0
        } else {
            self.ios as f64 / runtime.as_secs_f64()
        }
    }
    /// Bytes/s over `runtime`.
    pub fn bw_bytes(&self, runtime: SimTime) -> f64 {
        if runtime == SimTime::ZERO {
            0.0
        } else {
            self.bytes as f64 / runtime.as_secs_f64()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_monotonic_and_tight() {
        let mut last = 0;
        for v in [
            0u64,
            1,
            127,
            128,
            129,
            200,
            1000,
            65_535,
            1 << 20,
            u64::MAX / 2,
        ] {
            let b = bucket(v);
            assert!(b >= last && b < BUCKETS, "v={v}");
            last = b;
            let mid = bucket_mid(b) as f64;
            assert!(
                (mid - v as f64).abs() <= v as f64 / 64.0 + 0.5,
                "v={v} mid={mid}"
            );
        }
    }

    #[test]
    fn percentiles_of_1_to_1000() {
        let mut h = LatencyHist::default();
        for v in 1..=1000 {
            h.record(v * 1000); // 1..1000 us
        }
        // Rank ceil(0.5*1000) = 500 -> 500 us, within the 1.6 % bucket error.
        let p50 = h.percentile_ns(50.0) as f64;
        assert!((p50 - 500_000.0).abs() / 500_000.0 < 0.016, "{p50}");
        let p99 = h.percentile_ns(99.0) as f64;
        assert!((p99 - 990_000.0).abs() / 990_000.0 < 0.016, "{p99}");
        assert_eq!(h.percentile_ns(100.0), 1_000_000);
        assert_eq!(h.min_ns(), 1000);
        assert_eq!(h.mean_ns(), 500_500.0);
    }

    #[test]
    fn constant_latency_is_exact() {
        let mut h = LatencyHist::default();
        for _ in 0..10 {
            h.record(100_000);
        }
        assert_eq!(h.percentile_ns(50.0), 100_000);
        assert_eq!(h.percentile_ns(99.99), 100_000);
        assert_eq!(h.stddev_ns(), 0.0);
    }

    #[test]
    fn series_coarsens_and_keeps_bytes() {
        let mut s = Series::default();
        s.add(SimTime::from_us(50), 10);
        // 1 s / 100 us = bin 10 000 >= 4096: coarsened twice, to 400 us bins.
        s.add(SimTime::from_secs(1), 7);
        assert_eq!(s.bin, SimTime::from_us(400));
        assert_eq!(s.bytes.iter().sum::<u64>(), 17);
        assert_eq!((s.ios.iter().sum::<u64>(), s.ios.len()), (2, s.bytes.len()));
        assert_eq!(s.bytes[0], 10);
    }
}
