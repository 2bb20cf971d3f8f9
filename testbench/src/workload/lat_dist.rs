//! fio's latency distribution (`latency_ns` / `latency_us` / `latency_ms` in its JSON, the
//! `lat (usec)   : 20=96.89%, ...` lines in its text): exact counts of IOs per range, with the
//! ranges of fio's `io_u_mark_lat_nsec/usec/msec` (stat.c): a latency counts under the first edge
//! above it, in whole ns below 1 us, whole us below 1 ms, whole ms above; `>=2000` ms is last.

/// Upper edges of the ten ranges of one unit (fio's keys).
pub const EDGES: [u64; 10] = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000];

/// Counts per range: 10 in ns, 10 in us, 10 + 2 in ms (`2000`, `>=2000`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LatDist {
    pub counts: [u64; 32],
}

/// Index of the range a latency of `ns` falls in.
pub fn range_of(ns: u64) -> usize {
    let (v, base) = match ns {
        0..=999 => (ns, 0),
        1_000..=999_999 => (ns / 1_000, 10),
        _ => (ns / 1_000_000, 20),
    };
    match EDGES.iter().position(|e| v < *e) {
        Some(i) => base + i,
        None if v < 2000 => 30,
        None => 31,
    }
}

impl LatDist {
    pub fn record(&mut self, ns: u64) {
        self.counts[range_of(ns)] += 1;
    }
    pub fn merge(&mut self, o: &LatDist) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
    }
    /// (unit label, [(key, count)]) for ns, us and ms, in fio's key order.
    pub fn by_unit(&self) -> [(&'static str, Vec<(String, u64)>); 3] {
        let keys = |base: usize| {
            EDGES
                .iter()
                .enumerate()
                .map(|(i, e)| (e.to_string(), self.counts[base + i]))
                .collect()
        };
        let mut ms: Vec<(String, u64)> = keys(20);
        ms.push(("2000".into(), self.counts[30]));
        ms.push((">=2000".into(), self.counts[31]));
        [("nsec", keys(0)), ("usec", keys(10)), ("msec", ms)]
    }
}

/// fio's `stat_calc_lat`: percent of `total`, at least 0.01 for a non-empty range.
pub fn percent(count: u64, total: u64) -> f64 {
    if total == 0 {
        return 0.0;
    }
    let p = 100.0 * count as f64 / total as f64;
    if count > 0 && p < 0.01 {
        0.01
    } else {
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_follow_io_u_mark_lat() {
        // fio: nsec 0..1 -> "2", 2..3 -> "4", 750..999 -> "1000"; usec 1..1 -> "2" (index 10),
        // 999 us -> "1000"; msec 1 -> "2", 1000..1999 -> "2000", 2000+ -> ">=2000".
        assert_eq!(
            (range_of(0), range_of(1), range_of(2), range_of(999)),
            (0, 0, 1, 9)
        );
        assert_eq!(
            (
                range_of(1_000),
                range_of(1_999),
                range_of(2_000),
                range_of(999_999)
            ),
            (10, 10, 11, 19)
        );
        assert_eq!(
            (
                range_of(1_000_000),
                range_of(20_000_000),
                range_of(999_999_999)
            ),
            (20, 24, 29)
        );
        assert_eq!(
            (
                range_of(1_000_000_000),
                range_of(1_999_999_999),
                range_of(2_000_000_000)
            ),
            (30, 30, 31)
        );
        assert_eq!(
            (percent(1, 100_000), percent(0, 5), percent(3, 4)),
            (0.01, 0.0, 75.0)
        );
    }
}
