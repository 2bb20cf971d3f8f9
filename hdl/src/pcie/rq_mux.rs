//! Requester-request multiplexer: serialises TLPs of two sources onto the hard block's RQ
//! stream (128-bit at 250 MHz). A request is one descriptor beat plus at most one payload beat
//! (the front end's MWr are 4 or 16 bytes; MRd have none). Source 0 (completion path) wins over
//! source 1 (fetch path). A source request offered in cycle `t` while the stream is free has its
//! descriptor on `rq_tdata` in cycle `t + 1`; the stream is free again in the cycle its last
//! beat is taken, so back-to-back requests leave no idle beat. The behavioural model's
//! requester port (`ssdlab_model::nvme::frontend`) reserves beats the same way.
//! Source 2 is a stream (the PRP data path's RQ master, `nvme::prp::read_data`): lowest priority, taken
//! at a packet boundary when sources 0 and 1 are idle, then passed through beat by beat (its
//! `tready` is the hard block's) until its last beat is taken. In that cycle the mux goes to a
//! waiting source 0/1 request; if there is none it stays on source 2 for one more cycle, so a
//! packet that follows at once passes through without an idle beat (back-to-back 256 B MWr at
//! 17 beats each, not 18: the data path keeps up with the Gen3 x4 link, which needs 17.77
//! cycles per such TLP); if source 2 offers nothing in that cycle the mux is free again (a
//! source 0/1 request is taken in it). The behavioural model's `FrontEnd::step_move` grants the
//! data path's TLPs by the same rule.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct RqMux {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// Source 0 offers a request this cycle.
    pub s0_valid: Signal<In, Bit>,
    /// Source 0 request descriptor (layout: `pcie::tlp::ReqDesc`).
    pub s0_desc: Signal<In, Bits<128>>,
    /// Source 0 has one payload beat (MWr of at most 16 bytes).
    pub s0_has_data: Signal<In, Bit>,
    /// Source 0 payload beat, dword 0 in bits 31:0.
    pub s0_data: Signal<In, Bits<128>>,
    /// Source 0 request taken this cycle if it is valid.
    pub s0_ready: Signal<Out, Bit>,
    /// Source 1 offers a request this cycle.
    pub s1_valid: Signal<In, Bit>,
    /// Source 1 request descriptor.
    pub s1_desc: Signal<In, Bits<128>>,
    /// Source 1 has one payload beat.
    pub s1_has_data: Signal<In, Bit>,
    /// Source 1 payload beat.
    pub s1_data: Signal<In, Bits<128>>,
    /// Source 1 request taken this cycle if it is valid.
    pub s1_ready: Signal<Out, Bit>,
    /// Source 2 stream beat (descriptor, then payload beats).
    pub s2_tdata: Signal<In, Bits<128>>,
    /// Source 2 beat valid.
    pub s2_tvalid: Signal<In, Bit>,
    /// Source 2 last beat of its TLP.
    pub s2_tlast: Signal<In, Bit>,
    /// Source 2 beat taken this cycle.
    pub s2_tready: Signal<Out, Bit>,
    /// RQ stream data beat (descriptor or payload).
    pub rq_tdata: Signal<Out, Bits<128>>,
    /// RQ stream beat valid.
    pub rq_tvalid: Signal<Out, Bit>,
    /// RQ stream last beat of the TLP.
    pub rq_tlast: Signal<Out, Bit>,
    /// Hard block accepts the beat this cycle (link ceiling backpressure).
    pub rq_tready: Signal<In, Bit>,
    tdata: DFF<Bits<128>>,
    tvalid: DFF<Bit>,
    tlast: DFF<Bit>,
    hold: DFF<Bits<128>>,
    lock: DFF<Bit>,
    /// Locked on source 2 in the cycle after its packet ended, waiting for a following packet.
    tail: DFF<Bit>,
    /// Source 0 or 1 offers a request.
    req01: Signal<Local, Bit>,
    free: Signal<Local, Bit>,
}

