//! Physical address layout of the flash array as the FTL sees it: dies striped channel-first,
//! die-blocks (block `b` on every plane of a die, programmed and erased multi-plane), and a 32-bit
//! physical unit address (PPA) per 4 KiB unit. Source: ONFI 4.1 addressing (LUN, plane, block,
//! page), Micron B16A organisation (2 planes, one-shot TLC programming of a word line's 3 pages).
//!
//! Inside a die-block, unit offsets run page-major, then plane, then 4 KiB slot:
//! `off = (page * planes + plane) * units_per_page + slot`. A TLC program unit (one word line,
//! all planes) is therefore a contiguous run of `bits * planes * units_per_page` offsets, and an
//! SLC program unit (one page, all planes) a run of `planes * units_per_page`. SLC-mode blocks use
//! only the first third (for TLC) of the offsets: page `p` of an SLC block is word line `p`.

use super::{NandOp, NandOpKind, OpPurpose};
use crate::config::{CapacityPlan, GeometryConfig};
use crate::nand::{CellMode, DieId, PhysPage};

/// "No address": an unmapped logical unit or an invalid physical slot.
pub const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Layout {
    pub channels: u32,
    pub ways: u32,
    pub dies: u32,
    pub planes: u32,
    pub blocks_per_die: u32,
    /// Native pages per word line (3 for TLC).
    pub bits: u32,
    pub wordlines: u32,
    pub units_per_page: u32,
    pub page_bytes: u32,
    pub spare_bytes: u32,
    /// Units in a die-block, native mode.
    pub block_units: u32,
    pub plan: CapacityPlan,
    /// Division by `block_units`, `blocks_per_die`, `units_per_page` and `planes` without a
    /// hardware divide (these run once or more per unit on the warm-up's hot path).
    div_block: FastDiv,
    div_blocks_per_die: FastDiv,
    div_upp: FastDiv,
    div_planes: FastDiv,
    /// `die_id` of every die.
    die_ids: Vec<DieId>,
    /// `unit_bus_bytes()`, computed once (GC builds a read op per page row).
    unit_bus: u32,
    /// `program_units()` of TLC and SLC, computed once (checked on every staged unit).
    pu_tlc: u32,
    pu_slc: u32,
}

/// Exact division of a `u32` by a fixed non-zero `u32` with one multiply: with
/// `m = ceil(2^64 / d)`, `x / d = (m * x) >> 64` for every 32-bit `x` (Lemire, Kaser & Kurz,
/// "Faster remainder by direct computation", 2019, Theorem 1).
#[derive(Clone, Copy, Debug)]
pub struct FastDiv {
    m: u64,
    d: u32,
}

impl FastDiv {
    pub fn new(d: u32) -> FastDiv {
        assert!(d > 0, "division by zero");
        // d = 1 would need m = 2^64: the wrapping add gives 0 and `div` handles it.
        FastDiv {
            m: (u64::MAX / d as u64).wrapping_add(1),
            d,
        }
    }
    // `div` divides a u32 by the stored divisor; it is not an operator between two `FastDiv`s.
    #[allow(clippy::should_implement_trait)]
    #[inline(always)]
    pub fn div(self, x: u32) -> u32 {
        if self.d == 1 {
            return x;
        }
        ((self.m as u128 * x as u128) >> 64) as u32
    }
    /// (x / d, x % d).
    #[inline(always)]
    pub fn div_rem(self, x: u32) -> (u32, u32) {
        let q = self.div(x);
        (q, x - q * self.d)
    }
}

