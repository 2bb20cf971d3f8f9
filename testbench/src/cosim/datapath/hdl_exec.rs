//! The rust_hdl execution of the datapath: `ssdlab_hdl::top::Datapath` in rust_hdl's own
//! simulation, stepped the way rust_hdl's `Simulation` does (`update_all` until nothing
//! changes) behind the [`DatapathDut`] interface, so the hardware bench (`hw_exec.rs`) drives it
//! exactly as it drives the Verilated Verilog. rust_hdl simulates this design slowly, so only
//! short runs use it; run it on a thread with `ssdlab_hdl::top::BUILD_STACK_BYTES` of stack.

use super::hw_exec::HwExec;
use super::sig::{ChSig, DatapathDut, Sig, CHANNELS, P};
use rust_hdl::prelude::*;
use ssdlab_hdl::top::Datapath;
use ssdlab_model::config::DriveConfig;

/// Writing a port from a u64/u128.
trait Wr {
    fn put(&mut self, v: u64);
    fn put128(&mut self, v: u128) {
        self.put(v as u64)
    }
}
impl Wr for Signal<In, Bit> {
    fn put(&mut self, v: u64) {
        self.next = v != 0;
    }
}
impl<const N: usize> Wr for Signal<In, Bits<N>> {
    fn put(&mut self, v: u64) {
        self.next = if N <= 64 {
            bits::<N>(v)
        } else {
            (v as u128).to_bits()
        };
    }
    fn put128(&mut self, v: u128) {
        self.next = v.to_bits();
    }
}
/// Reading a port as u64/u128.
trait Rd {
    fn u(&self) -> u64;
    fn u128(&self) -> u128 {
        self.u() as u128
    }
}
macro_rules! rd {
    ($($d:ident),*) => {$(
        impl Rd for Signal<$d, Bit> {
            fn u(&self) -> u64 {
                self.val() as u64
            }
        }
        impl<const N: usize> Rd for Signal<$d, Bits<N>> {
            fn u(&self) -> u64 {
                if N <= 64 { self.val().to_u64() } else { self.val().to_u128() as u64 }
            }
            fn u128(&self) -> u128 {
                self.val().to_u128()
            }
        }
    )*};
}
rd!(In, Out);

/// The rust_hdl simulation of the datapath.
pub struct HdlSimDut {
    uut: Box<Datapath>,
    /// The next `tick` raises `nand_clock` too.
    nand_too: bool,
}

impl HdlSimDut {
    pub fn new(cfg: &DriveConfig) -> Result<Self, String> {
        let mut uut = Datapath::new_boxed(cfg)?;
        uut.connect_all();
        check_all(uut.as_mut()).map_err(|e| format!("rust_hdl connection check: {e:?}"))?;
        let mut s = HdlSimDut {
            uut,
            nand_too: false,
        };
        s.settle();
        Ok(s)
    }
    fn settle(&mut self) {
        ssdlab_hdl::settle(self.uut.as_mut(), 256, "datapath");
    }
}

/// The rust_hdl execution (bench + simulated datapath).
pub type HdlExec = HwExec<HdlSimDut>;

/// Channel port `p` as (group, channel), if it is one.
fn channel_port(p: P) -> Option<(usize, usize)> {
    let first = ChSig::RbN.at(0).0;
    (p.0 >= first).then(|| ((p.0 - first) / CHANNELS, (p.0 - first) % CHANNELS))
}

macro_rules! dispatch {
    ($p:expr, $u:expr, $m:ident $args:tt, [$($s:ident => $f:ident),* $(,)?], $other:expr) => {{
        let i = $p.0;
        $(if i == Sig::$s as usize { return $u.$f.$m $args; })*
        $other
    }};
}

