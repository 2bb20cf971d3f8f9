//! Port ids of the Verilated datapath (`module top` of `ssdlab_hdl::top::Datapath`, names as in
//! DATAPATH.md; rust-hdl arrays as `name$i`, the NAND PHY bundle as `phy$i$field`) and the
//! firmware-port part of one cycle: driving the offers, reading the handshakes and the mapping
//! cache's decisions and responses.

use super::port::*;
use crate::verilator::{PortId, RunnerError, VerilatorModel};

pub const CHANNELS: usize = 8;
pub const WAYS: usize = 4;

macro_rules! ports {
    ($($f:ident = $n:literal),* $(,)?) => {
        /// Every port the bench drives or reads.
        pub struct Ports {
            $(pub $f: PortId,)*
            pub rb: [PortId; CHANNELS],
            pub dq_in: [PortId; CHANNELS],
            pub dq_in_valid: [PortId; CHANNELS],
            pub done_valid: [PortId; CHANNELS],
            pub done_way: [PortId; CHANNELS],
            /// Per channel: ce, cle, ale, we, dq_out, wr_beat, rd_beat.
            pub phy: [[PortId; 7]; CHANNELS],
        }
        impl Ports {
            pub fn look_up(m: &VerilatorModel) -> Result<Ports, RunnerError> {
                let arr = |f: &dyn Fn(usize) -> String| -> Result<[PortId; CHANNELS], RunnerError> {
                    let v = (0..CHANNELS).map(|i| m.port(&f(i))).collect::<Result<Vec<_>, _>>()?;
                    Ok(v.try_into().expect("CHANNELS ports"))
                };
                let mut phy = [[PortId(0); 7]; CHANNELS];
                for (i, row) in phy.iter_mut().enumerate() {
                    for (k, f) in ["ce", "cle", "ale", "we", "dq_out", "wr_beat", "rd_beat"].iter().enumerate() {
                        row[k] = m.port(&format!("phy${i}${f}"))?;
                    }
                }
                Ok(Ports {
                    $($f: m.port($n)?,)*
                    rb: arr(&|i| format!("phy${i}$rb"))?,
                    dq_in: arr(&|i| format!("phy${i}$dq_in"))?,
                    dq_in_valid: arr(&|i| format!("phy${i}$dq_in_valid"))?,
                    done_valid: arr(&|i| format!("nand_done_valid${i}"))?,
                    done_way: arr(&|i| format!("nand_done_way${i}"))?,
                    phy,
                })
            }
        }
    };
}

ports! {
    clock = "clock", cq_tdata = "cq_tdata", cq_tvalid = "cq_tvalid", cq_tlast = "cq_tlast", cq_tready = "cq_tready",
    cc_tready = "cc_tready", rq_tdata = "rq_tdata", rq_tvalid = "rq_tvalid", rq_tlast = "rq_tlast", rq_tready = "rq_tready",
    rc_tdata = "rc_tdata", rc_tvalid = "rc_tvalid", rc_tlast = "rc_tlast", mps_code = "mps_code", mrrs_code = "mrrs_code",
    cmd_valid = "cmd_valid", cmd_sqid = "cmd_sqid", cmd_w0 = "cmd_w0", cmd_w1 = "cmd_w1", cmd_w2 = "cmd_w2", cmd_w3 = "cmd_w3",
    cmd_stall = "cmd_stall", cpl_valid = "cpl_valid", cpl_sqid = "cpl_sqid", cpl_cid = "cpl_cid", cpl_status = "cpl_status",
    cpl_dw0 = "cpl_dw0", cpl_ready = "cpl_ready", qc_valid = "qc_valid", qc_sq = "qc_sq", qc_del = "qc_del", qc_qid = "qc_qid",
    qc_base = "qc_base", qc_size = "qc_size", qc_cqid = "qc_cqid", qc_prio = "qc_prio", qc_vec = "qc_vec", qc_ien = "qc_ien",
    dma_valid = "dma_valid", dma_ready = "dma_ready", dma_to_host = "dma_to_host", dma_prp1 = "dma_prp1", dma_prp2 = "dma_prp2",
    dma_len = "dma_len", dma_channel = "dma_channel", dma_way = "dma_way", dma_offset = "dma_offset", dma_done = "dma_done",
    dma_status = "dma_status", pb_err = "pb_err",
    map_req_valid = "map_req_valid", map_req_ready = "map_req_ready", map_req_lpn = "map_req_lpn", map_req_update = "map_req_update",
    map_req_value = "map_req_value", map_req_id = "map_req_id", map_resp_valid = "map_resp_valid", map_resp_id = "map_resp_id",
    map_resp_data = "map_resp_data", map_dec_valid = "map_dec_valid", map_dec_id = "map_dec_id", map_dec_hit = "map_dec_hit",
    map_dec_way = "map_dec_way", map_dec_evict = "map_dec_evict", map_dec_evict_lpn = "map_dec_evict_lpn",
    map_dec_evict_dirty = "map_dec_evict_dirty", map_tp_req_valid = "map_tp_req_valid", tp_tp = "map_tp_req_tp",
    tp_slot = "map_tp_req_slot", tp_evict_tp = "map_tp_req_evict_tp", tp_evict_dirty = "map_tp_req_evict_dirty",
    map_tp_done = "map_tp_done",
    dram_cmd_valid = "dram_cmd_valid", dram_cmd_ready = "dram_cmd_ready", dram_cmd_write = "dram_cmd_write",
    dram_cmd_addr = "dram_cmd_addr", dram_wdata_valid = "dram_wdata_valid", dram_wdata_ready = "dram_wdata_ready",
    dram_wdata = "dram_wdata", dram_rdata_valid = "dram_rdata_valid", dram_rdata = "dram_rdata",
    nand_cmd_valid = "nand_cmd_valid", nand_cmd_channel = "nand_cmd_channel", nand_cmd_way = "nand_cmd_way",
    nand_cmd_op = "nand_cmd_op", nand_cmd_ready = "nand_cmd_ready",
}

