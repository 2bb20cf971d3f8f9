//! The drive's statistics window: [`Drive::reset_stats`] starts one (counters of the FTL, the
//! channels, the dies and the map hierarchy taken as the window's base), and the derived
//! figures (elapsed and busy time, energy by source from `power.*`, write amplification, bus
//! and array busy time) are brought up to now lazily, when the statistics are next read.

use super::{stats, Drive};
use crate::pcie::Dir;
use crate::time::SimTime;

impl Drive {
    /// Starts a measurement window now (FTL state untouched).
    pub fn reset_stats(&mut self) {
        let now = self.now();
        *self.stats.get_mut() = stats::DriveStats {
            window_start: now,
            ..Default::default()
        };
        if self.busy_since.is_some() {
            self.busy_since = Some(now);
        }
        self.busy_acc = SimTime::ZERO;
        self.nand_pj = 0;
        self.cpu.reset_stats();
        self.dram.reset_stats();
        self.host.link.reset_stats();
        self.buf.reset_peak();
        let f = self.ftl.stats();
        self.base_ftl = f.clone();
        self.base_map = (*self.map_sram.stats(), *self.ftl.map_table_stats());
        self.base_channel_busy = self.chans.iter().map(|c| c.seq.bus_busy_time()).collect();
        self.base_suspends = self.chans.iter().map(|c| c.seq.suspends()).sum();
        self.base_die_busy = self.dies.iter().map(|d| d.die.array_busy).collect();
        self.base_plane_busy = self
            .dies
            .iter()
            .flat_map(|d| d.die.plane_array_busy.iter().copied())
            .collect();
        self.refresh_stats();
    }

    /// The derived figures (time, energy, FTL counters) are out of date: `stats` brings them
    /// up to now when it is next called.
    pub(super) fn refresh_stats(&mut self) {
        self.stats_stale.set(true);
    }

    /// Brings the derived figures of `s` (the drive's statistics) up to now.
    pub(super) fn derive_stats(&self, s: &mut stats::DriveStats) {
        let now = self.now();
        let p = &self.cfg.power;
        s.elapsed = now - s.window_start;
        s.busy_time = self.busy_acc
            + self
                .busy_since
                .map_or(SimTime::ZERO, |b| now - b.max(s.window_start));
        s.idle_time = s.elapsed.saturating_sub(s.busy_time);
        s.cpu_busy = self.cpu.busy();
        s.cpu_core_busy.clear();
        s.cpu_core_busy.extend_from_slice(self.cpu.core_busy());
        s.dram_busy = self.dram.busy();
        s.link_up_busy = self.host.link.stats(Dir::Up).busy;
        s.link_down_busy = self.host.link.stats(Dir::Down).busy;
        let secs = |t: SimTime| t.as_secs_f64();
        let active_idle = |active: SimTime, aw: f64, iw: f64| {
            let a = active.min(s.elapsed);
            aw * secs(a) + iw * secs(s.elapsed - a)
        };
        // The link is active while either direction transmits; max() is a lower bound of that union.
        let link_active = s.link_up_busy.max(s.link_down_busy);
        s.energy = stats::EnergyStats {
            nand_array_j: self.nand_pj as f64 * 1e-12,
            onfi_j: s.onfi_bytes as f64 * p.onfi_pj_per_byte * 1e-12,
            controller_j: active_idle(s.busy_time, p.controller_active_w, p.controller_idle_w),
            dram_j: active_idle(s.dram_busy, p.dram_active_w, p.dram_idle_w),
            link_j: active_idle(link_active, p.link_active_w, p.link_idle_w),
        };
        let f = self.ftl.stats();
        let b = &self.base_ftl;
        s.host_units_written = f.host_units_written - b.host_units_written;
        s.nand_units_written = f.nand_units_written - b.nand_units_written;
        s.host_units_read = f.host_units_read - b.host_units_read;
        s.host_units_unmapped = f.host_units_unmapped - b.host_units_unmapped;
        s.gc_blocks = f.gc_blocks - b.gc_blocks;
        s.gc_units_moved = f.gc_units_moved - b.gc_units_moved;
        s.fold_blocks = f.fold_blocks - b.fold_blocks;
        s.fold_units_moved = f.fold_units_moved - b.fold_units_moved;
        s.die_block_units = self.ftl.layout().plan.block_units;
        s.map = super::MapHierarchyStats::from_window(
            (self.map_sram.stats(), self.ftl.map_table_stats()),
            &self.base_map,
            self.ftl.map_table_fits(),
        );
        s.write_amplification = if s.host_units_written == 0 {
            0.0
        } else {
            s.nand_units_written as f64 / s.host_units_written as f64
        };
        s.slc_blocks = f.slc_blocks;
        s.slc_valid_bytes = f.slc_valid_bytes;
        s.free_blocks = f.free_blocks;
        s.write_buffer_peak_units = self.buf.peak_units();
        s.channel_bus_busy.clear();
        s.channel_bus_busy.extend(
            self.chans
                .iter()
                .zip(&self.base_channel_busy)
                .map(|(c, b)| c.seq.bus_busy_time().saturating_sub(*b)),
        );
        s.nand_suspends =
            self.chans.iter().map(|c| c.seq.suspends()).sum::<u64>() - self.base_suspends;
        s.die_array_busy.clear();
        s.die_array_busy.extend(
            self.dies
                .iter()
                .zip(&self.base_die_busy)
                .map(|(d, b)| d.die.array_busy - *b),
        );
        s.plane_array_busy.clear();
        s.plane_array_busy.extend(
            self.dies
                .iter()
                .flat_map(|d| d.die.plane_array_busy.iter())
                .zip(&self.base_plane_busy)
                .map(|(p, b)| *p - *b),
        );
    }
}
