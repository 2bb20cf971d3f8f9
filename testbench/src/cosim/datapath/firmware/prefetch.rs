//! Read-ahead on the datapath (docs/hdl.md, "Read-ahead"): the FTL's ReadAhead ops
//! (`ssdlab_model::ftl::readahead`) read the window's units into a half of their way's
//! page-buffer region, where the data waits for the host reads served from it, as the drive's
//! prefetched data waits in its DRAM. A host read whose units the window holds (a *hit*, which
//! the FTL serves without a page read) moves each of them from its prefetch's half to the host
//! once the prefetch's read is done and the read's own mapping work has run.
//!
//! A prefetch holds its half from the moment its read starts until the FTL's window no longer
//! holds any of its units (the stream moved past them, or the host wrote them) and its hits'
//! moves are done. The drive's DRAM holds the whole window; a region has two halves, so a
//! quiet prefetch (read done, no hit waiting or moving) gives its half up to a job of its way
//! (a prefetch job too) that finds no free half (`Firmware::evict_prefetches`): the FTL forgets its units
//! (`Ftl::forget_prefetch`), and a later read of one reads NAND.

use super::*;
use std::collections::BTreeMap;

/// A hit waiting for its data: (byte offset in the prefetch's data, host address, command).
type Hit = (u32, u64, u64);

/// One prefetch the firmware holds.
#[derive(Debug)]
struct Prefetch {
    way: usize,
    /// Each unit's byte offset in the op's data (before the half's shift), by lpn.
    units: Moves,
    /// The region half its read took (once it started).
    half: Option<u8>,
    /// Its read is done: the data is in the half.
    done: bool,
    /// Hits waiting for the data or their command's mapping work.
    pending: Vec<Hit>,
    /// Hit moves on the DMA port.
    in_flight: usize,
    /// The FTL's window holds none of its units any more.
    retired: bool,
}

impl Prefetch {
    /// Read done, nothing waiting or moving: its half may be given up.
    fn quiet(&self) -> bool {
        self.done && self.pending.is_empty() && self.in_flight == 0
    }
}

/// The prefetches the firmware holds, by FTL tag.
#[derive(Debug, Default)]
pub(super) struct Prefetches {
    by_tag: BTreeMap<u64, Prefetch>,
    /// Prefetches that gave their half up to another job ([`Firmware::evict_prefetches`]).
    evicted: u64,
}

impl Prefetches {
    /// Every prefetch is quiet (a held half with nothing to do does not keep a run going).
    pub(super) fn idle(&self) -> bool {
        self.by_tag.values().all(Prefetch::quiet)
    }
}

impl Firmware {
    /// Prefetches that gave their region half up to another job of their way, their units
    /// forgotten by the FTL.
    pub fn prefetches_given_up(&self) -> u64 {
        self.prefetch.evicted
    }

    /// Holds the prefetches planned for one FTL read call, on the ways of their `jobs`.
    pub(super) fn add_prefetches(&mut self, planned: Vec<(u64, Moves)>, jobs: &[Job]) {
        for (tag, units) in planned {
            let j = jobs
                .iter()
                .find(|j| j.prefetch == Some(tag))
                .expect("a planned prefetch has its job");
            let way = j.channel as usize * self.ways_per_channel + j.way as usize;
            let p = Prefetch {
                way,
                units,
                half: None,
                done: false,
                pending: Vec::new(),
                in_flight: 0,
                retired: false,
            };
            assert!(
                self.prefetch.by_tag.insert(tag, p).is_none(),
                "prefetch {tag} planned twice"
            );
        }
        assert!(
            self.prefetch.by_tag.len() <= QUEUE_BOUND,
            "prefetches held bounded"
        );
    }

    /// Unit `lpn` of command `cmd`, for host address `host`, is served from prefetch `tag`.
    pub(super) fn hit(&mut self, tag: u64, lpn: u64, host: u64, cmd: u64) -> Result<(), String> {
        let p =
            self.prefetch.by_tag.get_mut(&tag).ok_or_else(|| {
                format!("lpn {lpn} is served from prefetch {tag}, which is not held")
            })?;
        let (offset, _, _) = p
            .units
            .iter()
            .find(|u| u.1 == lpn)
            .ok_or_else(|| format!("prefetch {tag} does not read lpn {lpn}"))?;
        p.pending.push((offset, host, cmd));
        Ok(())
    }

