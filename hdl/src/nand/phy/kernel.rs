//! Kernel of the ONFI PHY [`OnfiPhy`] (ONFI 4.1 sections 4.16-4.17): the pin delay line, the
//! WE# pulse inside each command/address latch window (tCLS/tALS setup, tWP low, tCLH/tALH
//! hold), the DQS and RE# preambles seen ahead in the delay line, the per-quarter data and
//! strobes of a data burst, the postamble counters, and the read capture `dqsre` cycles after
//! each RE# cycle. rust_hdl turns one `#[hdl_gen]` function into one always block, so the
//! kernel stays one function (as the bus engine's).

use super::onfi::*;
use rust_hdl::prelude::*;

impl Logic for OnfiPhy {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s_cle, s_ale, s_we, s_wr, s_rd, lc, lat_b, wtog, rtog, wc, rc, s_rv, dqi,
            dqv, pst_ce
        );
        // Delay lines: stage 0 takes this cycle's data bytes and CE mask.
        for i in 0..STAGES {
            self.st[i].clock.next = self.clock.val();
            self.sc[i].clock.next = self.clock.val();
        }
        self.st[0].d.next = self.beat_dq.val();
        self.sc[0].d.next = self.beat_ce.val();
        for i in 0..(STAGES - 1) {
            self.st[i + 1].d.next = self.st[i].q.val();
            self.sc[i + 1].d.next = self.sc[i].q.val();
        }
        self.s_cle.d.next = self.s_cle.q.val() << self.one8.val();
        if self.beat_cle.val() {
            self.s_cle.d.next = (self.s_cle.q.val() << self.one8.val()) | self.one8.val();
        }
        self.s_ale.d.next = self.s_ale.q.val() << self.one8.val();
        if self.beat_ale.val() {
            self.s_ale.d.next = (self.s_ale.q.val() << self.one8.val()) | self.one8.val();
        }
        self.s_we.d.next = self.s_we.q.val() << self.one8.val();
        if self.beat_we.val() {
            self.s_we.d.next = (self.s_we.q.val() << self.one8.val()) | self.one8.val();
        }
        self.s_wr.d.next = self.s_wr.q.val() << self.one8.val();
        if self.beat_wr.val() {
            self.s_wr.d.next = (self.s_wr.q.val() << self.one8.val()) | self.one8.val();
        }
        self.s_rd.d.next = self.s_rd.q.val() << self.one8.val();
        if self.beat_rd.val() {
            self.s_rd.d.next = (self.s_rd.q.val() << self.one8.val()) | self.one8.val();
        }
        // The beat the pins show this cycle (`pipe` cycles old).
        self.t_w.next = self.st[0].q.val();
        self.t_c.next = self.sc[0].q.val();
        for i in 0..STAGES {
            if self.tap.val().index() == i {
                self.t_w.next = self.st[i].q.val();
                self.t_c.next = self.sc[i].q.val();
            }
        }
        self.t_cle.next = self.s_cle.q.val().get_bit(self.tap.val().index());
        self.t_ale.next = self.s_ale.q.val().get_bit(self.tap.val().index());
        self.t_we.next = self.s_we.q.val().get_bit(self.tap.val().index());
        self.t_wr.next = self.s_wr.q.val().get_bit(self.tap.val().index());
        self.t_rd.next = self.s_rd.q.val().get_bit(self.tap.val().index());
        // CE#: the beat's; during a preamble also the coming burst's (its beat is still in
        // the delay line), during a postamble the last burst's.
        self.ce_w.next = self.t_c.val();
        for i in 0..STAGES {
            if (self.pre_r.val().get_bit(i) & self.s_rd.q.val().get_bit(i))
                | (self.pre_w.val().get_bit(i) & self.s_wr.q.val().get_bit(i))
            {
                self.ce_w.next = self.ce_w.val() | self.sc[i].q.val();
            }
        }
        if (self.wc.q.val() != self.zero8.val()) | (self.rc.q.val() != self.zero8.val()) {
            self.ce_w.next = self.ce_w.val() | self.pst_ce.q.val();
        }
        self.pst_ce.d.next = self.pst_ce.q.val();
        if self.t_wr.val() | self.t_rd.val() {
            self.pst_ce.d.next = self.t_c.val();
        }
        self.ce_n.next = !self.ce_w.val();
        // CLE, ALE, WP#, R/B#.
        self.cle.next = self.t_cle.val();
        self.ale.next = self.t_ale.val();
        self.wp_n.next = true;
        self.beat_rb.next = self.rb_n.val();
        // Latch window: position since its first cycle; the byte taken then and held.
        self.pos.next = self.lc.q.val();
        self.lat_v.next = self.lat_b.q.val();
        if self.t_we.val() {
            self.pos.next = self.zero8.val();
            self.lat_v.next = self.t_w.val().get_bits::<8>(0);
        }
        self.lat_b.d.next = self.lat_v.val();
        // pos + 1 > from, not pos >= from: no comparison that is constant when from is 0.
        self.pos1.next = self.pos.val() + self.one8.val();
        self.lc.d.next = self.pos.val();
        if self.pos.val() != self.max8.val() {
            self.lc.d.next = self.pos1.val();
        }
        self.we_n.next = !((self.t_cle.val() | self.t_ale.val())
            & (self.pos1.val() > self.we_from.val())
            & (self.pos.val() < self.we_to.val()));
        // The latch byte in every quarter; data byte 0 in every quarter; bytes 0 and 1 in the
        // first and second half (bit by bit: explicit widths, no casts).
        self.lat_q.next = self.zero32.val();
        self.b0_q.next = self.zero32.val();
        self.b01_q.next = self.zero32.val();
        for i in 0..8 {
            if self.lat_v.val().get_bit(i) {
                self.lat_q.next = self.lat_q.val() | self.q01_k[i].val() | self.q23_k[i].val();
            }
            if self.t_w.val().get_bit(i) {
                self.b0_q.next = self.b0_q.val() | self.q01_k[i].val() | self.q23_k[i].val();
                self.b01_q.next = self.b01_q.val() | self.q01_k[i].val();
            }
            if self.t_w.val().get_bit(i + 8) {
                self.b01_q.next = self.b01_q.val() | self.q23_k[i].val();
            }
        }
        // Idle: DQ and DQS released, RE# high.
        self.dq.next = self.zero32.val();
        self.dq_oe.next = false;
        self.dqs.next = self.none4.val();
        self.dqs_oe.next = false;
        self.re.next = self.all4.val();
        if self.t_cle.val() | self.t_ale.val() {
            self.dq.next = self.lat_q.val();
            self.dq_oe.next = true;
        }
        // Data in: preamble, data (a byte per DQS edge), postamble.
        self.pw.next = self.s_wr.q.val() & self.pre_w.val();
        self.in_w.next = self.pw.val().any() & !self.t_wr.val();
        if self.in_w.val() | (self.wc.q.val() != self.zero8.val()) {
            self.dqs_oe.next = true;
        }
        self.wtog.d.next = false;
        self.wc.d.next = self.zero8.val();
        if self.wc.q.val() != self.zero8.val() {
            self.wc.d.next = self.wc.q.val() - self.one8.val();
        }
        if self.t_wr.val() {
            self.wc.d.next = self.wpst.val();
            self.dqs_oe.next = true;
            self.dq_oe.next = true;
            self.dq.next = self.b01_q.val();
            self.dqs.next = self.strobe.val();
            if self.bpc4.val() {
                self.dq.next = self.t_w.val();
            }
            if self.bpc1.val() {
                self.dq.next = self.b0_q.val();
                self.dqs.next = self.all4.val();
                if self.wtog.q.val() {
                    self.dqs.next = self.none4.val();
                }
                self.wtog.d.next = !self.wtog.q.val();
            }
        }
        // Data out: RE# preamble (low), a byte per RE# edge, postamble (low), then high.
        self.pr.next = self.s_rd.q.val() & self.pre_r.val();
        self.in_r.next = self.pr.val().any() & !self.t_rd.val();
        if self.in_r.val() | (self.rc.q.val() != self.zero8.val()) {
            self.re.next = self.none4.val();
        }
        self.rtog.d.next = false;
        self.rc.d.next = self.zero8.val();
        if self.rc.q.val() != self.zero8.val() {
            self.rc.d.next = self.rc.q.val() - self.one8.val();
        }
        if self.t_rd.val() {
            self.rc.d.next = self.rpst.val();
            self.re.next = self.strobe.val();
            if self.bpc1.val() {
                self.re.next = self.all4.val();
                if self.rtog.q.val() {
                    self.re.next = self.none4.val();
                }
                self.rtog.d.next = !self.rtog.q.val();
            }
        }
        // Read capture: the bytes of a data-out cycle arrive `dqsre` cycles after it.
        self.s_rv.d.next = self.s_rv.q.val() << self.one32.val();
        if self.t_rd.val() {
            self.s_rv.d.next = (self.s_rv.q.val() << self.one32.val()) | self.one32.val();
        }
        self.dqv.d.next = self.s_rv.q.val().get_bit(self.cap.val().index());
        // 4 bytes per cycle: byte k from quarter k. Otherwise byte 0 from the first half
        // (quarter 0) and, at 2 bytes per cycle, byte 1 from the second (quarter 2).
        self.cw.next = self.zero32.val();
        for i in 0..8 {
            if self.dq_in.val().get_bit(i) {
                self.cw.next = self.cw.val() | self.bit_k[i].val();
            }
            if self.dq_in.val().get_bit(i + 16) & self.bpc2.val() {
                self.cw.next = self.cw.val() | self.bit_k[i + 8].val();
            }
        }
        if self.bpc4.val() {
            self.cw.next = self.dq_in.val();
        }
        self.dqi.d.next = self.dqi.q.val();
        if self.s_rv.q.val().get_bit(self.cap.val().index()) {
            self.dqi.d.next = self.cw.val();
        }
        self.beat_dq_in.next = self.dqi.q.val();
        self.beat_dq_in_valid.next = self.dqv.q.val();
    }
}
