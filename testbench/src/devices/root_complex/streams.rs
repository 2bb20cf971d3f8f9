//! Port-agnostic driving of a block's RQ/RC streams by the root-complex model, for blocks other
//! than `NvmeFrontEnd` (the PRP data path's bench): the same arithmetic as `drive.rs`, with the
//! stream signals passed as values.

use super::RootComplex;
use ssdlab_model::nvme::frontend::tlp::{Cycle, CLOCK_PS};

impl RootComplex {
    /// The RC beat (data, last, tuser) the root complex drives in `cycle`, if any; the RC
    /// stream has no backpressure, so the beat is consumed.
    pub fn rc_beat_at(&mut self, cycle: Cycle) -> Option<(u128, bool, u128)> {
        let b = *self.rc_beats.front()?;
        assert!(
            b.cycle >= cycle,
            "RC beat for cycle {} missed (now {cycle})",
            b.cycle
        );
        if b.cycle != cycle {
            return None;
        }
        self.rc_beats.pop_front();
        Some((b.data, b.last, b.user))
    }

    /// RQ `tready` in `cycle`: the link takes a TLP header once free; payload beats flow.
    pub fn rq_tready_at(&self, cycle: Cycle) -> bool {
        let free_ps = self.link.free_at(ssdlab_model::pcie::link::Dir::Up).as_ps();
        !self.rq_cur.is_empty() || free_ps <= cycle * CLOCK_PS
    }

    /// Samples the RQ stream in `cycle` (after the settle, before the edge); `side` is the
    /// beat's `(tkeep, tuser)` when the block drives them (checked against PG156).
    pub fn rq_observe(
        &mut self,
        cycle: Cycle,
        tvalid: bool,
        tready: bool,
        tdata: u128,
        tlast: bool,
        side: Option<(u8, u64)>,
    ) {
        if !tvalid {
            return;
        }
        if self.rq_cur.is_empty() && self.rq_first.is_none() {
            self.rq_first = Some(cycle);
        }
        if tready {
            self.rq_beat(cycle, tdata, tlast, side);
        }
    }

    /// The first cycle at or after `cycle` at which [`RootComplex::rc_beat_at`] or
    /// [`RootComplex::rq_tready_at`] can change while the device drives nothing on RQ: the
    /// next RC beat, or the upstream link freeing for the next TLP header (`Cycle::MAX`: none).
    /// Lets a bench run the device ahead without stepping the root complex.
    pub fn next_change(&self, cycle: Cycle) -> Cycle {
        let beat = self.rc_beats.front().map_or(Cycle::MAX, |b| b.cycle);
        let free_ps = self.link.free_at(ssdlab_model::pcie::link::Dir::Up).as_ps();
        let ready = if self.rq_cur.is_empty() && free_ps > cycle * CLOCK_PS {
            free_ps.div_ceil(CLOCK_PS)
        } else {
            Cycle::MAX
        };
        beat.min(ready)
    }

    /// Completions still to be delivered on the RC stream.
    pub fn rc_pending(&self) -> usize {
        self.rc_beats.len()
    }
}
