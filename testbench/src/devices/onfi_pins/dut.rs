//! The ONFI PHY under test, one cycle at a time, in either simulator: the rust_hdl block
//! stepped to a fixed point ([`RustHdlPhy`]) or its generated Verilog under Verilator
//! ([`VerilatedPhy`]), behind one interface so the pin bench runs both the same way.

use super::bench::Beat;
use crate::verilator::{PortId, RunnerError, VerilatorModel};
use rust_hdl::prelude::*;
use ssdlab_hdl::nand::phy::OnfiPhy;

/// The PHY's inputs in one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhyIn {
    pub beat: Beat,
    /// R/B# pins, 1 = ready.
    pub rb_n: u8,
    pub dq_in_rise: u8,
    pub dq_in_fall: u8,
}

/// The PHY's outputs in one cycle (after its inputs settled).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhyOut {
    pub beat_rb: u8,
    pub beat_dq_in: u32,
    pub beat_dq_in_valid: bool,
    pub ce_n: u8,
    pub cle: bool,
    pub ale: bool,
    pub we_n: bool,
    pub re_rise: bool,
    pub re_fall: bool,
    pub dqs_rise: bool,
    pub dqs_fall: bool,
    pub dqs_oe: bool,
    pub dq_rise: u8,
    pub dq_fall: u8,
    pub dq_oe: bool,
}

/// One simulator's PHY.
pub trait PhyDut {
    /// Applies `i`, settles, returns the outputs.
    fn eval(&mut self, i: &PhyIn) -> PhyOut;
    /// One rising clock edge.
    fn tick(&mut self);
}

/// The rust_hdl block.
pub struct RustHdlPhy(pub OnfiPhy);

impl RustHdlPhy {
    pub fn new(mut phy: OnfiPhy) -> Self {
        phy.connect_all();
        RustHdlPhy(phy)
    }
}

impl PhyDut for RustHdlPhy {
    fn eval(&mut self, i: &PhyIn) -> PhyOut {
        let u = &mut self.0;
        u.beat_ce.next = (i.beat.ce as u64).to_bits();
        u.beat_cle.next = i.beat.cle;
        u.beat_ale.next = i.beat.ale;
        u.beat_we.next = i.beat.we;
        u.beat_dq.next = (i.beat.dq as u64).to_bits();
        u.beat_wr.next = i.beat.wr;
        u.beat_rd.next = i.beat.rd;
        u.rb_n.next = (i.rb_n as u64).to_bits();
        u.dq_in_rise.next = (i.dq_in_rise as u64).to_bits();
        u.dq_in_fall.next = (i.dq_in_fall as u64).to_bits();
        ssdlab_hdl::settle(u, 64, "onfi phy");
        PhyOut {
            beat_rb: u.beat_rb.val().to_u64() as u8,
            beat_dq_in: u.beat_dq_in.val().to_u64() as u32,
            beat_dq_in_valid: u.beat_dq_in_valid.val(),
            ce_n: u.ce_n.val().to_u64() as u8,
            cle: u.cle.val(),
            ale: u.ale.val(),
            we_n: u.we_n.val(),
            re_rise: u.re_rise.val(),
            re_fall: u.re_fall.val(),
            dqs_rise: u.dqs_rise.val(),
            dqs_fall: u.dqs_fall.val(),
            dqs_oe: u.dqs_oe.val(),
            dq_rise: u.dq_rise.val().to_u64() as u8,
            dq_fall: u.dq_fall.val().to_u64() as u8,
            dq_oe: u.dq_oe.val(),
        }
    }
    fn tick(&mut self) {
        self.0.clock.next = Clock { clk: true };
        ssdlab_hdl::settle(&mut self.0, 64, "onfi phy");
        self.0.clock.next = Clock { clk: false };
        ssdlab_hdl::settle(&mut self.0, 64, "onfi phy");
    }
}

const INS: [&str; 11] = [
    "clock",
    "beat_ce",
    "beat_cle",
    "beat_ale",
    "beat_we",
    "beat_dq",
    "beat_wr",
    "beat_rd",
    "rb_n",
    "dq_in_rise",
    "dq_in_fall",
];
const OUTS: [&str; 15] = [
    "beat_rb",
    "beat_dq_in",
    "beat_dq_in_valid",
    "ce_n",
    "cle",
    "ale",
    "we_n",
    "re_rise",
    "re_fall",
    "dqs_rise",
    "dqs_fall",
    "dqs_oe",
    "dq_rise",
    "dq_fall",
    "dq_oe",
];

/// The PHY's generated Verilog (rust-hdl's, as `make verilog` renames it) under Verilator.
pub struct VerilatedPhy {
    m: VerilatorModel,
    i: [PortId; 11],
    o: [PortId; 15],
}

impl VerilatedPhy {
    pub fn new(phy: OnfiPhy) -> Result<Self, RunnerError> {
        let m = VerilatorModel::build("nand_phy", &ssdlab_hdl::verilog_of(phy))?;
        let mut i = [PortId(0); 11];
        let mut o = [PortId(0); 15];
        for (k, n) in INS.iter().enumerate() {
            i[k] = m.port(n)?;
        }
        for (k, n) in OUTS.iter().enumerate() {
            o[k] = m.port(n)?;
        }
        Ok(VerilatedPhy { m, i, o })
    }
}

impl PhyDut for VerilatedPhy {
    fn eval(&mut self, x: &PhyIn) -> PhyOut {
        let b = &x.beat;
        let vals = [
            b.ce as u64,
            b.cle as u64,
            b.ale as u64,
            b.we as u64,
            b.dq as u64,
            b.wr as u64,
            b.rd as u64,
            x.rb_n as u64,
            x.dq_in_rise as u64,
            x.dq_in_fall as u64,
        ];
        for (k, v) in vals.into_iter().enumerate() {
            self.m.set(self.i[k + 1], v);
        }
        self.m.eval();
        let g: Vec<u64> = self.o.iter().map(|&p| self.m.get(p)).collect();
        PhyOut {
            beat_rb: g[0] as u8,
            beat_dq_in: g[1] as u32,
            beat_dq_in_valid: g[2] != 0,
            ce_n: g[3] as u8,
            cle: g[4] != 0,
            ale: g[5] != 0,
            we_n: g[6] != 0,
            re_rise: g[7] != 0,
            re_fall: g[8] != 0,
            dqs_rise: g[9] != 0,
            dqs_fall: g[10] != 0,
            dqs_oe: g[11] != 0,
            dq_rise: g[12] as u8,
            dq_fall: g[13] as u8,
            dq_oe: g[14] != 0,
        }
    }
    fn tick(&mut self) {
        self.m.tick(self.i[0]);
    }
}
