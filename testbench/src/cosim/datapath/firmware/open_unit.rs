//! The open program unit (docs/hdl.md, "Page buffer"): the host program unit the FTL is
//! filling. Its units move into a half of its way's region reserved for it as their writes
//! come, so a write completes once its data is in the page buffer without waiting for seven
//! more writes to fill its unit, and the unit is programmed when full rather than padded after
//! [`STAGE_FLUSH_CYCLES`]. The drive parks the same data in its DRAM write buffer; a
//! controller without DRAM keeps the open unit in its SRAM page buffer.
//!
//! Rules: one unit is filling at a time, on a way that runs no whole-region op, has none
//! queued and has no other unit's half reserved; a half is reserved only when free (queued
//! jobs take halves first). When the FTL emits the unit's program, the units that filled it
//! move early too (each write then completes once its own data is in, none waits for the
//! program to start), so the program moves nothing of its own; it starts in the reserved half
//! once the early moves are done. Meanwhile the next unit may open on another way. A
//! whole-region job queued to the way, or a read of a unit in the region, first pads and plans
//! the open unit (`Ftl::flush`).

use super::*;
use ssdlab_model::ftl::{NandOp, OpPurpose};

/// The unit filling and the units whose program is planned but not started.
#[derive(Debug, Default)]
pub(super) struct OpenUnits {
    filling: Option<OpenUnit>,
    /// At most one per way (a way has one reserved half).
    planned: Vec<OpenUnit>,
}

impl OpenUnits {
    /// No early move in flight and no planned unit waiting to start.
    pub(super) fn idle(&self) -> bool {
        self.filling.as_ref().is_none_or(|o| o.in_flight == 0) && self.planned.is_empty()
    }

    fn on_way(&mut self, w: usize) -> Option<&mut OpenUnit> {
        self.filling
            .iter_mut()
            .chain(self.planned.iter_mut())
            .find(|o| o.way == w)
    }

    /// An early move into way `w`'s reserved half is done; false if none was in flight.
    pub(super) fn moved(&mut self, w: usize) -> bool {
        match self.on_way(w) {
            Some(o) if o.in_flight > 0 => {
                o.in_flight -= 1;
                true
            }
            _ => false,
        }
    }

    /// Early moves into way `w`'s reserved half are in flight.
    pub(super) fn moving(&self, w: usize) -> bool {
        let mut all = self.filling.iter().chain(&self.planned);
        all.any(|o| o.way == w && o.in_flight > 0)
    }

    /// The program of way `w`'s planned unit starts in its reserved half.
    pub(super) fn started(&mut self, w: usize) {
        let i = self
            .planned
            .iter()
            .position(|o| o.way == w)
            .expect("a planned unit on the way");
        let o = self.planned.swap_remove(i);
        debug_assert!(o.in_flight == 0, "{o:?}");
    }
}

/// An open unit: where its data goes and what is there.
#[derive(Debug)]
struct OpenUnit {
    way: usize,
    half: u8,
    /// The unit's page on plane 0 (its die, block and page).
    key: PhysPage,
    /// Units in the region or moving there, by the page that holds them.
    moved: HashMap<PhysPage, Vec<HostUnit>>,
    /// Early moves in flight.
    in_flight: usize,
    /// The op word of the unit's program once planned (the job waits in the way queue).
    planned: Option<u128>,
}

fn key(p: &PhysPage) -> PhysPage {
    PhysPage { plane: 0, ..*p }
}

/// Where host unit `u` of page `p` goes from its half's start: a program's pages follow one
/// another, slot k of each 4096 k bytes in (checked against the planner's, `plan_staged`).
fn early_offset(pl: &Planner, p: &PhysPage, u: &HostUnit) -> u32 {
    p.plane as u32 * pl.units_per_page * pl.unit_bus + u.slot * UNIT
}

impl Firmware {
    /// Opens the staged units' program unit if none is open and it may be, then moves the
    /// open unit's staged units into its half (a run of a command's units as one move).
    pub(super) fn move_open(&mut self) {
        if self.staged.is_empty() || (self.open.filling.is_none() && !self.open_staged()) {
            return;
        }
        let o = self.open.filling.as_mut().expect("open");
        let pages: Vec<PhysPage> = self
            .staged
            .keys()
            .filter(|p| key(p) == o.key)
            .copied()
            .collect();
        let mut m = Moves::default();
        for p in pages {
            let units = self.staged.remove(&p).expect("listed");
            for u in &units {
                m.push(early_offset(&self.planner, &p, u), u.host, u.cmd);
            }
            o.moved.entry(p).or_default().extend(units);
        }
        let (w, half_off) = (o.way, o.half as u32 * self.regions.half_bytes());
        let queued = self.queue_moves(w, &m.shifted(half_off), None, true);
        self.open.filling.as_mut().expect("open").in_flight += queued;
        if self.staged.is_empty() {
            self.staged_since = None;
        }
    }