    /// Prefetch job `j` of way `w` started in half `h`.
    pub(super) fn prefetch_started(&mut self, j: &Job, h: u8) {
        let tag = j.prefetch.expect("a prefetch job");
        let p = self.prefetch.by_tag.get_mut(&tag).expect("held");
        p.half = Some(h);
    }

    /// Prefetch `tag`'s read is done: its hits may move.
    pub(super) fn prefetch_done(&mut self, tag: u64) {
        self.prefetch.by_tag.get_mut(&tag).expect("held").done = true;
        self.send_hits();
        self.release_if_done(tag);
    }

    /// Queues the moves of every hit whose prefetch is done and whose command's mapping work
    /// has run (a prefetch's ready hits as runs, `Moves::runs`).
    pub(super) fn send_hits(&mut self) {
        let now = self.now;
        let cmds = &self.cmds;
        let ready = |h: &Hit| cmds.get(&h.2).is_none_or(|c| c.ready <= now);
        let mut sends = Vec::new();
        for (&tag, p) in self.prefetch.by_tag.iter_mut() {
            if !p.done || !p.pending.iter().any(ready) {
                continue;
            }
            let half = p.half.expect("a done prefetch has its half");
            let shift = half as u32 * self.regions.half_bytes();
            let hits: Vec<Hit> = p.pending.iter().copied().filter(ready).collect();
            p.pending.retain(|h| !ready(h));
            for chunk in hits.chunks(MAX_MOVES) {
                let mut m = Moves::default();
                for h in chunk {
                    m.push(h.0, h.1, h.2);
                }
                sends.push((tag, p.way, half, m.shifted(shift)));
            }
        }
        for (tag, w, half, m) in sends {
            let n = self.queue_hit_moves(w, &m, half, tag);
            self.prefetch.by_tag.get_mut(&tag).expect("held").in_flight += n;
        }
    }

    /// A hit move of prefetch `tag` is done.
    pub(super) fn hit_moved(&mut self, tag: u64) -> Result<(), String> {
        let p = self
            .prefetch
            .by_tag
            .get_mut(&tag)
            .ok_or_else(|| format!("a hit move of prefetch {tag}, which is not held"))?;
        if p.in_flight == 0 {
            return Err(format!("a hit move of prefetch {tag} with none in flight"));
        }
        p.in_flight -= 1;
        self.release_if_done(tag);
        Ok(())
    }

    /// After an FTL call: prefetches none of whose units the window holds any more are
    /// retired, and give their half up once quiet.
    pub(super) fn retire_prefetches(&mut self) {
        if self.prefetch.by_tag.is_empty() {
            return;
        }
        let mut live: Vec<u64> = self.ftl.prefetch_window().map(|u| u.2).collect();
        live.dedup();
        let gone: Vec<u64> = self
            .prefetch
            .by_tag
            .iter_mut()
            .filter(|(t, p)| !p.retired && !live.contains(t))
            .map(|(&t, p)| {
                p.retired = true;
                t
            })
            .collect();
        for tag in gone {
            self.release_if_done(tag);
        }
    }

    fn release_if_done(&mut self, tag: u64) {
        let p = &self.prefetch.by_tag[&tag];
        if p.retired && p.quiet() {
            self.release(tag);
        }
    }

    /// Prefetch `tag` is no longer held: its half is free.
    fn release(&mut self, tag: u64) {
        let p = self.prefetch.by_tag.remove(&tag).expect("held");
        let h = p.half.expect("a quiet prefetch has its half");
        self.regions.release(p.way, h);
    }

    /// Way `w`'s next job `j` found no free half: quiet prefetches of the way give theirs up
    /// (the oldest first; both when `j` needs the whole region), their units forgotten by the
    /// FTL. Returns whether one did. A prefetch job takes a half this way too: a way whose
    /// other half is reserved for the open program unit would otherwise hold it, and every
    /// job behind it, until the stream's reads pass the quiet one, which may never come.
    pub(super) fn evict_prefetches(&mut self, w: usize, j: &Job) -> bool {
        let whole = self.regions.needs_whole(j);
        let quiet: Vec<u64> = self
            .prefetch
            .by_tag
            .iter()
            .filter(|(_, p)| p.way == w && p.half.is_some() && p.quiet())
            .map(|(&t, _)| t)
            .take(if whole { 2 } else { 1 })
            .collect();
        for &tag in &quiet {
            self.ftl.forget_prefetch(tag);
            self.release(tag);
            self.prefetch.evicted += 1;
        }
        !quiet.is_empty()
    }
}
