//! The datapath's ports as one enum ([`Sig`], Verilog names as in docs/hdl.md; rust-hdl arrays
//! `name$i`, the ONFI pins `phy$i$pin`) and the cycle interface of a device under test
//! ([`DatapathDut`]) that the hardware bench (`hw_exec.rs`) drives: implemented by the Verilated
//! Verilog ([`VerilatorDut`]) and by rust_hdl's own simulation (`hdl_exec.rs`).

use crate::verilator::{PortId, Quiesce, RunnerError, SecondClock, VerilatorModel};
use ssdlab_model::nvme::frontend::tlp::CLOCK_PS;

/// Channels of the co-simulated drives (`setup::cosim_config`; their ways per channel vary).
pub const CHANNELS: usize = 8;

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
    Clock = "clock", NandClock = "nand_clock", CqTdata = "cq_tdata", CqTvalid = "cq_tvalid", CqTlast = "cq_tlast", CqTready = "cq_tready",
    CcTready = "cc_tready", RqTdata = "rq_tdata", RqTvalid = "rq_tvalid", RqTlast = "rq_tlast", RqTready = "rq_tready",
    RqTkeep = "rq_tkeep", RqTuser = "rq_tuser",
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
    NandCmdOp = "nand_cmd_op", NandCmdReady = "nand_cmd_ready", NandCmdArray = "nand_cmd_array",
}

/// A per-channel port (the channel's ONFI pins, `nand::phy::OnfiPins`, and the array's
/// completion port).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChSig {
    RbN,
    DqIn,
    DoneValid,
    DoneWay,
    CeN,
    Cle,
    Ale,
    WeN,
    Re,
    Dqs,
    DqsOe,
    Dq,
    DqOe,
}

const ARRAYS: [&str; 13] = [
    "phy$#$rb_n",
    "phy$#$dq_in",
    "nand_done_valid$#",
    "nand_done_way$#",
    "phy$#$ce_n",
    "phy$#$cle",
    "phy$#$ale",
    "phy$#$we_n",
    "phy$#$re",
    "phy$#$dqs",
    "phy$#$dqs_oe",
    "phy$#$dq",
    "phy$#$dq_oe",
];

/// A port by dense index: scalars first (by [`Sig`] discriminant), then 13 groups of `CHANNELS`.
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
    /// Sets an input of 65 to 128 bits (the PCIe data beats, the 69-bit NAND op word).
    fn set128(&mut self, p: P, v: u128);
    /// Reads an output (or input) of up to 64 bits as of the last `eval`.
    fn get(&self, p: P) -> u64;
    fn get128(&self, p: P) -> u128;
    /// Settles combinational logic after inputs changed.
    fn eval(&mut self);
    /// One rising edge of `clock`.
    fn tick(&mut self);
    /// A rising edge of `nand_clock` alone, now (between a `tick` and the next one, after an
    /// `eval`): the sequencer side samples the inputs of the last `eval`. Afterwards only
    /// sequencer-side outputs may have changed; the next `eval` makes outputs current.
    fn nand_edge(&mut self);
    /// The next `tick` raises `nand_clock` with `clock` (coincident edges: each side samples
    /// the other's values from before the edge).
    fn nand_with_tick(&mut self);
    fn name(&self) -> &'static str;
    /// Clocks up to `max` cycles with the inputs of the last `eval` (after which it must be
    /// called), stopping before the first cycle in which a `watch` port is non-zero or a
    /// `change` port differs from its value at entry; returns the cycles clocked (0: this
    /// execution cannot run ahead). Afterwards outputs are current (no `eval` needed). With
    /// `nand_ps` (the sequencer clock's period when it is not the PCIe clock), `nand_clock`
    /// rises as in the bench's own cycles (`nand_edge`, `nand_with_tick`), the first cycle run
    /// being PCIe cycle `from`.
    fn run_quiet(
        &mut self,
        _watch: &[P],
        _change: &[P],
        _max: u64,
        _from: u64,
        _nand_ps: Option<u64>,
    ) -> u64 {
        0
    }
}

