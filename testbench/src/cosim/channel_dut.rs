//! The NAND channel sequencer (`ssdlab_hdl::nand::sequencer::NandChannel`) as a device under
//! test behind one cycle interface, in two executions: rust_hdl's own simulation (stepped here
//! the way rust_hdl's `Simulation` does: `update_all` until nothing changes) and the Verilated
//! Verilog through the generic runner. The bench drives both identically.

use super::channel_bench::WAYS;
use crate::verilator::{PortId, RunnerError, VerilatorModel};
use rust_hdl::prelude::*;
use ssdlab_hdl::nand::array::NandArray;
use ssdlab_hdl::nand::op::op_bits;
use ssdlab_hdl::nand::sequencer::NandChannel;
use ssdlab_hdl::nand::timing::HdlTiming;

/// Inputs of the channel for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChanIn {
    pub cmd_valid: bool,
    pub cmd_way: u8,
    /// Packed op word (`ssdlab_hdl::nand::op::pack_op`).
    pub cmd_op: u128,
    /// Array time of the offered op, sequencer cycles (`cmd_array`).
    pub cmd_array: u32,
    pub wr_data: u32,
    pub rb: u8,
    pub dq_in: u32,
    pub dq_in_valid: bool,
}

/// Outputs of the channel in one cycle (after inputs settled).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChanOut {
    pub cmd_ready: bool,
    pub data_way: u8,
    pub ce: u8,
    pub cle: bool,
    pub ale: bool,
    pub we: bool,
    pub dq_out: u32,
    pub wr_beat: bool,
    pub rd_beat: bool,
    pub rd_data: u32,
    pub rd_valid: bool,
    pub done_valid: bool,
    pub done_way: u8,
}

/// One cycle-stepped execution of the channel.
pub trait ChannelDut {
    /// Sets every input and settles combinational logic.
    fn apply(&mut self, i: &ChanIn);
    /// Outputs as of the last `apply`/`tick`.
    fn outputs(&self) -> ChanOut;
    /// One rising clock edge.
    fn tick(&mut self);
    fn name(&self) -> &'static str;
}

/// Channels of the array a channel is tested in ([`VerilatedChannel::new_in_array`]).
pub const CHANNELS: usize = 8;

/// rust_hdl simulation of the channel (of the bench's [`WAYS`] ways).
pub struct HdlSimChannel {
    uut: NandChannel,
}

impl HdlSimChannel {
    pub fn new(t: &HdlTiming) -> Self {
        let mut uut = NandChannel::new(t, WAYS);
        uut.connect_all();
        check_all(&uut).expect("the channel passes rust_hdl's connection checks");
        let mut s = HdlSimChannel { uut };
        s.settle();
        s
    }
    fn settle(&mut self) {
        ssdlab_hdl::settle(&mut self.uut, 100, "channel");
    }
}

impl ChannelDut for HdlSimChannel {
    fn apply(&mut self, i: &ChanIn) {
        let u = &mut self.uut;
        u.cmd_valid.next = i.cmd_valid;
        u.cmd_way.next = bits::<3>(i.cmd_way as u64);
        u.cmd_op.next = op_bits(i.cmd_op);
        u.cmd_array.next = bits::<32>(i.cmd_array as u64);
        u.wr_data.next = bits::<32>(i.wr_data as u64);
        u.phy.rb.next = bits::<8>(i.rb as u64);
        u.phy.dq_in.next = bits::<32>(i.dq_in as u64);
        u.phy.dq_in_valid.next = i.dq_in_valid;
        self.settle();
    }
    fn outputs(&self) -> ChanOut {
        let u = &self.uut;
        ChanOut {
            cmd_ready: u.cmd_ready.val(),
            data_way: u.data_way.val().to_u64() as u8,
            ce: u.phy.ce.val().to_u64() as u8,
            cle: u.phy.cle.val(),
            ale: u.phy.ale.val(),
            we: u.phy.we.val(),
            dq_out: u.phy.dq_out.val().to_u64() as u32,
            wr_beat: u.phy.wr_beat.val(),
            rd_beat: u.phy.rd_beat.val(),
            rd_data: u.rd_data.val().to_u64() as u32,
            rd_valid: u.rd_valid.val(),
            done_valid: u.done_valid.val(),
            done_way: u.done_way.val().to_u64() as u8,
        }
    }
    fn tick(&mut self) {
        self.uut.clock.next = Clock { clk: true };
        self.settle();
        self.uut.clock.next = Clock { clk: false };
        self.settle();
    }
    fn name(&self) -> &'static str {
        "rust_hdl"
    }
}

/// The channel's generated Verilog under Verilator: a `NandChannel` alone, or channel `i` of
/// the [`CHANNELS`]-channel `NandArray` (the other channels idle, checked by [`VerilatedChannel::others_idle`]).
pub struct VerilatedChannel {
    m: VerilatorModel,
    p: [PortId; 22],
    /// In the array: (channel, `cmd_channel` port, every channel's `ce` port).
    array: Option<(usize, PortId, Vec<PortId>)>,
}