/// One channel's PHY outputs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pins {
    pub ce: u8,
    pub cle: bool,
    pub ale: bool,
    pub we: bool,
    pub dq_out: u32,
    pub wr_beat: bool,
    pub rd_beat: bool,
}

impl Ports {
    /// Sets every firmware-port request input from the offers.
    pub fn drive_offer(&self, m: &mut VerilatorModel, o: &Offer) {
        let map = o.map.unwrap_or(MapReq { id: 0, lpn: 0, update: None });
        m.set(self.map_req_valid, o.map.is_some() as u64);
        m.set(self.map_req_lpn, map.lpn as u64);
        m.set(self.map_req_update, map.update.is_some() as u64);
        m.set(self.map_req_value, map.update.unwrap_or(0) as u64);
        m.set(self.map_req_id, map.id as u64);
        let n = o.nand.unwrap_or(NandReq { channel: 0, way: 0, op: 0, array_cycles: 0 });
        m.set(self.nand_cmd_valid, o.nand.is_some() as u64);
        m.set(self.nand_cmd_channel, n.channel as u64);
        m.set(self.nand_cmd_way, n.way as u64);
        m.set(self.nand_cmd_op, n.op);
        let d = o.dma.unwrap_or(DmaReq { to_host: false, prp1: 0, prp2: 0, len: 0, channel: 0, way: 0, offset: 0 });
        m.set(self.dma_valid, o.dma.is_some() as u64);
        m.set(self.dma_to_host, d.to_host as u64);
        m.set(self.dma_prp1, d.prp1);
        m.set(self.dma_prp2, d.prp2);
        m.set(self.dma_len, d.len as u64);
        m.set(self.dma_channel, d.channel as u64);
        m.set(self.dma_way, d.way as u64);
        m.set(self.dma_offset, d.offset as u64);
        let c = o.cpl.unwrap_or(CplReq { sqid: 0, cid: 0, status: 0 });
        m.set(self.cpl_valid, o.cpl.is_some() as u64);
        m.set(self.cpl_sqid, c.sqid as u64);
        m.set(self.cpl_cid, c.cid as u64);
        m.set(self.cpl_status, c.status as u64);
        m.set(self.cpl_dw0, 0);
        let q = o.qc.unwrap_or(QcReq { sq: false, del: false, qid: 0, base: 0, size: 0, cqid: 0, vec: 0, ien: false, prio: 0 });
        m.set(self.qc_valid, o.qc.is_some() as u64);
        m.set(self.qc_sq, q.sq as u64);
        m.set(self.qc_del, q.del as u64);
        m.set(self.qc_qid, q.qid as u64);
        m.set(self.qc_base, q.base);
        m.set(self.qc_size, q.size as u64);
        m.set(self.qc_cqid, q.cqid as u64);
        m.set(self.qc_vec, q.vec as u64);
        m.set(self.qc_ien, q.ien as u64);
        m.set(self.qc_prio, q.prio as u64);
    }

    /// The handshakes of this cycle (queue config has no ready: a one-cycle pulse).
    pub fn taken(&self, m: &VerilatorModel, o: &Offer) -> Taken {
        Taken {
            map: o.map.is_some() && m.get(self.map_req_ready) != 0,
            nand: o.nand.is_some() && m.get(self.nand_cmd_ready) != 0,
            dma: o.dma.is_some() && m.get(self.dma_ready) != 0,
            cpl: o.cpl.is_some() && m.get(self.cpl_ready) != 0,
            qc: o.qc.is_some(),
        }
    }

    /// Mapping decisions and responses of this cycle.
    pub fn map_events(&self, m: &VerilatorModel, ev: &mut Vec<HwEvent>) {
        if m.get(self.map_dec_valid) != 0 {
            let evict = (m.get(self.map_dec_evict) != 0).then(|| (m.get(self.map_dec_evict_lpn) as u32, m.get(self.map_dec_evict_dirty) != 0));
            ev.push(HwEvent::MapDec(MapDec { id: m.get(self.map_dec_id) as u8, hit: m.get(self.map_dec_hit) != 0, way: m.get(self.map_dec_way) as u8, evict }));
        }
        if m.get(self.map_resp_valid) != 0 {
            ev.push(HwEvent::MapResp { id: m.get(self.map_resp_id) as u8, data: m.get(self.map_resp_data) as u32 });
        }
    }

    pub fn pins(&self, m: &VerilatorModel, ch: usize) -> Pins {
        let p = &self.phy[ch];
        Pins {
            ce: m.get(p[0]) as u8,
            cle: m.get(p[1]) != 0,
            ale: m.get(p[2]) != 0,
            we: m.get(p[3]) != 0,
            dq_out: m.get(p[4]) as u32,
            wr_beat: m.get(p[5]) != 0,
            rd_beat: m.get(p[6]) != 0,
        }
    }
}
