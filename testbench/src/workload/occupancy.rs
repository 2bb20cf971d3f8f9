//! SLC-cache occupancy and free die-blocks over a measurement window, sampled by the workload
//! runner whenever the device hands control back (after each batch of completions or timer),
//! kept per time bin like the throughput series (`stats::Series`): a bin holds the last sample
//! taken in it, so the curve shows the state at the end of each bin. The device reports the
//! figures its FTL keeps (the model: `DriveStats::slc_valid_bytes`, `slc_blocks`,
//! `free_blocks`, refreshed at every FTL call), so sampling costs a copy of three counters.

use ssdlab_model::SimTime;

/// Bins kept before the width doubles (as the throughput series).
const BINS_MAX: usize = 4096;

/// The flash-management state the device reports at one instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlashState {
    /// Valid data in the SLC cache, bytes, and the die-blocks it holds.
    pub slc_bytes: u64,
    pub slc_blocks: u64,
    /// Free die-blocks, all pools.
    pub free_blocks: u64,
}

/// The last [`FlashState`] sampled in each time bin from the start of the window (bins with no
/// sample are `None`).
#[derive(Clone, Debug, PartialEq)]
pub struct OccupancySeries {
    pub bin: SimTime,
    pub samples: Vec<Option<FlashState>>,
}

impl Default for OccupancySeries {
    fn default() -> Self {
        OccupancySeries {
            bin: SimTime::from_us(100),
            samples: Vec::new(),
        }
    }
}

impl OccupancySeries {
    /// Records `s` at `since_start`; bin k holds samples in (k * bin, (k + 1) * bin] (time 0
    /// goes to bin 0), as the throughput series bins completions.
    pub fn sample(&mut self, since_start: SimTime, s: FlashState) {
        let ps = since_start.as_ps().saturating_sub(1);
        let mut idx = (ps / self.bin.as_ps()) as usize;
        while idx >= BINS_MAX {
            self.coarsen();
            idx = (ps / self.bin.as_ps()) as usize;
        }
        if self.samples.len() <= idx {
            self.samples.resize(idx + 1, None);
        }
        self.samples[idx] = Some(s);
    }

    /// Doubles the bin width; a merged bin keeps the later of its two samples.
    pub fn coarsen(&mut self) {
        self.bin = self.bin * 2;
        self.samples = self
            .samples
            .chunks(2)
            .map(|c| c.iter().rev().find_map(|s| *s))
            .collect();
    }

    /// (time from the window start at the end of the bin, state) of every sampled bin; the
    /// last bin ends at `window` at the latest.
    pub fn points(&self, window: SimTime) -> Vec<(SimTime, FlashState)> {
        self.samples
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let end = (self.bin * (i as u64 + 1)).min(window);
                s.map(|s| (end, s))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(free: u64) -> FlashState {
        FlashState {
            slc_bytes: 0,
            slc_blocks: 0,
            free_blocks: free,
        }
    }

    #[test]
    fn a_bin_keeps_its_last_sample_and_coarsening_the_later() {
        let mut o = OccupancySeries::default();
        o.sample(SimTime::ZERO, st(10));
        o.sample(SimTime::from_us(100), st(9)); // end of bin 0 belongs to bin 0
        o.sample(SimTime::from_us(150), st(8));
        o.sample(SimTime::from_us(350), st(7));
        assert_eq!(o.samples, vec![Some(st(9)), Some(st(8)), None, Some(st(7))]);
        assert_eq!(
            o.points(SimTime::from_us(360)),
            vec![
                (SimTime::from_us(100), st(9)),
                (SimTime::from_us(200), st(8)),
                (SimTime::from_us(360), st(7)),
            ]
        );
        o.coarsen();
        assert_eq!(o.bin, SimTime::from_us(200));
        assert_eq!(o.samples, vec![Some(st(8)), Some(st(7))]);
    }

    #[test]
    fn a_late_sample_coarsens_until_it_fits() {
        // 4096 bins of 100 us cover 409.6 ms; a sample at 1 s needs bins of 400 us (2500th).
        let mut o = OccupancySeries::default();
        o.sample(SimTime::from_us(50), st(5));
        o.sample(SimTime::from_secs(1), st(4));
        assert_eq!(o.bin, SimTime::from_us(400));
        assert_eq!(o.samples.len(), 2500);
        assert_eq!(o.samples[0], Some(st(5)));
        assert_eq!(o.samples[2499], Some(st(4)));
    }
}
