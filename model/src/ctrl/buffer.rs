//! The controller's host-data buffers, counted in 4 KiB units. The write buffer
//! (`controller.write_buffer_kib`): host write data occupies it from arrival until the NAND
//! program carrying it completes (early completion when the data fits, otherwise the
//! write waits for room). The read staging buffer (`controller.read_buffer_kib`, optional): a
//! read command holds room for all its units from issue until its data has been sent.

use crate::config::ControllerConfig;

#[derive(Clone, Debug)]
pub struct DataBuffer {
    capacity_units: u64,
    used_units: u64,
    peak_units: u64,
}

impl DataBuffer {
    pub fn new(cfg: &ControllerConfig) -> Self {
        Self::with_kib(cfg.write_buffer_kib)
    }
    /// A buffer of `kib` KiB (at least 4).
    pub fn with_kib(kib: u32) -> Self {
        let capacity_units = kib as u64 / 4;
        assert!(capacity_units >= 1, "validated config: at least 4 KiB");
        DataBuffer {
            capacity_units,
            used_units: 0,
            peak_units: 0,
        }
    }
    pub fn capacity_units(&self) -> u64 {
        self.capacity_units
    }
    pub fn used_units(&self) -> u64 {
        self.used_units
    }
    pub fn peak_units(&self) -> u64 {
        self.peak_units
    }
    /// Takes `units` if they fit. A request larger than the whole buffer is admitted when the
    /// buffer is empty (it streams through), so no request can wait forever.
    pub fn try_reserve(&mut self, units: u64) -> bool {
        let fits = self.used_units + units <= self.capacity_units || self.used_units == 0;
        if fits {
            self.used_units += units;
            self.peak_units = self.peak_units.max(self.used_units);
        }
        fits
    }
    /// Frees `units` (a program carrying them completed). Saturates: data the FTL staged
    /// outside host writes (e.g. after a functional warm-up) is not counted here.
    pub fn release(&mut self, units: u64) {
        self.used_units = self.used_units.saturating_sub(units);
    }
    pub fn reset_peak(&mut self) {
        self.peak_units = self.used_units;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    #[test]
    fn occupancy_and_oversized_requests() {
        let mut c = DriveConfig::default_drive().controller;
        c.write_buffer_kib = 16; // 4 units
        let mut b = DataBuffer::new(&c);
        assert!(b.try_reserve(3));
        assert!(!b.try_reserve(2), "3 + 2 > 4");
        assert!(b.try_reserve(1));
        b.release(4);
        assert!(
            b.try_reserve(9),
            "an empty buffer admits an oversized request"
        );
        assert!(!b.try_reserve(1));
        assert_eq!(b.peak_units(), 9);
    }
}
