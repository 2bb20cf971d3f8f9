//! Requester-request multiplexer: serialises TLPs of two sources onto the hard block's RQ
//! stream (128-bit at 250 MHz). A request is one descriptor beat plus at most one payload beat
//! (the front end's MWr are 4 or 16 bytes; MRd have none). Source 0 (completion path) wins over
//! source 1 (fetch path). A source request offered in cycle `t` while the stream is free has its
//! descriptor on `rq_tdata` in cycle `t + 1`; the stream is free again in the cycle its last
//! beat is taken, so back-to-back requests leave no idle beat. The behavioural model's
//! requester port (`ssdlab_model::nvme::frontend`) reserves beats the same way.

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
    free: Signal<Local, Bit>,
}

impl Logic for RqMux {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, tdata, tvalid, tlast, hold);
        self.free.next = !self.tvalid.q.val() | (self.rq_tready.val() & self.tlast.q.val());
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rq_mux_is_synthesizable() {
        let mut uut = RqMux::default();
        uut.connect_all();
        yosys_validate("ssdlab_rq_mux", &generate_verilog(&uut)).unwrap();
    }

    /// A 2-beat MWr from source 0 then a 1-beat MRd from source 1, offered in the same cycle:
    /// descriptor 0 in cycle 1, its payload in cycle 2, descriptor 1 in cycle 3 (hand timeline).
    #[test]
    fn serialises_two_sources_back_to_back() {
        let mut uut = RqMux::default();
        uut.connect_all();
        let mut beats: Vec<(u64, u128, bool)> = Vec::new();
        let mut offered = [true, true];
        for cycle in 0..6u64 {
            uut.rq_tready.next = true;
            uut.s0_valid.next = offered[0];
            uut.s0_desc.next = 0xA0u128.to_bits();
            uut.s0_has_data.next = true;
            uut.s0_data.next = 0xD0u128.to_bits();
            uut.s1_valid.next = offered[1];
            uut.s1_desc.next = 0xB1u128.to_bits();
            uut.s1_has_data.next = false;
            uut.s1_data.next = 0u128.to_bits();
            uut.clock.next = Clock { clk: false };
            simulate_settle(&mut uut);
            if uut.rq_tvalid.val() {
                beats.push((cycle, uut.rq_tdata.val().to_u128(), uut.rq_tlast.val()));
            }
            if uut.s0_ready.val() && offered[0] {
                offered[0] = false;
            } else if uut.s1_ready.val() && offered[1] {
                offered[1] = false;
            }
            uut.clock.next = Clock { clk: true };
            simulate_settle(&mut uut);
        }
        assert_eq!(beats, vec![(1, 0xA0, false), (2, 0xD0, true), (3, 0xB1, true)]);
    }
}

/// Settles combinational logic of a block driven directly (no `Simulation` harness).
#[cfg(test)]
pub(crate) fn simulate_settle<T: Block>(uut: &mut T) {
    for _ in 0..64 {
        uut.update_all();
        if !uut.has_changed() {
            return;
        }
    }
    panic!("combinational logic did not settle in 64 passes");
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
    let mut uut = RqMux::default();
    uut.connect_all();
    generate_verilog(&uut)
}