impl Layout {
    pub fn new(geo: &GeometryConfig, plan: CapacityPlan) -> Layout {
        let l = Layout {
            channels: geo.channels,
            ways: geo.ways_per_channel,
            dies: geo.dies(),
            planes: geo.planes_per_die,
            blocks_per_die: geo.blocks_per_plane,
            bits: geo.bits_per_cell,
            wordlines: geo.wordlines_per_block,
            units_per_page: geo.units_per_page(),
            page_bytes: geo.page_bytes,
            spare_bytes: geo.spare_bytes,
            block_units: plan.block_units as u32,
            plan,
            div_block: FastDiv::new(plan.block_units as u32),
            div_blocks_per_die: FastDiv::new(geo.blocks_per_plane),
            div_upp: FastDiv::new(geo.units_per_page()),
            div_planes: FastDiv::new(geo.planes_per_die),
            die_ids: Vec::new(),
            unit_bus: 4096 + geo.spare_bytes / geo.units_per_page(),
            pu_tlc: geo.bits_per_cell * geo.planes_per_die * geo.units_per_page(),
            pu_slc: geo.planes_per_die * geo.units_per_page(),
        };
        let mut l = l;
        l.die_ids = (0..l.dies).map(|d| l.compute_die_id(d)).collect();
        assert_eq!(l.block_units as u64, plan.block_units);
        assert!((l.dies as u64) * (l.blocks_per_die as u64) * (l.block_units as u64) < NONE as u64);
        l
    }

    /// Die-blocks in the drive.
    pub fn die_blocks(&self) -> u32 {
        self.dies * self.blocks_per_die
    }
    pub fn physical_units(&self) -> u64 {
        self.die_blocks() as u64 * self.block_units as u64
    }
    /// Die-block id of (die, block).
    pub fn dbid(&self, die: u32, block: u32) -> u32 {
        debug_assert!(die < self.dies && block < self.blocks_per_die);
        die * self.blocks_per_die + block
    }
    #[inline]
    pub fn die_of(&self, dbid: u32) -> u32 {
        self.div_blocks_per_die.div(dbid)
    }
    #[inline]
    pub fn block_of(&self, dbid: u32) -> u32 {
        self.div_blocks_per_die.div_rem(dbid).1
    }
    /// First PPA of a die-block.
    pub fn base(&self, dbid: u32) -> u32 {
        dbid * self.block_units
    }
    #[inline]
    pub fn dbid_of_ppa(&self, ppa: u32) -> u32 {
        self.div_block.div(ppa)
    }
    /// Units a die-block holds in `mode`.
    pub fn capacity(&self, mode: CellMode) -> u32 {
        match mode {
            CellMode::Tlc => self.block_units,
            CellMode::Slc => self.wordlines * self.planes * self.units_per_page,
        }
    }
    /// Units in one program operation (all planes) in `mode`.
    #[inline]
    pub fn program_units(&self, mode: CellMode) -> u32 {
        match mode {
            CellMode::Tlc => self.pu_tlc,
            CellMode::Slc => self.pu_slc,
        }
    }
    /// Pages per plane of one program in `mode` (`super::program_pages`: one-shot TLC or one).
    pub fn program_pages(&self, mode: CellMode) -> u32 {
        super::program_pages(mode, self.bits) as u32
    }
    /// Units per (page, all planes) row.
    pub fn row_units(&self) -> u32 {
        self.planes * self.units_per_page
    }
    /// Channel-first striping: consecutive die indices sit on different channels.
    #[inline]
    pub fn die_id(&self, die: u32) -> DieId {
        self.die_ids[die as usize]
    }
    fn compute_die_id(&self, die: u32) -> DieId {
        DieId {
            channel: (die % self.channels) as u16,
            way: ((die / self.channels) % self.ways) as u8,
            die: (die / (self.channels * self.ways)) as u8,
        }
    }
    /// (page, plane, slot) of an offset inside a die-block.
    #[inline]
    pub fn split_offset(&self, off: u32) -> (u32, u32, u32) {
        let (row, slot) = self.div_upp.div_rem(off);
        let (page, plane) = self.div_planes.div_rem(row);
        (page, plane, slot)
    }
    /// The physical page holding `ppa`.
    pub fn phys_page(&self, ppa: u32) -> PhysPage {
        self.page_and_slot(ppa).0
    }
    /// The physical page holding `ppa` and its 4 KiB slot in that page.
    pub fn page_and_slot(&self, ppa: u32) -> (PhysPage, u32) {
        let dbid = self.dbid_of_ppa(ppa);
        let (page, plane, slot) = self.split_offset(ppa - self.base(dbid));
        (self.page_at(dbid, page, plane), slot)
    }
    /// The physical page `page` on plane `plane` of die-block `dbid`.
    #[inline]
    pub fn page_at(&self, dbid: u32, page: u32, plane: u32) -> PhysPage {
        let (die, block) = self.div_blocks_per_die.div_rem(dbid);
        PhysPage {
            die: self.die_id(die),
            plane: plane as u8,
            block,
            page,
        }
    }
    /// Bytes on the channel bus for one 4 KiB unit read out (data + its share of the spare area).
    #[inline]
    pub fn unit_bus_bytes(&self) -> u32 {
        self.unit_bus
    }
    /// Plane of the unit at offset `off` inside a page row (`off < row_units()`).
    #[inline]
    pub fn plane_in_row(&self, off: u32) -> u32 {
        debug_assert!(off < self.row_units());
        self.div_upp.div(off)
    }
    /// A page read of `units` 4 KiB units at (`dbid`, `page`) on planes `lo..=hi` (one
    /// multi-plane op when `hi > lo`); only the units needed cross the bus (ONFI random data out).
    pub fn read_op(
        &self,
        dbid: u32,
        page: u32,
        (lo, hi): (u32, u32),
        units: u32,
        mode: CellMode,
        purpose: OpPurpose,
    ) -> NandOp {
        debug_assert!(lo <= hi && hi < self.planes && units >= 1);
        let addr = self.page_at(dbid, page, lo);
        NandOp {
            kind: NandOpKind::Read,
            mode,
            addr,
            planes: (hi - lo + 1) as u8,
            bus_bytes: units * self.unit_bus_bytes(),
            purpose,
            after: None,
        }
    }