/// The datapath's free-running state for the fast-forward of a quiescent `top`: the CQ
/// engine's 24-bit `now` counter (hdl/src/nvme/cq_post/kernel.rs) is read only by the
/// interrupt-coalescing deadline (`carm[i] & now == cdl[i]`) and when arming one
/// (`cdl = now + 1 + tcoal`), so it may be advanced arithmetically while no deadline is armed.
pub fn quiesce() -> Quiesce {
    Quiesce {
        counters: vec![("top.fe.cq.now".into(), 24)],
        guards: (0..9).map(|i| format!("top.fe.cq.carm${i}$q")).collect(),
    }
}

/// The Verilated `module top`, driven through the runner's packed interface: `set`/`get` touch
/// Rust-side buffers only; `eval` is one FFI call that also performs the rising edge `tick`
/// deferred (so a cycle costs one call and two model evaluations: edge, then new inputs).
pub struct VerilatorDut {
    pub m: VerilatorModel,
    ids: Vec<PortId>,
    /// A `tick` not yet performed (done by the next `eval`; no `get` in between).
    edge: bool,
    /// That tick raises `nand_clock` too.
    nand_too: bool,
    /// Fast-forward quiescent stretches in `run_quiet` (off for traced builds: the VCD would
    /// lack their time stamps).
    pub ff: bool,
    masks: (Vec<u32>, Vec<u32>),
}

impl VerilatorDut {
    pub fn new(m: VerilatorModel) -> Result<Self, RunnerError> {
        let ids = names()
            .iter()
            .map(|n| m.port(n))
            .collect::<Result<Vec<_>, _>>()?;
        let masks = (m.out_mask(), m.out_mask());
        Ok(VerilatorDut {
            m,
            ids,
            edge: false,
            nand_too: false,
            ff: true,
            masks,
        })
    }
}

impl DatapathDut for VerilatorDut {
    fn set(&mut self, p: P, v: u64) {
        self.m.put(self.ids[p.0], v as u128);
    }
    fn set128(&mut self, p: P, v: u128) {
        self.m.put(self.ids[p.0], v);
    }
    fn get(&self, p: P) -> u64 {
        assert!(!self.edge, "VerilatorDut: get after tick without eval");
        self.m.out(self.ids[p.0]) as u64
    }
    fn get128(&self, p: P) -> u128 {
        assert!(!self.edge, "VerilatorDut: get after tick without eval");
        self.m.out(self.ids[p.0])
    }
    fn eval(&mut self) {
        if self.edge && self.nand_too {
            // Directly on the model: the shim's edge evaluation sees both clocks rise; its input
            // buffer, where `nand_clock` stays 0, lowers it again after the edge.
            self.m.set(self.ids[Sig::NandClock as usize], 1);
            self.nand_too = false;
        }
        self.m.io(self.ids[Sig::Clock as usize], self.edge);
        self.edge = false;
    }
    fn nand_edge(&mut self) {
        assert!(!self.edge, "VerilatorDut: nand_edge between tick and eval");
        let p = self.ids[Sig::NandClock as usize];
        self.m.set(p, 1);
        self.m.eval();
        self.m.set(p, 0);
        self.m.eval();
    }
    fn nand_with_tick(&mut self) {
        self.nand_too = true;
    }
    fn tick(&mut self) {
        assert!(!self.edge, "VerilatorDut: two ticks without eval");
        self.edge = true;
    }
    fn run_quiet(
        &mut self,
        watch: &[P],
        change: &[P],
        max: u64,
        from: u64,
        nand_ps: Option<u64>,
    ) -> u64 {
        assert!(
            !self.edge,
            "VerilatorDut: run_quiet after tick without eval"
        );
        let (nz, chg) = &mut self.masks;
        nz.iter_mut().chain(chg.iter_mut()).for_each(|w| *w = 0);
        for (ps, mask) in [(watch, &mut *nz), (change, &mut *chg)] {
            for p in ps {
                self.m.mask_port(mask, self.ids[p.0]);
            }
        }
        let second = nand_ps.map(|period_ps| SecondClock {
            port: self.ids[Sig::NandClock as usize],
            period_ps,
            main_period_ps: CLOCK_PS,
            first_cycle: from,
        });
        self.m
            .run_quiet(self.ids[Sig::Clock as usize], nz, chg, max, self.ff, second)
    }
    fn name(&self) -> &'static str {
        "verilator"
    }
}
