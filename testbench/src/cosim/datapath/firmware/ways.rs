//! The firmware's per-way scheduling (the page-buffer rule of [`super`]): which of a way's
//! queued jobs starts when (alone, beside a program or erase with suspend, behind the way's
//! running host read, or a host program filling behind the way's running host program), what
//! it asks of the datapath, and what its completion and its fill moves lead to.

use super::*;

/// How a job starts on its way ([`Firmware::how_to_start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    Alone,
    Beside,
    Behind,
    FillBehind,
}

impl Firmware {
    /// Starts every way's next job that may run now.
    pub(super) fn start_ways(&mut self) {
        for w in 0..self.ways.len() {
            let Some(j) = self.ways[w].0.front() else {
                continue;
            };
            let Some(how) = self.how_to_start(w, j) else {
                continue;
            };
            let open = self.is_open_program(w, j);
            let mut u = if open { None } else { self.regions.claim(w, j) };
            if !open && u.is_none() {
                let j = *j;
                if self.evict_prefetches(w, &j) {
                    u = self.regions.claim(w, &j);
                }
            }
            if !open && u.is_none() {
                continue;
            }
            let j = self.ways[w].0.pop_front().expect("checked");
            let j = match u {
                Some(u) => self.regions.place(w, j, u),
                None => {
                    self.open.started(w);
                    self.regions.place_reserved(w, j)
                }
            };
            if let Some(region::Use::Half(h)) = u.filter(|_| j.prefetch.is_some()) {
                self.prefetch_started(&j, h);
            }
            match how {
                Start::Alone => self.start(w, j),
                Start::Beside => {
                    if let Some(Busy::Nand(p)) = self.ways[w].1.take() {
                        self.bg[w] = Some(p);
                    }
                    self.start(w, j);
                }
                Start::Behind => {
                    self.issue(&j);
                    self.behind[w] = Some(j);
                }
                Start::FillBehind if j.moves.is_empty() => {
                    self.issue(&j);
                    self.behind[w] = Some(j);
                }
                Start::FillBehind => {
                    let moves = self.dma(w, j, None);
                    self.filling[w] = Some((j, moves));
                }
            }
        }
    }

    /// Whether read `j` may run beside program or erase `p` of its way: a host read of another
    /// block (the row's block address over the plane bits, `Planner::row`).
    fn beside(&self, p: &Job, j: &Job) -> bool {
        let pl = &self.planner;
        let block = |op: u128| ((op >> ROW_LSB) & 0xFF_FFFF) as u32 / pl.plane_stride / pl.planes;
        self.reads_beside
            && matches!(p.kind, NandOpKind::Program | NandOpKind::Erase)
            && j.kind == NandOpKind::Read
            && !j.moves.is_empty()
            && block(p.op) != block(j.op)
    }

    /// How way `w`'s next job `j` may start now, if it may: alone (the way is free), beside
    /// the way's program or erase (suspend), behind the way's running host read, or filling
    /// behind the way's running host program.
    fn how_to_start(&self, w: usize, j: &Job) -> Option<Start> {
        if j.ready > self.now || self.cmds.get(&j.cmd).is_some_and(|c| c.map_left > 0) {
            return None;
        }
        // The open unit's program waits for the moves of its units already sent.
        let open = self.is_open_program(w, j);
        if open && self.open.moving(w) {
            return None;
        }
        let host =
            |x: &Job, k: NandOpKind| x.kind == k && (!x.moves.is_empty() || (x == j && open));
        let second = self.behind[w].is_some() || self.filling[w].is_some();
        match (&self.ways[w].1, &self.bg[w]) {
            (None, None) => Some(Start::Alone),
            (None, Some(p)) => self.beside(p, j).then_some(Start::Alone),
            (Some(Busy::Nand(p)), None) if self.beside(p, j) && !second => Some(Start::Beside),
            // One op behind another at most, and only behind one in its own half.
            (Some(Busy::Nand(p)), None) if second || !self.regions.in_half(w, p) => None,
            (Some(Busy::Nand(p)), None) if host(p, NandOpKind::Read) => {
                host(j, NandOpKind::Read).then_some(Start::Behind)
            }
            (Some(Busy::Nand(p)), None) if host(p, NandOpKind::Program) => {
                host(j, NandOpKind::Program).then_some(Start::FillBehind)
            }
            _ => None,
        }
    }

    pub(super) fn start(&mut self, w: usize, j: Job) {
        let busy = match j.kind {
            NandOpKind::Program if !j.moves.is_empty() => Busy::Fill(j, self.dma(w, j, None)),
            _ => {
                self.issue(&j);
                Busy::Nand(j)
            }
        };
        self.ways[w].1 = Some(busy);
    }

    /// Offers job `j`'s NAND op to the datapath.
    pub(super) fn issue(&mut self, j: &Job) {
        self.nand_q.push_back(NandReq {
            channel: j.channel,
            way: j.way,
            op: j.op,
            array_cycles: j.array_cycles,
        });
    }

    /// A NAND op of way `w` completed: the read of a suspension when `overtook`, else the
    /// way's oldest op (the program or erase beside a read, if there is one).
    pub(super) fn nand_done(&mut self, w: usize, overtook: bool) {
        match (self.bg[w].is_some(), overtook) {
            (true, false) => {
                if let Some(p) = self.bg[w].take() {
                    self.regions.programmed(w, &p);
                }
                return;
            }
            (false, true) => {
                return self.fail(format!("a read on way {w} overtook no program or erase"))
            }
            _ => {}
        }
        match self.ways[w].1.take() {
            Some(Busy::Nand(j)) => {
                if let Some(tag) = j.prefetch {
                    self.prefetch_done(tag);
                }
                if j.kind == NandOpKind::Read && !j.moves.is_empty() {
                    self.dma(w, j, Some((j.op >> HALF_LSB & 1) as u8));
                }
                if j.kind == NandOpKind::Program {
                    self.regions.programmed(w, &j);
                }
            }
            other => self.fail(format!("NAND completion on way {w} in state {other:?}")),
        }
        if let Some(j) = self.behind[w].take() {
            self.ways[w].1 = Some(Busy::Nand(j));
        } else if let Some((j, left)) = self.filling[w].take() {
            self.ways[w].1 = Some(Busy::Fill(j, left));
        }
    }

    /// A move of host data into way `w`'s region is done; the program follows the last
    /// (queued behind the way's running program when it fills behind one).
    pub(super) fn fill_done(&mut self, w: usize) {
        if let Some((j, left)) = self.filling[w].take() {
            if left > 1 {
                self.filling[w] = Some((j, left - 1));
            } else {
                self.issue(&j);
                self.behind[w] = Some(j);
            }
            return;
        }
        match self.ways[w].1.take() {
            Some(Busy::Fill(j, left)) if left > 1 => {
                self.ways[w].1 = Some(Busy::Fill(j, left - 1));
            }
            Some(Busy::Fill(j, _)) => {
                self.issue(&j);
                self.ways[w].1 = Some(Busy::Nand(j));
            }
            other => self.fail(format!("DMA done on way {w} in state {other:?}")),
        }
    }
}
