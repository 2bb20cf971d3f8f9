//! One NAND die (LUN): array timing by cell mode and page type, per-die and per-plane busy
//! state, cache-read overlap, and per-operation energy. The channel bus is the sequencer's
//! (`nand::sequencer`); this module supplies the `array_time` of each op it is handed.
//!
//! Sources: ONFI 4.1 §5 (PAGE READ 00h-30h, CACHE READ 31h, multi-plane 32h/11h, PROGRAM 80h-10h,
//! ERASE 60h-D0h); Micron B16A public summaries for TLC behaviour: a TLC word line holds LSB, CSB
//! and MSB pages (page type = page index % 3) with increasing tR, and is programmed in one shot
//! (one tPROG for all three pages). Multi-plane operations run the planes concurrently: one tR /
//! tPROG / tBERS, energy per plane.

use crate::config::{CellTiming, GeometryConfig, NandConfig, OnfiConfig};
use crate::ftl::NandOp;
use crate::nand::{CellMode, NandOpKind};
use crate::time::SimTime;

/// Array times and energies of one cell mode, converted once from the config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeTiming {
    pub t_read: [SimTime; 3],
    pub t_prog: SimTime,
    pub t_erase: SimTime,
    /// Energies per plane, picojoules.
    pub read_pj: u64,
    pub prog_pj: u64,
    pub erase_pj: u64,
}

impl ModeTiming {
    fn from_config(c: &CellTiming) -> Self {
        let pj = |uj: f64| (uj * 1e6).round() as u64;
        ModeTiming {
            t_read: [c.t_read(0), c.t_read(1), c.t_read(2)],
            t_prog: c.t_prog(),
            t_erase: c.t_erase(),
            read_pj: pj(c.read_energy_uj),
            prog_pj: pj(c.prog_energy_uj),
            erase_pj: pj(c.erase_energy_uj),
        }
    }
}

/// Timing of the whole array (all dies are alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NandTiming {
    pub slc: ModeTiming,
    pub tlc: ModeTiming,
    pub cache_read: bool,
    /// Channel bus rate, bytes per second (to size the cache-read overlap).
    pub bus_bytes_per_sec: u64,
}

impl NandTiming {
    pub fn new(nand: &NandConfig, onfi: &OnfiConfig) -> Self {
        NandTiming {
            slc: ModeTiming::from_config(&nand.slc),
            tlc: ModeTiming::from_config(&nand.tlc),
            cache_read: nand.cache_read,
            bus_bytes_per_sec: onfi.bus_bytes_per_sec(),
        }
    }
    #[inline]
    pub fn mode(&self, m: CellMode) -> &ModeTiming {
        match m {
            CellMode::Slc => &self.slc,
            CellMode::Tlc => &self.tlc,
        }
    }
    /// Page type within a word line: 0 LSB, 1 CSB, 2 MSB (TLC); SLC pages are all type 0.
    #[inline]
    pub fn page_type(mode: CellMode, page: u32) -> u32 {
        match mode {
            CellMode::Slc => 0,
            CellMode::Tlc => page % 3,
        }
    }
    /// Array time of `op`: tR of its page type, tPROG (one-shot for TLC), or tBERS.
    #[inline]
    pub fn array_time(&self, op: &NandOp) -> SimTime {
        let m = self.mode(op.mode);
        match op.kind {
            NandOpKind::Read => m.t_read[Self::page_type(op.mode, op.addr.page) as usize],
            NandOpKind::Program => m.t_prog,
            NandOpKind::Erase => m.t_erase,
        }
    }
    /// Array energy of `op` in picojoules (per plane × planes).
    #[inline]
    pub fn energy_pj(&self, op: &NandOp) -> u64 {
        let m = self.mode(op.mode);
        let per_plane = match op.kind {
            NandOpKind::Read => m.read_pj,
            NandOpKind::Program => m.prog_pj,
            NandOpKind::Erase => m.erase_pj,
        };
        per_plane * op.planes.max(1) as u64
    }
}

/// The last op a die ran, to recognise sequential reads that a cache read can overlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LastRead {
    plane: u8,
    planes: u8,
    block: u32,
    page: u32,
    mode: CellMode,
    bus_bytes: u32,
}

