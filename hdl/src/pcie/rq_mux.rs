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
//!
//! Sideband (PG156 Requester Request interface, 128-bit, Dword-aligned, straddle off; the
//! UltraScale+ guide PG213 widens `tuser` at 512 bits): `rq_tkeep` has one bit per dword,
//! set contiguously from the descriptor's first dword to the payload's last, so it is 1111b
//! in every beat but a packet's last, where it marks the payload dwords left (the descriptor
//! beat: 1111b, its 4 dwords).
//! `rq_tuser` (`pcie::words::RqUserWord`) carries, in a packet's first beat, first_be = 1111b
//! and last_be = 1111b, or 0000b for a 1-dword request (PG156: last_be is 0 for a 1-dword
//! transfer): every request of the front end moves whole dwords. Outside the first beat both
//! are 0 (the block samples them only there). Address offset, discontinue, TPH, sequence number
//! and parity are 0 (the requests are dword aligned, never aborted, carry no hints, need no
//! `pcie_rq_seq_num` tracking, and parity is off in the IP). The mux keeps the descriptor's
//! dword count (`[74:64]`, 0 is never generated) modulo 4: the last beat (`tlast`) holds that
//! many dwords (4 when it is 0), every other beat 4.

use super::words::RqUserWord;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
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
    /// RQ dwords valid in the beat, bit `i` for dword `i` (PG156 `s_axis_rq_tkeep[3:0]`).
    pub rq_tkeep: Signal<Out, Bits<4>>,
    /// RQ sideband (PG156 `s_axis_rq_tuser[59:0]`, layout `pcie::words::RqUserWord`).
    pub rq_tuser: Signal<Out, Bits<60>>,
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
    /// The RQ stream is inside a packet: its first beat has been taken.
    mid: DFF<Bit>,
    /// The packet's dword count modulo 4 (dwords in its last payload beat; 0: four).
    dwl: DFF<Bits<2>>,
    /// The beat on the RQ stream this cycle: data, valid, last.
    od: Signal<Local, Bits<128>>,
    ov: Signal<Local, Bit>,
    ol: Signal<Local, Bit>,
    /// The descriptor's dword count, read in a packet's first beat.
    ddw: Signal<Local, Bits<11>>,
    user: Signal<Local, RqUserWord>,
    k_one: Constant<Bits<11>>,
    k_dw1: Constant<Bits<2>>,
    k_dw2: Constant<Bits<2>>,
    k_dw3: Constant<Bits<2>>,
    k_be_all: Constant<Bits<4>>,
    k_keep1: Constant<Bits<4>>,
    k_keep2: Constant<Bits<4>>,
    k_keep3: Constant<Bits<4>>,
    k_user0: Constant<RqUserWord>,
}

impl Default for RqMux {
    fn default() -> Self {
        crate::elab::with_defaults!(RqMux {
            k_one: Constant::new(bits::<11>(1)),
            k_dw1: Constant::new(bits::<2>(1)),
            k_dw2: Constant::new(bits::<2>(2)),
            k_dw3: Constant::new(bits::<2>(3)),
            k_be_all: Constant::new(bits::<4>(0xF)),
            k_keep1: Constant::new(bits::<4>(0x1)),
            k_keep2: Constant::new(bits::<4>(0x3)),
            k_keep3: Constant::new(bits::<4>(0x7)),
            k_user0: Constant::new(RqUserWord::default()),
        } defaults {
            clock, s0_valid, s0_desc, s0_has_data, s0_data, s0_ready, s1_valid, s1_desc, s1_has_data,
            s1_data, s1_ready, s2_tdata, s2_tvalid, s2_tlast, s2_tready, rq_tdata, rq_tvalid, rq_tlast,
            rq_tready, rq_tkeep, rq_tuser, tdata, tvalid, tlast, hold, lock, tail, req01, free, mid, dwl,
            od, ov, ol, ddw, user,
        })
    }
}