    /// Opens the unit of the staged units if they are of one unit of one page per plane (not
    /// a one-shot program's) that fits half a region, on a way free of whole-region ops, with
    /// a free half.
    fn open_staged(&mut self) -> bool {
        let mut keys = self.staged.keys().map(key);
        let k = keys.next().expect("staged units");
        let pl = &self.planner;
        let bytes = pl.planes * pl.units_per_page * pl.unit_bus;
        let one_page = self.staged.values().flatten().all(|u| u.unit_pages == 1);
        if keys.any(|o| o != k)
            || !one_page
            || k.die.die != 0
            || bytes > self.regions.half_bytes()
            || !(pl.units_per_page * pl.unit_bus).is_multiple_of(16)
        {
            return false;
        }
        let w = k.die.channel as usize * self.ways_per_channel + k.die.way as usize;
        if self.whole_region_on(w) {
            return false;
        }
        let Some(half) = self.regions.reserve(w) else {
            return false;
        };
        self.open.filling = Some(OpenUnit {
            way: w,
            half,
            key: k,
            moved: HashMap::new(),
            in_flight: 0,
            planned: None,
        });
        true
    }

    /// Way `w` runs or has queued an op that uses the whole region.
    fn whole_region_on(&self, w: usize) -> bool {
        let r = &self.regions;
        let running = |j: &Job| j.kind != NandOpKind::Erase && !r.in_half(w, j);
        let busy = match &self.ways[w].1 {
            Some(Busy::Nand(j)) | Some(Busy::Fill(j, _)) => Some(j),
            None => None,
        };
        busy.into_iter().chain(&self.bg[w]).any(running)
            || self.ways[w].0.iter().any(|j| r.needs_whole(j))
    }

    /// Plans `ops` with the staged units (`Planner::jobs`). If the open unit's program is among
    /// them, the unit's staged units move early first, and the program is planned with every
    /// unit already in the region (its places checked against the early moves), moving none.
    pub(super) fn plan_staged(
        &mut self,
        cmd: u64,
        ops: &[NandOp],
        jobs: &mut Vec<Job>,
    ) -> Result<(), String> {
        let first = jobs.len();
        let at = self.open.filling.as_ref().and_then(|o| {
            ops.iter().position(|op| {
                op.kind == NandOpKind::Program
                    && op.purpose == OpPurpose::HostWrite
                    && key(&op.addr) == o.key
            })
        });
        let Some(i) = at else {
            return self.planner.jobs(cmd, ops, &mut self.staged, jobs);
        };
        // The unit's last units move early too, so their writes complete as the others did.
        self.move_open();
        let mut o = self.open.filling.take().expect("checked");
        let mut moved = Vec::new();
        for (p, v) in o.moved.drain() {
            moved.extend(
                v.iter()
                    .map(|u| (early_offset(&self.planner, &p, u), u.host, u.cmd)),
            );
            self.staged.entry(p).or_default().extend(v);
        }
        self.planner.jobs(cmd, ops, &mut self.staged, jobs)?;
        let j = &mut jobs[first + i];
        let early = |x: &(u32, u64, u64)| moved.contains(x);
        if j.moves.iter().filter(early).count() != moved.len() {
            return Err(format!(
                "the open unit's {} units moved to other region bytes than its program's ({:?})",
                moved.len(),
                j.moves
            ));
        }
        j.moves = j.moves.without(early);
        o.planned = Some(j.op);
        self.open.planned.push(o);
        Ok(())
    }

    /// Job `j` of way `w` is the open unit's program.
    pub(super) fn is_open_program(&self, w: usize, j: &Job) -> bool {
        let planned = &self.open.planned;
        j.kind == NandOpKind::Program
            && planned
                .iter()
                .any(|o| o.way == w && o.planned == Some(j.op))
    }

    /// A unit of `lpn..lpn + count` is in the open unit's half (not yet programmed).
    pub(super) fn reads_open(&self, lpn: u64, count: u32) -> bool {
        let filling = self.open.filling.as_ref();
        filling.is_some_and(|o| self.holds_any(&o.moved, lpn, count))
    }

    /// Jobs `jobs` are about to be queued: if one needs the whole region of the open unit's
    /// way, the open unit is padded and planned first, so its program goes ahead of it.
    pub(super) fn close_open_before(&mut self, jobs: &[Job]) {
        let Some(w) = self.open.filling.as_ref().map(|o| o.way) else {
            return;
        };
        let on_w = |j: &&Job| j.channel as usize * self.ways_per_channel + j.way as usize == w;
        if jobs
            .iter()
            .filter(on_w)
            .any(|j| self.regions.needs_whole(j))
        {
            self.flush_staged();
        }
    }
}
