//! When the front end next has something to do, for callers that run it event by event instead
//! of cycle by cycle (the drive): the grant cycle of its next fetch, CQE/MSI-X post, coalescing
//! deadline or completion-engine take. Between those cycles nothing in the block changes unless
//! an input arrives (an MMIO write, a completion request, a data move), so a caller that calls
//! `run_until(next_due)` and, before applying an input at cycle `c`, `run_until(c - 1)`, sees the
//! TLPs, commands and CQEs of calling `run_until(c)` at every cycle.

use super::tlp::Cycle;
use super::FrontEnd;

/// One candidate event of `run_until`: (grant cycle it is ordered by, engine, its own cycle).
/// Engines: 0 CQE/MSI-X post, 1 SQ fetch, 2 coalescing deadline, 3 completion-engine take.
pub(super) type Candidate = (Cycle, u8, Cycle);

impl FrontEnd {
    /// The cycle `run_until` next does something (with no new input), or `None` when the block
    /// is idle until an input arrives.
    pub fn next_due(&self) -> Option<Cycle> {
        self.due_and_wake().0
    }

    /// The earliest cycle at which `run_until` could hand anything to the outside (a TLP on the
    /// requester port, a fetched command, a CQE, an MSI-X message), or `None` when idle: a
    /// caller that only needs the block's outputs may run it then rather than at
    /// [`FrontEnd::next_due`]. Never later than the first output, so running the block at this
    /// cycle, and before each input, gives the outputs of running it at every cycle.
    pub fn next_wake(&self) -> Option<Cycle> {
        self.due_and_wake().1
    }

    /// [`FrontEnd::next_due`] and [`FrontEnd::next_wake`] from one search.
    pub fn due_and_wake(&self) -> (Option<Cycle>, Option<Cycle>) {
        self.due_and_wake_of(&self.candidates())
    }

    /// Due and wake of the fetch engine's next step alone: after an input that can only bring
    /// that step earlier and changes no other engine's (an SQ tail doorbell), the block's due and
    /// wake are the earlier of what they were and these.
    pub fn fetch_due_and_wake(&self) -> Option<(Cycle, Cycle)> {
        let (key, _, _) = self.fetch_candidate(self.grant_cycle())?;
        Some((key, key))
    }

    /// Due and wake of the completion engine's next take alone: after an input that can only
    /// bring it earlier and changes no other engine's step (a completion request), the block's
    /// due and wake are the earlier of what they were and these.
    pub fn take_due_and_wake(&self) -> Option<(Cycle, Cycle)> {
        let (key, _, _) = self.take_candidate()?;
        Some((key, self.take_wake(key)))
    }

    /// The wake of a completion-engine take at `t`: the take is internal, and its CQE or
    /// MSI-X is granted `cpl_to_cqe - 1` cycles later at the earliest.
    #[inline]
    fn take_wake(&self, t: Cycle) -> Cycle {
        t + self.timing.cpl_to_cqe.saturating_sub(1)
    }

    /// Next due and next wake of the engines' candidates (a take wakes at `take_wake`).
    pub(super) fn due_and_wake_of(
        &self,
        cands: &[Option<Candidate>; 4],
    ) -> (Option<Cycle>, Option<Cycle>) {
        // One pass over the candidates for both minima.
        let mut found: Option<(Cycle, Cycle)> = self.head_wake().map(|d| (d, d));
        for &(key, which, _) in cands.iter().flatten() {
            let wake = match which {
                3 => self.take_wake(key),
                _ => key,
            };
            found = Some(found.map_or((key, wake), |(d, w)| (d.min(key), w.min(wake))));
        }
        (found.map(|f| f.0), found.map(|f| f.1))
    }

    /// The next event of each engine. Grant cycles at the requester mux: a fetch arbitrated at
    /// t offers its MRd at t + 1, a CQE with header at p is offered at p - 1, and neither is
    /// taken before the port frees (the cycle before `free_cycle`); completions win ties (mux
    /// priority, engine 0 sorts first). The completion engine takes its next completion at its
    /// own cycle (no port).
    pub(super) fn candidates(&self) -> [Option<Candidate>; 4] {
        let grant = self.grant_cycle();
        let fetch = self.fetch_candidate(grant);
        let post = self
            .next_post_time()
            .map(|t| (t.saturating_sub(1).max(grant), 0u8, t));
        let timer = self.coalescer.next_deadline().map(|d| (d.0, 2u8, d.0));
        [fetch, post, timer, self.take_candidate()]
    }

    /// The first cycle the requester mux can grant: the one before the port frees.
    #[inline]
    pub(super) fn grant_cycle(&self) -> Cycle {
        self.port.free_cycle().saturating_sub(1)
    }