impl Logic for RqMux {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, tdata, tvalid, tlast, hold, lock, tail, mid, dwl);
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
        self.od.next = self.tdata.q.val();
        self.ov.next = self.tvalid.q.val();
        self.ol.next = self.tlast.q.val();
        self.s2_tready.next = false;
        if self.lock.q.val() {
            self.od.next = self.s2_tdata.val();
            self.ov.next = self.s2_tvalid.val();
            self.ol.next = self.s2_tlast.val();
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
        self.rq_tdata.next = self.od.val();
        self.rq_tvalid.next = self.ov.val();
        self.rq_tlast.next = self.ol.val();
        // Sideband: a packet's first beat is its descriptor (4 dwords, byte enables of the
        // request); a later beat holds 4 payload dwords, the last one dwords mod 4 (0: 4).
        self.ddw.next = self.od.val().get_bits::<11>(64);
        self.user.next = self.k_user0.val();
        self.rq_tkeep.next = self.k_be_all.val();
        if !self.mid.q.val() {
            self.user.next.first_be = self.k_be_all.val();
            if self.ddw.val() != self.k_one.val() {
                self.user.next.last_be = self.k_be_all.val();
            }
        } else if self.ol.val() {
            if self.dwl.q.val() == self.k_dw3.val() {
                self.rq_tkeep.next = self.k_keep3.val();
            } else if self.dwl.q.val() == self.k_dw2.val() {
                self.rq_tkeep.next = self.k_keep2.val();
            } else if self.dwl.q.val() == self.k_dw1.val() {
                self.rq_tkeep.next = self.k_keep1.val();
            }
        }
        self.rq_tuser.next = self.user.val().into();
        if self.ov.val() & self.rq_tready.val() {
            self.mid.d.next = !self.ol.val();
            if !self.mid.q.val() {
                self.dwl.d.next = self.ddw.val().get_bits::<2>(0);
            }
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
        crate::test_support::yosys_validate("ssdlab_rq_mux", &export_verilog()).unwrap();
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

    /// `rq_tkeep` and the byte enables of `rq_tuser` (PG156 Requester Request interface),
    /// derived by hand: a 16-dword MWr (descriptor + 4 full beats: 1111b in all five, first_be
    /// = last_be = 1111b: tuser FFh), a 1-dword MRd (descriptor only: 1111b, last_be 0000b for
    /// one dword: tuser 0Fh), a 6-dword MWr (1111b, 1111b, 0011b: 2 dwords in the last beat;
    /// tuser FFh), all from source 2, then a 1-dword MWr from source 0 (1111b then 0001b; tuser
    /// 0Fh). Beats after a packet's first carry tuser 0.
    #[test]
    fn sideband_marks_dwords_and_byte_enables() {
        use crate::pcie::tlp::{ReqDesc, REQ_MRD, REQ_MWR};
        let desc = |dwords, req_type| {
            ReqDesc {
                addr: 0x1000,
                dwords,
                req_type,
                tag: 0,
            }
            .pack()
        };
        let mut s2 = vec![(desc(16, REQ_MWR), false)];
        s2.extend((0..4).map(|i| (0x100 + i as u128, i == 3)));
        s2.push((desc(1, REQ_MRD), true));
        s2.extend([(desc(6, REQ_MWR), false), (0x200, false), (0x201, true)]);
        let mut uut = RqMux::default();
        uut.connect_all();
        let (mut k, mut o0) = (0usize, false);
        let mut got = Vec::new();
        for c in 0..20u64 {
            o0 |= c == 12;
            uut.rq_tready.next = true;
            uut.s0_valid.next = o0;
            uut.s0_desc.next = desc(1, REQ_MWR).to_bits();
            uut.s0_has_data.next = true;
            uut.s0_data.next = 0xD0u128.to_bits();
            uut.s1_valid.next = false;
            uut.s2_tvalid.next = k < s2.len();
            uut.s2_tdata.next = s2.get(k).map_or(0, |b| b.0).to_bits();
            uut.s2_tlast.next = s2.get(k).is_some_and(|b| b.1);
            uut.clock.next = Clock { clk: false };
            simulate_settle(&mut uut);
            if uut.rq_tvalid.val() {
                got.push((
                    uut.rq_tkeep.val().to_u128() as u8,
                    uut.rq_tuser.val().to_u128() as u64,
                ));
            }
            o0 &= !uut.s0_ready.val();
            k += (k < s2.len() && uut.s2_tready.val()) as usize;
            uut.clock.next = Clock { clk: true };
            simulate_settle(&mut uut);
        }
        let want = vec![
            (0xF, 0xFF),
            (0xF, 0),
            (0xF, 0),
            (0xF, 0),
            (0xF, 0),
            (0xF, 0x0F),
            (0xF, 0xFF),
            (0xF, 0),
            (0x3, 0),
            (0xF, 0x0F),
            (0x1, 0),
        ];
        assert_eq!(got, want);
    }
}