impl DatapathDut for HdlSimDut {
    fn set(&mut self, p: P, v: u64) {
        let u = &mut self.uut;
        if let Some((g, ch)) = channel_port(p) {
            let phy = &mut u.phy[ch];
            match g {
                x if x == ChSig::RbN as usize => phy.rb_n.put(v),
                x if x == ChSig::DqIn as usize => phy.dq_in.put(v),
                _ => panic!("channel port group {g} is not an input"),
            }
            return;
        }
        dispatch!(p, u, put(v), [
            CqTdata => cq_tdata, CqTvalid => cq_tvalid, CqTlast => cq_tlast, CcTready => cc_tready, RqTready => rq_tready,
            RcTdata => rc_tdata, RcTvalid => rc_tvalid, RcTlast => rc_tlast, MpsCode => mps_code, MrrsCode => mrrs_code,
            CmdStall => cmd_stall, CplValid => cpl_valid, CplSqid => cpl_sqid, CplCid => cpl_cid, CplStatus => cpl_status,
            CplDw0 => cpl_dw0, QcValid => qc_valid, QcSq => qc_sq, QcDel => qc_del, QcQid => qc_qid, QcBase => qc_base,
            QcSize => qc_size, QcCqid => qc_cqid, QcPrio => qc_prio, QcVec => qc_vec, QcIen => qc_ien, DmaValid => dma_valid,
            DmaToHost => dma_to_host, DmaPrp1 => dma_prp1, DmaPrp2 => dma_prp2, DmaLen => dma_len, DmaChannel => dma_channel,
            DmaWay => dma_way, DmaOffset => dma_offset, MapReqValid => map_req_valid, MapReqLpn => map_req_lpn,
            MapReqUpdate => map_req_update, MapReqValue => map_req_value, MapReqId => map_req_id, TpDone => map_tp_done,
            DramCmdReady => dram_cmd_ready, DramWdataReady => dram_wdata_ready, DramRdataValid => dram_rdata_valid,
            DramRdata => dram_rdata, NandCmdValid => nand_cmd_valid, NandCmdChannel => nand_cmd_channel,
            NandCmdWay => nand_cmd_way, NandCmdOp => nand_cmd_op, NandCmdArray => nand_cmd_array,
        ], panic!("port {p:?} is not an input"))
    }
    fn set128(&mut self, p: P, v: u128) {
        let u = &mut self.uut;
        dispatch!(p, u, put128(v), [CqTdata => cq_tdata, RcTdata => rc_tdata, NandCmdOp => nand_cmd_op], panic!("port {p:?} is not a wide input"))
    }
    fn get(&self, p: P) -> u64 {
        let u = &self.uut;
        if let Some((g, ch)) = channel_port(p) {
            let phy = &u.phy[ch];
            return match g {
                x if x == ChSig::DoneValid as usize => u.nand_done_valid[ch].u(),
                x if x == ChSig::DoneWay as usize => u.nand_done_way[ch].u(),
                x if x == ChSig::CeN as usize => phy.ce_n.u(),
                x if x == ChSig::Cle as usize => phy.cle.u(),
                x if x == ChSig::Ale as usize => phy.ale.u(),
                x if x == ChSig::WeN as usize => phy.we_n.u(),
                x if x == ChSig::Re as usize => phy.re.u(),
                x if x == ChSig::Dqs as usize => phy.dqs.u(),
                x if x == ChSig::DqsOe as usize => phy.dqs_oe.u(),
                x if x == ChSig::Dq as usize => phy.dq.u(),
                x if x == ChSig::DqOe as usize => phy.dq_oe.u(),
                _ => panic!("channel port group {g} is not read by the bench"),
            };
        }
        dispatch!(p, u, u(), [
            CqTready => cq_tready, RqTvalid => rq_tvalid, RqTlast => rq_tlast, RqTready => rq_tready, CmdValid => cmd_valid,
            RqTkeep => rq_tkeep, RqTuser => rq_tuser,
            CmdSqid => cmd_sqid, CplReady => cpl_ready, DmaReady => dma_ready, DmaDone => dma_done, DmaStatus => dma_status,
            PbErr => pb_err, MapReqReady => map_req_ready, MapRespValid => map_resp_valid, MapRespId => map_resp_id,
            MapRespData => map_resp_data, MapDecValid => map_dec_valid, MapDecId => map_dec_id, MapDecHit => map_dec_hit,
            MapDecWay => map_dec_way, MapDecEvict => map_dec_evict, MapDecEvictLpn => map_dec_evict_lpn,
            MapDecEvictDirty => map_dec_evict_dirty, TpReqValid => map_tp_req_valid, TpReqTp => map_tp_req_tp,
            TpReqSlot => map_tp_req_slot, TpReqEvictTp => map_tp_req_evict_tp, TpReqEvictDirty => map_tp_req_evict_dirty,
            DramCmdValid => dram_cmd_valid, DramCmdWrite => dram_cmd_write, DramCmdAddr => dram_cmd_addr,
            DramWdataValid => dram_wdata_valid, DramWdata => dram_wdata, NandCmdReady => nand_cmd_ready,
        ], panic!("port {p:?} is not read by the bench"))
    }
    fn get128(&self, p: P) -> u128 {
        let u = &self.uut;
        dispatch!(p, u, u128(), [RqTdata => rq_tdata, CmdW0 => cmd_w0, CmdW1 => cmd_w1, CmdW2 => cmd_w2, CmdW3 => cmd_w3], panic!("port {p:?} is not a 128-bit output"))
    }
    fn eval(&mut self) {
        self.settle();
    }
    fn tick(&mut self) {
        self.uut.clock.next = Clock { clk: true };
        if std::mem::take(&mut self.nand_too) {
            self.uut.nand_clock.next = Clock { clk: true };
        }
        self.settle();
        self.uut.clock.next = Clock { clk: false };
        self.uut.nand_clock.next = Clock { clk: false };
        self.settle();
    }
    fn nand_edge(&mut self) {
        self.uut.nand_clock.next = Clock { clk: true };
        self.settle();
        self.uut.nand_clock.next = Clock { clk: false };
        self.settle();
    }
    fn nand_with_tick(&mut self) {
        self.nand_too = true;
    }
    fn name(&self) -> &'static str {
        "rust_hdl"
    }
}
