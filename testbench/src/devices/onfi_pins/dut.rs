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
    /// DQ in per quarter, quarter k in bits 8k+7:8k.
    pub dq_in: u32,
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
    /// RE_t, DQS_t per quarter, bit k = quarter k.
    pub re: u8,
    pub dqs: u8,
    pub dqs_oe: bool,
    /// DQ out per quarter, quarter k in bits 8k+7:8k.
    pub dq: u32,
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
        u.dq_in.next = (i.dq_in as u64).to_bits();
        ssdlab_hdl::settle(u, 64, "onfi phy");
        PhyOut {
            beat_rb: u.beat_rb.val().to_u64() as u8,
            beat_dq_in: u.beat_dq_in.val().to_u64() as u32,
            beat_dq_in_valid: u.beat_dq_in_valid.val(),
            ce_n: u.ce_n.val().to_u64() as u8,
            cle: u.cle.val(),
            ale: u.ale.val(),
            we_n: u.we_n.val(),
            re: u.re.val().to_u64() as u8,
            dqs: u.dqs.val().to_u64() as u8,
            dqs_oe: u.dqs_oe.val(),
            dq: u.dq.val().to_u64() as u32,
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

const INS: [&str; 10] = [
    "clock", "beat_ce", "beat_cle", "beat_ale", "beat_we", "beat_dq", "beat_wr", "beat_rd", "rb_n",
    "dq_in",
];
const OUTS: [&str; 12] = [
    "beat_rb",
    "beat_dq_in",
    "beat_dq_in_valid",
    "ce_n",
    "cle",
    "ale",
    "we_n",
    "re",
    "dqs",
    "dqs_oe",
    "dq",
    "dq_oe",
];

/// The PHY's generated Verilog (rust-hdl's, as `make verilog` renames it) under Verilator.
pub struct VerilatedPhy {
    m: VerilatorModel,
    i: [PortId; 10],
    o: [PortId; 12],
}

impl VerilatedPhy {
    pub fn new(phy: OnfiPhy) -> Result<Self, RunnerError> {
        let m = VerilatorModel::build("nand_phy", &ssdlab_hdl::verilog_of(phy))?;
        let mut i = [PortId(0); 10];
        let mut o = [PortId(0); 12];
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
            x.dq_in as u64,
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
            re: g[7] as u8,
            dqs: g[8] as u8,
            dqs_oe: g[9] != 0,
            dq: g[10] as u32,
            dq_oe: g[11] != 0,
        }
    }
    fn tick(&mut self) {
        self.m.tick(self.i[0]);
    }
}