/// Port names; the PHY bundle's (`nand::phy::NandPhy`) are `phy$<field>` on a channel and
/// `phy$<i>$<field>` in the array.
const PORTS: [&str; 22] = [
    "clock",
    "cmd_valid",
    "cmd_way",
    "cmd_op",
    "wr_data",
    "phy$rb",
    "phy$dq_in",
    "phy$dq_in_valid",
    "cmd_ready",
    "data_way",
    "phy$ce",
    "phy$cle",
    "phy$ale",
    "phy$we",
    "phy$dq_out",
    "phy$wr_beat",
    "phy$rd_beat",
    "rd_data",
    "rd_valid",
    "done_valid",
    "done_way",
    "cmd_array",
];

/// The Verilog name of channel `channel`'s port `name` in the array.
fn array_port(name: &str, channel: usize) -> String {
    match name.strip_prefix("phy$") {
        Some(field) => format!("phy${channel}${field}"),
        None => format!("{name}${channel}"),
    }
}

impl VerilatedChannel {
    pub fn new(t: &HdlTiming) -> Result<Self, RunnerError> {
        let mut uut = NandChannel::new(t, WAYS);
        uut.connect_all();
        let m = VerilatorModel::build("nand_channel", &generate_verilog(&uut))?;
        let mut p = [PortId(0); 22];
        for (k, name) in PORTS.iter().enumerate() {
            p[k] = m.port(name)?;
        }
        let mut s = VerilatedChannel { m, p, array: None };
        s.m.eval();
        Ok(s)
    }
    /// Channel `channel` of the 8-channel array: ops go through the array's dispatcher.
    pub fn new_in_array(t: &HdlTiming, channel: usize) -> Result<Self, RunnerError> {
        let mut uut = NandArray::new(t, CHANNELS, WAYS, false);
        uut.connect_all();
        let mut m = VerilatorModel::build("nand_array", &generate_verilog(&uut))?;
        let shared = [
            "clock",
            "cmd_valid",
            "cmd_way",
            "cmd_op",
            "cmd_ready",
            "cmd_array",
        ];
        let mut p = [PortId(0); 22];
        for (k, name) in PORTS.iter().enumerate() {
            p[k] = if shared.contains(name) {
                m.port(name)?
            } else {
                m.port(&array_port(name, channel))?
            };
        }
        let cmd_channel = m.port("cmd_channel")?;
        let ces = (0..CHANNELS)
            .map(|c| m.port(&array_port("phy$ce", c)))
            .collect::<Result<Vec<_>, _>>()?;
        for c in 0..CHANNELS {
            let rb = m.port(&array_port("phy$rb", c))?;
            m.set(rb, (1 << WAYS) - 1);
        }
        m.set(cmd_channel, channel as u64);
        let mut s = VerilatedChannel {
            m,
            p,
            array: Some((channel, cmd_channel, ces)),
        };
        s.m.eval();
        Ok(s)
    }
    /// In the array: no channel but ours drives a chip enable.
    pub fn others_idle(&self) -> bool {
        match &self.array {
            None => true,
            Some((ch, _, ces)) => ces
                .iter()
                .enumerate()
                .all(|(c, p)| c == *ch || self.m.get(*p) == 0),
        }
    }
}

impl ChannelDut for VerilatedChannel {
    fn apply(&mut self, i: &ChanIn) {
        let p = self.p;
        self.m.set(p[1], i.cmd_valid as u64);
        self.m.set(p[2], i.cmd_way as u64);
        let w = i.cmd_op;
        self.m
            .set_wide(p[3], &[w as u32, (w >> 32) as u32, (w >> 64) as u32]);
        self.m.set(p[21], i.cmd_array as u64);
        self.m.set(p[4], i.wr_data as u64);
        self.m.set(p[5], i.rb as u64);
        self.m.set(p[6], i.dq_in as u64);
        self.m.set(p[7], i.dq_in_valid as u64);
        self.m.eval();
    }
    fn outputs(&self) -> ChanOut {
        let (m, p) = (&self.m, &self.p);
        ChanOut {
            cmd_ready: m.get(p[8]) != 0,
            data_way: m.get(p[9]) as u8,
            ce: m.get(p[10]) as u8,
            cle: m.get(p[11]) != 0,
            ale: m.get(p[12]) != 0,
            we: m.get(p[13]) != 0,
            dq_out: m.get(p[14]) as u32,
            wr_beat: m.get(p[15]) != 0,
            rd_beat: m.get(p[16]) != 0,
            rd_data: m.get(p[17]) as u32,
            rd_valid: m.get(p[18]) != 0,
            done_valid: m.get(p[19]) != 0,
            done_way: m.get(p[20]) as u8,
        }
    }
    fn tick(&mut self) {
        assert!(
            self.others_idle(),
            "a channel other than the addressed one drove its bus"
        );
        self.m.tick(self.p[0]);
    }
    fn name(&self) -> &'static str {
        "verilator"
    }
}