    /// The fetch engine's candidate when the mux grants from `grant` on.
    #[inline]
    fn fetch_candidate(&self, grant: Cycle) -> Option<Candidate> {
        self.next_fetch_time().map(|t| ((t + 1).max(grant), 1u8, t))
    }

    /// The completion engine's next take as a candidate.
    #[inline]
    fn take_candidate(&self) -> Option<Candidate> {
        self.next_take_time().map(|t| (t, 3u8, t))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{enabled, FlatHost};
    use super::super::{FetchedCommand, FrontEnd};
    use super::Cycle;
    use crate::encoding::nvme::{opc, Status};
    use crate::encoding::nvme_regs::{cq_doorbell, sq_doorbell, MSIX_TABLE};
    use crate::nvme::frontend::entry::Sqe;

    /// Host inputs at fixed cycles: (cycle, what). Completions are requested by the next stage
    /// `FW_CYCLES` after a command is handed on.
    #[derive(Clone, Copy)]
    enum Input {
        SqTail { q: u16, tail: u32 },
        CqHead { q: u16, head: u32 },
    }
    const FW_CYCLES: Cycle = 37;

    fn setup() -> (FrontEnd, FlatHost) {
        // Coalesce 3 completions or 2 µs (500 cycles), so the timer path runs too.
        let (mut fe, mut h) = enabled(|n| {
            n.irq_coalesce_count = 3;
            n.irq_coalesce_time_us = 2.0;
        });
        for q in 1..=2u16 {
            fe.create_io_cq(q, 0x40_0000 + 0x1_0000 * q as u64, 4, q, true)
                .unwrap();
            fe.create_io_sq(q, 0x80_0000 + 0x1_0000 * q as u64, 8, q)
                .unwrap();
            fe.mmio_write(0, MSIX_TABLE + 16 * q as u32, 0xFEE0_0000, &mut h);
            fe.mmio_write(0, MSIX_TABLE + 16 * q as u32 + 12, 0, &mut h);
            for slot in 0..7u32 {
                let s = Sqe::new(opc::NVM_FLUSH, q * 100 + slot as u16, 1, 0, 0);
                h.put(
                    0x80_0000 + 0x1_0000 * q as u64 + 64 * slot as u64,
                    &s.encode(),
                );
            }
        }
        (fe, h)
    }

    fn inputs() -> Vec<(Cycle, Input)> {
        use Input::*;
        vec![
            (10, SqTail { q: 1, tail: 3 }),
            (11, SqTail { q: 2, tail: 2 }),
            (300, SqTail { q: 1, tail: 7 }),
            (2_000, CqHead { q: 1, head: 3 }),
            (2_100, CqHead { q: 2, head: 2 }),
            (4_000, CqHead { q: 1, head: 2 }),
            (4_000, SqTail { q: 2, tail: 6 }),
            (6_000, CqHead { q: 1, head: 3 }),
            (6_500, CqHead { q: 2, head: 1 }),
            (9_000, CqHead { q: 1, head: 0 }),
        ]
    }

    fn apply(fe: &mut FrontEnd, h: &mut FlatHost, c: Cycle, i: Input) {
        match i {
            Input::SqTail { q, tail } => fe.mmio_write(c, sq_doorbell(q), tail, h),
            Input::CqHead { q, head } => fe.mmio_write(c, cq_doorbell(q), head, h),
        }
    }

    /// Runs the inputs to cycle `end`, calling `run_until` at every cycle (`stepped`) or only at
    /// `next_due` (or, `by_wake`, `next_wake`) and at each input or completion request (checking
    /// that running to the cycle before that sends nothing); returns the front end.
    fn run(stepped: bool, by_wake: bool, log: bool, end: Cycle) -> (FrontEnd, Vec<Cycle>) {
        let (mut fe, mut h) = setup();
        fe.set_tlp_log(log);
        // Cycle of every command handed on, and of every cycle the block was run at.
        let mut seen_cycles = Vec::new();
        let mut ins = inputs();
        ins.reverse();
        // Completion requests due: (cycle, sqid, cid), in request order.
        let mut cpls: Vec<(Cycle, u16, u16)> = Vec::new();
        let mut out: Vec<FetchedCommand> = Vec::new();
        let mut c: Cycle = 0;
        while c <= end {
            // Inputs of cycle c go in before the block runs cycle c.
            while ins.last().is_some_and(|i| i.0 == c) {
                let (_, i) = ins.pop().expect("checked");
                apply(&mut fe, &mut h, c, i);
            }
            cpls.retain(|&(at, q, cid)| {
                if at == c {
                    fe.complete(c, q, cid, Status::SUCCESS, 0);
                }
                at != c
            });
            fe.run_until(c, &mut h, &mut out);
            for f in out.drain(..) {
                cpls.push((f.cycle + FW_CYCLES, f.sqid, f.sqe.cid));
                seen_cycles.push(f.cycle);
            }
            if stepped {
                c += 1;
                continue;
            }
            // Next: the block's own next event, or the next input or completion request.
            let input = ins.last().map(|i| i.0);
            let cpl = cpls.iter().map(|x| x.0).min();
            let own = if by_wake {
                fe.next_wake()
            } else {
                fe.next_due()
            };
            let next = [own, input, cpl, Some(end)]
                .into_iter()
                .flatten()
                .min()
                .expect("end bounds it")
                .max(c + 1);
            // Nothing happens before `next_due`: running to the cycle before it changes nothing.
            let seen = (fe.tlps().len(), fe.posted().len());
            fe.run_until(next - 1, &mut h, &mut out);
            assert!(out.is_empty(), "a command handed on before next_due {next}");
            assert_eq!(
                seen,
                (fe.tlps().len(), fe.posted().len()),
                "next_due {next} is late"
            );
            c = next;
            seen_cycles.push(c);
        }
        assert!(cpls.is_empty() && ins.is_empty(), "scenario not drained");
        (fe, seen_cycles)
    }

    #[test]
    fn event_driven_run_matches_cycle_by_cycle_stepping() {
        let end = 12_000;
        let (a, _) = run(true, false, true, end);
        let (b, wakes) = run(false, false, true, end);
        // 13 commands (7 in SQ 1, 6 in SQ 2), each completed: 13 I/O CQEs. The 4-entry CQs
        // hold 3 entries, so some CQEs wait for the host's head doorbells.
        let io = |fe: &FrontEnd| fe.posted().iter().filter(|p| p.cqid != 0).count();
        assert_eq!(io(&a), 13, "every command completed in the stepped run");
        assert_eq!(a.tlps(), b.tlps(), "same TLPs at the same cycles");
        assert_eq!(a.posted(), b.posted(), "same CQEs at the same cycles");
        assert_eq!(b.next_due(), None, "idle after the scenario");
        // With the logs off nothing is kept, and the block wakes and hands on commands at the
        // same cycles.
        let (c, quiet) = run(false, false, false, end);
        assert!(
            c.tlps().is_empty() && c.posted().is_empty(),
            "logs kept while off"
        );
        assert_eq!(wakes, quiet, "timing changed with the log off");
        // Run only at each next output (`next_wake`): the completion-engine takes happen inside
        // later runs, and every TLP and CQE is the same at the same cycle, with fewer runs.
        let (d, by_wake) = run(false, true, true, end);
        assert_eq!(a.tlps(), d.tlps(), "same TLPs at the same cycles");
        assert_eq!(a.posted(), d.posted(), "same CQEs at the same cycles");
        assert!(
            by_wake.len() < wakes.len(),
            "{} runs vs {}",
            by_wake.len(),
            wakes.len()
        );
    }

    /// Every doorbell handed in at cycle 0 with its own arrival cycle (as the drive hands one in
    /// once the link has carried it), the block run only at its wakes and at completion
    /// requests: the same TLPs and CQEs at the same cycles as running it every cycle, the CQEs
    /// that wait on a full CQ included (`cq_head.rs`).
    #[test]
    fn doorbells_handed_in_ahead_of_their_cycles_change_nothing() {
        let end = 12_000;
        let (a, _) = run(true, false, true, end);
        let (mut fe, mut h) = setup();
        for (c, i) in inputs() {
            apply(&mut fe, &mut h, c, i);
        }
        let mut cpls: Vec<(Cycle, u16, u16)> = Vec::new();
        let mut out: Vec<FetchedCommand> = Vec::new();
        let mut c: Cycle = 0;
        while c <= end {
            cpls.retain(|&(at, q, cid)| {
                if at == c {
                    fe.complete(c, q, cid, Status::SUCCESS, 0);
                }
                at != c
            });
            fe.run_until(c, &mut h, &mut out);
            cpls.extend(
                out.drain(..)
                    .map(|f| (f.cycle + FW_CYCLES, f.sqid, f.sqe.cid)),
            );
            let cpl = cpls.iter().map(|x| x.0).min();
            let next = [fe.next_wake(), cpl, Some(end + 1)]
                .into_iter()
                .flatten()
                .min()
                .expect("end bounds it")
                .max(c + 1);
            fe.run_until(next - 1, &mut h, &mut out);
            assert!(out.is_empty(), "a command handed on before the wake {next}");
            c = next;
        }
        assert_eq!(a.tlps(), fe.tlps(), "same TLPs at the same cycles");
        assert_eq!(a.posted(), fe.posted(), "same CQEs at the same cycles");
        assert_eq!(fe.next_due(), None, "idle after the scenario");
    }
}
