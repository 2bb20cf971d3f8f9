//! The datapath's ports as one enum ([`Sig`], Verilog names as in DATAPATH.md; rust-hdl arrays
//! `name$i`, the NAND PHY bundle `phy$i$field`) and the cycle interface of a device under test
//! ([`DatapathDut`]) that the hardware bench (`hw_exec.rs`) drives: implemented by the Verilated
//! Verilog ([`VerilatorDut`]) and by rust_hdl's own simulation (`hdl_exec.rs`).

use crate::verilator::{PortId, RunnerError, VerilatorModel};

pub const CHANNELS: usize = 8;
pub const WAYS: usize = 4;

macro_rules! sigs {
    ($($v:ident = $n:literal),* $(,)?) => {
        /// A port of `module top` that exists once (its discriminant is its dense index).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Sig {
            $($v,)*
        }
        const SCALARS: &[&str] = &[$($n,)*];
    };
}

sigs! {
    Clock = "clock", CqTdata = "cq_tdata", CqTvalid = "cq_tvalid", CqTlast = "cq_tlast", CqTready = "cq_tready",
    CcTready = "cc_tready", RqTdata = "rq_tdata", RqTvalid = "rq_tvalid", RqTlast = "rq_tlast", RqTready = "rq_tready",
    RcTdata = "rc_tdata", RcTvalid = "rc_tvalid", RcTlast = "rc_tlast", MpsCode = "mps_code", MrrsCode = "mrrs_code",
    CmdValid = "cmd_valid", CmdSqid = "cmd_sqid", CmdW0 = "cmd_w0", CmdW1 = "cmd_w1", CmdW2 = "cmd_w2", CmdW3 = "cmd_w3",
    CmdStall = "cmd_stall", CplValid = "cpl_valid", CplSqid = "cpl_sqid", CplCid = "cpl_cid", CplStatus = "cpl_status",
    CplDw0 = "cpl_dw0", CplReady = "cpl_ready", QcValid = "qc_valid", QcSq = "qc_sq", QcDel = "qc_del", QcQid = "qc_qid",
    QcBase = "qc_base", QcSize = "qc_size", QcCqid = "qc_cqid", QcPrio = "qc_prio", QcVec = "qc_vec", QcIen = "qc_ien",
    DmaValid = "dma_valid", DmaReady = "dma_ready", DmaToHost = "dma_to_host", DmaPrp1 = "dma_prp1", DmaPrp2 = "dma_prp2",
    DmaLen = "dma_len", DmaChannel = "dma_channel", DmaWay = "dma_way", DmaOffset = "dma_offset", DmaDone = "dma_done",
    DmaStatus = "dma_status", PbErr = "pb_err",
    MapReqValid = "map_req_valid", MapReqReady = "map_req_ready", MapReqLpn = "map_req_lpn", MapReqUpdate = "map_req_update",
    MapReqValue = "map_req_value", MapReqId = "map_req_id", MapRespValid = "map_resp_valid", MapRespId = "map_resp_id",
    MapRespData = "map_resp_data", MapDecValid = "map_dec_valid", MapDecId = "map_dec_id", MapDecHit = "map_dec_hit",
    MapDecWay = "map_dec_way", MapDecEvict = "map_dec_evict", MapDecEvictLpn = "map_dec_evict_lpn",
    MapDecEvictDirty = "map_dec_evict_dirty", TpReqValid = "map_tp_req_valid", TpReqTp = "map_tp_req_tp",
    TpReqSlot = "map_tp_req_slot", TpReqEvictTp = "map_tp_req_evict_tp", TpReqEvictDirty = "map_tp_req_evict_dirty",
    TpDone = "map_tp_done",
    DramCmdValid = "dram_cmd_valid", DramCmdReady = "dram_cmd_ready", DramCmdWrite = "dram_cmd_write",
    DramCmdAddr = "dram_cmd_addr", DramWdataValid = "dram_wdata_valid", DramWdataReady = "dram_wdata_ready",
    DramWdata = "dram_wdata", DramRdataValid = "dram_rdata_valid", DramRdata = "dram_rdata",
    NandCmdValid = "nand_cmd_valid", NandCmdChannel = "nand_cmd_channel", NandCmdWay = "nand_cmd_way",
    NandCmdOp = "nand_cmd_op", NandCmdReady = "nand_cmd_ready",
}

/// A per-channel port (NAND PHY bundle, completion port of the array).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChSig {
    Rb,
    DqIn,
    DqInValid,
    DoneValid,
    DoneWay,
    Ce,
    Cle,
    Ale,
    We,
    DqOut,
    WrBeat,
    RdBeat,
}

const ARRAYS: [&str; 12] = ["phy$#$rb", "phy$#$dq_in", "phy$#$dq_in_valid", "nand_done_valid$#", "nand_done_way$#", "phy$#$ce", "phy$#$cle", "phy$#$ale", "phy$#$we", "phy$#$dq_out", "phy$#$wr_beat", "phy$#$rd_beat"];

/// A port by dense index: scalars first (by [`Sig`] discriminant), then 12 groups of `CHANNELS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct P(pub usize);

impl Sig {
    pub fn p(self) -> P {
        P(self as usize)
    }
}

impl ChSig {
    /// The port of channel `ch`.
    pub fn at(self, ch: usize) -> P {
        assert!(ch < CHANNELS, "channel {ch}");
        P(SCALARS.len() + self as usize * CHANNELS + ch)
    }
}

/// Every port's Verilog name, in [`P`] order.
pub fn names() -> Vec<String> {
    let mut v: Vec<String> = SCALARS.iter().map(|n| n.to_string()).collect();
    for a in ARRAYS {
        v.extend((0..CHANNELS).map(|c| a.replace('#', &c.to_string())));
    }
    v
}

/// One cycle-stepped execution of the datapath's ports.
pub trait DatapathDut {
    /// Sets an input of up to 64 bits.
    fn set(&mut self, p: P, v: u64);
    /// Sets a 128-bit input.
    fn set128(&mut self, p: P, v: u128);
    /// Reads an output (or input) of up to 64 bits as of the last `eval`.
    fn get(&self, p: P) -> u64;
    fn get128(&self, p: P) -> u128;
    /// Settles combinational logic after inputs changed.
    fn eval(&mut self);
    /// One rising edge of `clock`.
    fn tick(&mut self);
    fn name(&self) -> &'static str;
}

/// The Verilated `module top`.
pub struct VerilatorDut {
    pub m: VerilatorModel,
    ids: Vec<PortId>,
}

impl VerilatorDut {
    pub fn new(m: VerilatorModel) -> Result<Self, RunnerError> {
        let ids = names().iter().map(|n| m.port(n)).collect::<Result<Vec<_>, _>>()?;
        Ok(VerilatorDut { m, ids })
    }
}

impl DatapathDut for VerilatorDut {
    fn set(&mut self, p: P, v: u64) {
        self.m.set(self.ids[p.0], v);
    }
    fn set128(&mut self, p: P, v: u128) {
        self.m.set_wide(self.ids[p.0], &[v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]);
    }
    fn get(&self, p: P) -> u64 {
        self.m.get(self.ids[p.0])
    }
    fn get128(&self, p: P) -> u128 {
        self.m.get_wide(self.ids[p.0]).iter().rev().fold(0u128, |a, x| a << 32 | *x as u128)
    }
    fn eval(&mut self) {
        self.m.eval();
    }
    fn tick(&mut self) {
        self.m.tick(self.ids[Sig::Clock as usize]);
    }
    fn name(&self) -> &'static str {
        "verilator"
    }
}