impl Logic for RqMux {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, tdata, tvalid, tlast, hold, lock, tail);
        // Free when nothing is on the stream or its last beat is taken this cycle (also a
        // source-2 packet's, so a request may follow it without an idle beat), or when the
        // lock held after a source-2 packet finds no packet following.
        self.req01.next = self.s0_valid.val() | self.s1_valid.val();
        self.free.next = (!self.lock.q.val()
            & (!self.tvalid.q.val() | (self.rq_tready.val() & self.tlast.q.val())))
            | (self.lock.q.val()
                & self.s2_tvalid.val()
                & self.rq_tready.val()
                & self.s2_tlast.val())
            | (self.lock.q.val() & self.tail.q.val() & !self.s2_tvalid.val());
        if self.tvalid.q.val() & self.rq_tready.val() {
            if self.tlast.q.val() {
                self.tvalid.d.next = false;
            } else {
                self.tdata.d.next = self.hold.q.val();
                self.tlast.d.next = true;
            }
        }
        // Ready does not look at the source's own valid (no combinational loop through the
        // sources' FSMs); a source's request is taken when it is valid and ready.
        self.s0_ready.next = self.free.val();
        self.s1_ready.next = self.free.val() & !self.s0_valid.val();
        if self.free.val() & self.s0_valid.val() {
            self.tdata.d.next = self.s0_desc.val();
            self.tvalid.d.next = true;
            self.tlast.d.next = !self.s0_has_data.val();
            self.hold.d.next = self.s0_data.val();
        } else if self.free.val() & self.s1_valid.val() {
            self.tdata.d.next = self.s1_desc.val();
            self.tvalid.d.next = true;
            self.tlast.d.next = !self.s1_has_data.val();
            self.hold.d.next = self.s1_data.val();
        }
        self.rq_tdata.next = self.tdata.q.val();
        self.rq_tvalid.next = self.tvalid.q.val();
        self.rq_tlast.next = self.tlast.q.val();
        self.s2_tready.next = false;
        if self.lock.q.val() {
            self.rq_tdata.next = self.s2_tdata.val();
            self.rq_tvalid.next = self.s2_tvalid.val();
            self.rq_tlast.next = self.s2_tlast.val();
            self.s2_tready.next = self.rq_tready.val();
            if self.s2_tvalid.val() & self.rq_tready.val() & self.s2_tlast.val() {
                // Packet ends: release to a waiting request, else hold for a following packet.
                self.lock.d.next = !self.req01.val();
                self.tail.d.next = !self.req01.val();
            } else if self.s2_tvalid.val() {
                self.tail.d.next = false;
            } else if self.tail.q.val() {
                self.lock.d.next = false;
                self.tail.d.next = false;
            }
        } else if self.free.val() & !self.req01.val() & self.s2_tvalid.val() {
            self.lock.d.next = true;
            self.tail.d.next = false;
        }
    }
}

