//! Timing of the mapping cache's request pipeline and miss engine, cycle for cycle as the HDL
//! block `ssdlab_hdl::ftl::map_cache` builds it (its module doc and `map_cache/kernel.rs`), in
//! cycles of the block's clock; the decisions themselves come from [`super::MapCache`], made in
//! request order as the HDL makes them at tag check. The datapath co-simulation runs it beside
//! the cache against the RTL.
//!
//! A request handshaken in cycle `a` sits in tag check (S1) from `a + 1` and is decided (`go`,
//! `map_dec_*`) in the first cycle `t >= a + 1` in which none of the HDL's stall conditions
//! holds: its decided way (hit way or victim) has a fill pending in its set (an MSHR valid from
//! the cycle after its decision up to its response cycle), the miss engine owns the data RAM
//! (write-back read and data beats, fill data beats, the response cycle), or — for a miss — all
//! `MSHRS` MSHRs are valid. The request port is ready again in `t` (`req_ready = !s1 | go`).
//! The miss engine takes MSHRs in order, each in its Idle cycle `e0` = max(decision + 1,
//! previous response + 1); page resident (the bench's table fits the DRAM), DRAM command
//! accepted at once, first read beat `L` cycles after the command, one beat per cycle:
//! - clean victim: SlotRead, SlotCheck, FillCmd at `e0 + 3`, beats `e0 + 3 + L ..`, response
//!   `R = e0 + 3 + L + E` (= handshake + 6 + L + (E-1) with the engine idle, as documented);
//! - dirty victim: WbCmd at `e0 + 3`, WbRead `e0 + 4`, E write beats `e0 + 5 ..`, SlotRead,
//!   SlotCheck, FillCmd at `e0 + 7 + E`, beats from `e0 + 7 + E + L`, `R = e0 + 7 + L + 2E`
//!   (= handshake + 11 + L + 2(E-1)).

use std::collections::VecDeque;

/// Clock cycles of the block.
pub type Cycle = u64;

/// Miss status holding registers of the miss engine.
pub const MSHRS: usize = 4;

/// A miss status holding register: set and way being filled, valid from `from` to `resp`.
#[derive(Clone, Copy, Debug)]
struct Mshr {
    set: u32,
    way: u32,
    from: Cycle,
    resp: Cycle,
}

/// The pipeline's stall and miss-engine state.
#[derive(Debug)]
pub struct PipelineTiming {
    /// DRAM first-beat latency in cycles (one beat per cycle after it).
    latency: Cycle,
    mshrs: VecDeque<Mshr>,
    /// Cycle windows (first, last) in which the engine owns the data RAM.
    owns: VecDeque<(Cycle, Cycle)>,
    /// Response cycle of the last miss taken by the engine.
    engine_resp: Cycle,
    /// First cycle a new request may be handshaken.
    pub ready_at: Cycle,
}

impl PipelineTiming {
    /// A pipeline over a DRAM whose first read beat comes `latency` cycles after the command
    /// and then one beat every `interval` cycles (only 1 is modelled).
    pub fn new(latency: Cycle, interval: Cycle) -> Self {
        assert_eq!(
            interval, 1,
            "the engine's data-RAM windows assume one DRAM beat per cycle"
        );
        PipelineTiming {
            latency,
            mshrs: VecDeque::new(),
            owns: VecDeque::new(),
            engine_resp: 0,
            ready_at: 0,
        }
    }

    /// First cycle >= `t` at which a request deciding `(set, way)` may go.
    fn first_go(&self, mut t: Cycle, set: u32, way: u32, hit: bool) -> Cycle {
        for _ in 0..=2 * (self.mshrs.len() + self.owns.len()) + 1 {
            let pend = self
                .mshrs
                .iter()
                .filter(|m| m.set == set && m.way == way && (m.from..=m.resp).contains(&t))
                .map(|m| m.resp + 1)
                .max();
            let own = self
                .owns
                .iter()
                .filter(|w| (w.0..=w.1).contains(&t))
                .map(|w| w.1 + 1)
                .max();
            let valid: Vec<Cycle> = self
                .mshrs
                .iter()
                .filter(|m| (m.from..=m.resp).contains(&t))
                .map(|m| m.resp)
                .collect();
            let full = (!hit && valid.len() >= MSHRS)
                .then(|| valid.iter().min().expect("MSHRs valid") + 1);
            match [pend, own, full].into_iter().flatten().max() {
                Some(next) => t = next,
                None => return t,
            }
        }
        panic!("map-cache stall at cycle {t} did not resolve");
    }