/// Busy state of one die and its planes.
#[derive(Clone, Debug)]
pub struct Die {
    /// Ops handed to the sequencer and not yet complete (the sequencer runs them in order).
    inflight: u32,
    /// Per plane: when its current/last array operation ends.
    plane_busy_until: Vec<SimTime>,
    last_read: Option<LastRead>,
    /// Time the die spent in array operations (tR/tPROG/tBERS actually charged).
    pub array_busy: SimTime,
    /// Per plane: array time of the ops that occupied it (a multi-plane op counts on each of
    /// its planes, so a die's planes sum to more than `array_busy` when it runs them).
    pub plane_array_busy: Vec<SimTime>,
    pub cache_reads: u64,
}

impl Die {
    pub fn new(geo: &GeometryConfig) -> Self {
        Die {
            inflight: 0,
            plane_busy_until: vec![SimTime::ZERO; geo.planes_per_die as usize],
            last_read: None,
            array_busy: SimTime::ZERO,
            plane_array_busy: vec![SimTime::ZERO; geo.planes_per_die as usize],
            cache_reads: 0,
        }
    }
    pub fn is_busy(&self) -> bool {
        self.inflight > 0
    }
    /// Ops handed to this die and not finished.
    pub fn inflight(&self) -> u32 {
        self.inflight
    }
    pub fn plane_busy_until(&self, plane: u8) -> SimTime {
        self.plane_busy_until[plane as usize]
    }
    /// Hands `op` to this die at `now` (behind any op still running) and returns the array time
    /// to give the sequencer. When the op queues behind a running one (the die does not go idle)
    /// a sequential read is a cache read (31h): its tR overlaps the previous page's data out,
    /// saving up to that data-out time. (Plane busy times assume the op starts at `now`.)
    pub fn start(&mut self, now: SimTime, op: &NandOp, t: &NandTiming) -> SimTime {
        let back_to_back = self.inflight > 0;
        let first = op.addr.plane as usize;
        let planes = op.planes.max(1) as usize;
        assert!(
            first + planes <= self.plane_busy_until.len(),
            "op addresses planes {first}..{} beyond the die",
            first + planes
        );
        let mut array = t.array_time(op);
        if op.kind == NandOpKind::Read && t.cache_read && back_to_back {
            if let Some(prev) = self.last_read {
                let sequential = prev.block == op.addr.block
                    && prev.page + 1 == op.addr.page
                    && prev.plane == op.addr.plane
                    && prev.planes == op.planes
                    && prev.mode == op.mode;
                if sequential {
                    let overlap = SimTime::for_bytes(prev.bus_bytes as u64, t.bus_bytes_per_sec);
                    array = array.saturating_sub(overlap);
                    self.cache_reads += 1;
                }
            }
        }
        self.last_read = (op.kind == NandOpKind::Read).then_some(LastRead {
            plane: op.addr.plane,
            planes: op.planes,
            block: op.addr.block,
            page: op.addr.page,
            mode: op.mode,
            bus_bytes: op.bus_bytes,
        });
        for p in &mut self.plane_busy_until[first..first + planes] {
            *p = now + array;
        }
        for b in &mut self.plane_array_busy[first..first + planes] {
            *b += array;
        }
        self.inflight += 1;
        self.array_busy += array;
        array
    }
    /// The op running on this die completed.
    pub fn finish(&mut self) {
        assert!(self.inflight > 0, "finish on an idle die");
        self.inflight -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;
    use crate::ftl::OpPurpose;
    use crate::nand::{DieId, PhysPage};

    fn op(kind: NandOpKind, mode: CellMode, block: u32, page: u32, planes: u8) -> NandOp {
        NandOp {
            kind,
            mode,
            addr: PhysPage {
                die: DieId::default(),
                plane: 0,
                block,
                page,
            },
            planes,
            bus_bytes: 4096,
            purpose: OpPurpose::HostRead,
            after: None,
        }
    }

    /// The SM2262 preset's NAND timing before calibration, pinned so the hand figures below stay
    /// valid when the preset's fitted tR/tPROG values move (docs/calibration.md).
    fn timing() -> NandTiming {
        let mut c = DriveConfig::default_drive();
        c.nand.tlc.t_read_lsb_us = 56.0;
        c.nand.tlc.t_read_csb_us = 66.0;
        c.nand.tlc.t_read_msb_us = 76.0;
        c.nand.tlc.t_prog_us = 1900.0;
        c.nand.slc.t_read_lsb_us = 35.0;
        c.nand.slc.t_read_csb_us = 35.0;
        c.nand.slc.t_read_msb_us = 35.0;
        c.nand.slc.t_prog_us = 220.0;
        NandTiming::new(&c.nand, &c.onfi)
    }

    #[test]
    fn read_time_by_page_type_and_mode() {
        // Preset: TLC LSB/CSB/MSB tR = 56/66/76 us; SLC 35 us for every page.
        let t = timing();
        let tlc: Vec<_> = (0..4)
            .map(|p| t.array_time(&op(NandOpKind::Read, CellMode::Tlc, 1, p, 1)))
            .collect();
        assert_eq!(
            tlc,
            vec![
                SimTime::from_us(56),
                SimTime::from_us(66),
                SimTime::from_us(76),
                SimTime::from_us(56)
            ]
        );
        assert_eq!(
            t.array_time(&op(NandOpKind::Read, CellMode::Slc, 1, 2, 1)),
            SimTime::from_us(35)
        );
        assert_eq!(
            t.array_time(&op(NandOpKind::Program, CellMode::Tlc, 1, 0, 2)),
            SimTime::from_us(1900)
        );
        assert_eq!(
            t.array_time(&op(NandOpKind::Erase, CellMode::Slc, 1, 0, 2)),
            SimTime::from_ms(3)
        );
    }

    #[test]
    fn energy_per_plane() {
        // TLC program 90 uJ per plane: a 2-plane one-shot program = 180 uJ = 180e6 pJ.
        let t = timing();
        assert_eq!(
            t.energy_pj(&op(NandOpKind::Program, CellMode::Tlc, 1, 0, 2)),
            180_000_000
        );
        assert_eq!(
            t.energy_pj(&op(NandOpKind::Read, CellMode::Slc, 1, 0, 1)),
            2_000_000
        );
    }

    #[test]
    fn cache_read_overlaps_previous_data_out() {
        // Sequential TLC reads of pages 0 then 1, back to back: page 1's tR (66 us) overlaps the
        // 4096 B data out of page 0 at 800 MB/s (5.12 us): 60.88 us charged.
        let t = timing();
        let geo = DriveConfig::default_drive().geometry;
        let mut d = Die::new(&geo);
        assert_eq!(
            d.start(
                SimTime::ZERO,
                &op(NandOpKind::Read, CellMode::Tlc, 7, 0, 1),
                &t
            ),
            SimTime::from_us(56)
        );
        // Page 1 queued while page 0 still runs: back to back.
        let a = d.start(
            SimTime::from_us(10),
            &op(NandOpKind::Read, CellMode::Tlc, 7, 1, 1),
            &t,
        );
        assert_eq!(a, SimTime::from_ns(60_880));
        d.finish();
        d.finish();
        assert!(!d.is_busy());
        // Not back to back (the die went idle): full tR.
        let b = d.start(
            SimTime::from_us(200),
            &op(NandOpKind::Read, CellMode::Tlc, 7, 2, 1),
            &t,
        );
        assert_eq!(b, SimTime::from_us(76));
        assert_eq!(d.plane_busy_until(0), SimTime::from_us(276));
        assert_eq!(d.cache_reads, 1);
    }

    #[test]
    fn plane_busy_counts_each_plane_a_multi_plane_op_occupies() {
        // A 2-plane TLC program (1900 us) on planes 0-1, then a 1-plane TLC LSB read (56 us) on
        // plane 0 after the die went idle: plane 0 holds 1956 us, plane 1 1900 us, and the die
        // array 1956 us (the 2-plane program is one array op).
        let t = timing();
        let geo = DriveConfig::default_drive().geometry;
        assert_eq!(geo.planes_per_die, 2);
        let mut d = Die::new(&geo);
        d.start(
            SimTime::ZERO,
            &op(NandOpKind::Program, CellMode::Tlc, 3, 0, 2),
            &t,
        );
        d.finish();
        d.start(
            SimTime::from_ms(2),
            &op(NandOpKind::Read, CellMode::Tlc, 3, 0, 1),
            &t,
        );
        assert_eq!(
            d.plane_array_busy,
            vec![SimTime::from_us(1956), SimTime::from_us(1900)]
        );
        assert_eq!(d.array_busy, SimTime::from_us(1956));
    }
}