    /// Bytes on the bus for a whole page (data + spare).
    pub fn page_bus_bytes(&self) -> u32 {
        self.page_bytes + self.spare_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    #[test]
    fn fast_division_is_exact() {
        let mut x = 0x9E37_79B9u32;
        for d in [
            1,
            2,
            3,
            4,
            7,
            920,
            9216,
            3 * 1024 * 1024 + 1,
            u32::MAX - 1,
            u32::MAX,
        ] {
            let f = FastDiv::new(d);
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                for v in [x, x % 65536, d - 1, d, d.wrapping_add(1), u32::MAX, 0] {
                    assert_eq!(f.div_rem(v), (v / d, v % d), "{v} / {d}");
                }
            }
        }
    }

    #[test]
    fn sm2262_layout_by_hand() {
        let cfg = DriveConfig::default_drive();
        let plan = cfg.ftl.capacity_plan(&cfg.geometry).unwrap();
        let l = Layout::new(&cfg.geometry, plan);
        // 1152 pages x 2 planes x 4 units of 4 KiB (16 KiB pages).
        assert_eq!(l.block_units, 9216);
        assert_eq!(l.capacity(CellMode::Slc), 384 * 2 * 4);
        assert_eq!(l.program_units(CellMode::Tlc), 24);
        assert_eq!(l.program_units(CellMode::Slc), 8);
        // die 9 of 8 channels x 2 ways: channel 1, way 1.
        assert_eq!(
            l.die_id(9),
            DieId {
                channel: 1,
                way: 1,
                die: 0
            }
        );
        // offset 13 = page 1, plane 1, slot 1.
        assert_eq!(l.split_offset(13), (1, 1, 1));
        let p = l.phys_page(l.base(l.dbid(3, 7)) + 13);
        assert_eq!((p.die.channel, p.plane, p.block, p.page), (3, 1, 7, 1));
        // 4096 + 2208 / 4 bytes per unit on the bus.
        assert_eq!(l.unit_bus_bytes(), 4648);
    }
}