/// Settles combinational logic of a block driven directly (no `Simulation` harness).
#[cfg(test)]
pub(crate) fn simulate_settle<T: Block>(uut: &mut T) {
    crate::settle(uut, 64, "block");
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
    crate::verilog_of(RqMux::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rq_mux_is_synthesizable() {
        yosys_validate("ssdlab_rq_mux", &export_verilog()).unwrap();
    }

    /// One cycle with the hard block always ready: source 0 (descriptor 0xA0, one payload beat
    /// 0xD0) offered when `s0`, source 1 (descriptor 0xB1, no payload) when `s1`, source 2
    /// offering beat `s2` (data, last). Returns the RQ beat of the cycle and which sources'
    /// offers were taken.
    fn cycle(
        uut: &mut RqMux,
        s0: bool,
        s1: bool,
        s2: Option<(u128, bool)>,
    ) -> (Option<(u128, bool)>, [bool; 3]) {
        uut.rq_tready.next = true;
        (
            uut.s0_valid.next,
            uut.s0_desc.next,
            uut.s0_has_data.next,
            uut.s0_data.next,
        ) = (s0, 0xA0u128.to_bits(), true, 0xD0u128.to_bits());
        (
            uut.s1_valid.next,
            uut.s1_desc.next,
            uut.s1_has_data.next,
            uut.s1_data.next,
        ) = (s1, 0xB1u128.to_bits(), false, 0u128.to_bits());
        (uut.s2_tvalid.next, uut.s2_tdata.next, uut.s2_tlast.next) = (
            s2.is_some(),
            s2.map_or(0, |b| b.0).to_bits(),
            s2.is_some_and(|b| b.1),
        );
        uut.clock.next = Clock { clk: false };
        simulate_settle(uut);
        let beat = uut
            .rq_tvalid
            .val()
            .then(|| (uut.rq_tdata.val().to_u128(), uut.rq_tlast.val()));
        let taken = [
            s0 && uut.s0_ready.val(),
            s1 && uut.s1_ready.val(),
            s2.is_some() && uut.s2_tready.val(),
        ];
        uut.clock.next = Clock { clk: true };
        simulate_settle(uut);
        (beat, taken)
    }

    /// Runs `cycles` cycles: source 0 offered from the cycles in `s0_at` until taken, source 1
    /// from cycle 0 when `s1`, source 2's beats (data, last, offered from cycle) in order.
    fn run(
        cycles: u64,
        s0_at: &[u64],
        s1: bool,
        s2: &[(u128, bool, u64)],
    ) -> Vec<(u64, u128, bool)> {
        let mut uut = RqMux::default();
        uut.connect_all();
        let (mut k, mut o0, mut o1) = (0usize, false, s1);
        let mut beats = Vec::new();
        for c in 0..cycles {
            o0 |= s0_at.contains(&c);
            let b2 = s2.get(k).filter(|b| c >= b.2).map(|b| (b.0, b.1));
            let (beat, taken) = cycle(&mut uut, o0, o1, b2);
            if let Some((d, last)) = beat {
                beats.push((c, d, last));
            }
            o0 &= !taken[0];
            o1 &= !taken[1];
            k += taken[2] as usize;
        }
        beats
    }

    /// A 2-beat MWr from source 0 then a 1-beat MRd from source 1, offered in the same cycle:
    /// descriptor 0 in cycle 1, its payload in cycle 2, descriptor 1 in cycle 3 (hand timeline).
    #[test]
    fn serialises_two_sources_back_to_back() {
        assert_eq!(
            run(6, &[0], true, &[]),
            vec![(1, 0xA0, false), (2, 0xD0, true), (3, 0xB1, true)]
        );
    }

    /// A 3-beat source-2 packet offered in cycle 0 is locked in cycle 0 and passed through in
    /// cycles 1..=3; a source-0 request offered in cycle 2 waits for the packet's last beat and
    /// has its descriptor in cycle 4, its payload in 5 (hand timeline).
    #[test]
    fn stream_source_is_held_to_its_last_beat() {
        let s2 = [(0x21u128, false, 0u64), (0x22, false, 0), (0x23, true, 0)];
        assert_eq!(
            run(7, &[2], false, &s2),
            vec![
                (1, 0x21, false),
                (2, 0x22, false),
                (3, 0x23, true),
                (4, 0xA0, false),
                (5, 0xD0, true)
            ]
        );
    }

    /// Source-2 packets back to back pass without an idle beat; a source-0 request waiting when
    /// a packet's last beat is taken goes next; the lock held after a packet is released when
    /// nothing follows. Packets A = [0x31, 0x32], B = [0x41] (queued behind A), C = [0x51, 0x52]
    /// (offered from cycle 4); source 0 offered from cycle 3 and again from cycle 8. Hand
    /// timeline: cycle 0 the idle mux locks onto A; A in 1-2; no request waits in 2, so the lock
    /// is held and B passes in 3; source 0 waits in 3 and is taken with B's last beat: its
    /// descriptor in 4, payload in 5 (the registered path, taken by C's lock in 5); C in 6-7;
    /// held in 8 with nothing from source 2: released, source 0 taken in 8: 0xA0 in 9, 0xD0 in 10.
    #[test]
    fn stream_packets_back_to_back_and_released_when_idle() {
        let s2 = [
            (0x31u128, false, 0u64),
            (0x32, true, 0),
            (0x41, true, 0),
            (0x51, false, 4),
            (0x52, true, 4),
        ];
        let want = vec![
            (1, 0x31, false),
            (2, 0x32, true),
            (3, 0x41, true),
            (4, 0xA0, false),
            (5, 0xD0, true),
            (6, 0x51, false),
            (7, 0x52, true),
            (9, 0xA0, false),
            (10, 0xD0, true),
        ];
        assert_eq!(run(12, &[3, 8], false, &s2), want);
    }
}