    /// The decision cycle of a request handshaken in `a` and decided `(hit, set, way)`, with a
    /// dirty victim written back when `dirty`; `e` = line entries.
    pub fn decide(
        &mut self,
        a: Cycle,
        hit: bool,
        set: u32,
        way: u32,
        dirty: bool,
        e: Cycle,
    ) -> Cycle {
        self.mshrs.retain(|m| m.resp > a);
        self.owns.retain(|w| w.1 > a);
        let t = self.first_go(a + 1, set, way, hit);
        self.ready_at = t;
        // Later requests go at t or after: what ended before t cannot stall them.
        self.mshrs.retain(|m| m.resp >= t);
        self.owns.retain(|w| w.1 >= t);
        if !hit {
            let e0 = (t + 1).max(self.engine_resp + 1);
            let l = self.latency;
            let resp = if dirty {
                self.owns.push_back((e0 + 4, e0 + 4 + e));
                e0 + 7 + l + 2 * e
            } else {
                e0 + 3 + l + e
            };
            self.owns.push_back((resp - e, resp));
            self.mshrs.push_back(Mshr {
                set,
                way,
                from: t + 1,
                resp,
            });
            self.engine_resp = resp;
            assert!(self.mshrs.len() <= MSHRS, "at most {MSHRS} MSHRs valid");
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DRAM L = 12, E = 8 (the co-simulation's instance). Hand timeline of 4 misses to 4
    /// different sets, handshaken at 0, 6, 12, 17 (as the firmware offers them at QD 4):
    /// miss 0 decided at 1, engine Idle at 2, FillCmd 5, beats 17..24, response 25 (= 6 + 12 + 7).
    /// Miss 1 decided at 7; engine Idle again at 26, beats 29 + 12 = 41..48, response 49.
    /// Miss 2 decided at 13, response 49 + 24 = 73. Miss 3 handshaken at 17 sits in S1 while the
    /// engine owns the data RAM (17..25): decided at 26.
    #[test]
    fn back_to_back_misses_stall_in_tag_check_while_the_engine_fills() {
        let mut m = PipelineTiming::new(12, 1);
        assert_eq!(m.decide(0, false, 0, 0, false, 8), 1);
        assert_eq!(m.engine_resp, 25);
        assert_eq!(m.decide(6, false, 1, 0, false, 8), 7);
        assert_eq!(m.engine_resp, 49);
        assert_eq!(m.decide(12, false, 2, 0, false, 8), 13);
        assert_eq!(m.engine_resp, 73);
        assert_eq!(m.decide(17, false, 3, 0, false, 8), 26);
        assert_eq!(m.ready_at, 26);
    }

    /// A hit on the way whose fill is pending waits until the cycle after the fill's response;
    /// a hit on another way of the same set goes at once. A dirty victim: response at
    /// handshake + 11 + 12 + 2 x 7 = 37.
    #[test]
    fn pending_way_and_dirty_victim() {
        let mut m = PipelineTiming::new(12, 1);
        assert_eq!(m.decide(0, false, 5, 2, true, 8), 1);
        assert_eq!(m.engine_resp, 37);
        assert_eq!(m.decide(3, true, 5, 1, false, 8), 4);
        // Engine owns 6..14 (write-back) and 29..37 (fill beats, response).
        assert_eq!(m.decide(5, true, 5, 2, false, 8), 38);
        assert_eq!(m.decide(40, true, 7, 0, false, 8), 41);
    }

    /// Four misses fill the MSHRs; a fifth waits for the oldest's release (response + 1) and
    /// then for the engine's data-RAM window if it falls in one.
    #[test]
    fn fifth_miss_waits_for_an_mshr() {
        let mut m = PipelineTiming::new(12, 1);
        for (i, a) in [0u64, 2, 4, 6].into_iter().enumerate() {
            assert_eq!(m.decide(a, false, i as u32, 0, false, 8), a + 1);
        }
        // Responses 25, 49, 73, 97; owned windows 17..25, 41..49, ... The fifth (at 8) needs
        // the first MSHR free: 26.
        assert_eq!(m.decide(8, false, 9, 0, false, 8), 26);
    }
}
