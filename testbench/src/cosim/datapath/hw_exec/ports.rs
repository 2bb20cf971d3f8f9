//! The hardware bench's side of the firmware port: request inputs driven from the firmware's
//! offers, the handshakes taken, and the mapping cache's decision and response events.

use crate::cosim::datapath::port::*;
use crate::cosim::datapath::sig::{DatapathDut, Sig};

/// Sets every firmware-port request input from the offers.
pub(super) fn drive_offer<D: DatapathDut>(d: &mut D, o: &Offer) {
    let m = o.map.unwrap_or(MapReq {
        id: 0,
        lpn: 0,
        update: None,
    });
    for (s, v) in [
        (Sig::MapReqValid, o.map.is_some() as u64),
        (Sig::MapReqLpn, m.lpn as u64),
        (Sig::MapReqUpdate, m.update.is_some() as u64),
        (Sig::MapReqValue, m.update.unwrap_or(0) as u64),
        (Sig::MapReqId, m.id as u64),
    ] {
        d.set(s.p(), v);
    }
    let n = o.nand.unwrap_or(NandReq {
        channel: 0,
        way: 0,
        op: 0,
        array_cycles: 0,
    });
    for (s, v) in [
        (Sig::NandCmdValid, o.nand.is_some() as u64),
        (Sig::NandCmdChannel, n.channel as u64),
        (Sig::NandCmdWay, n.way as u64),
        (Sig::NandCmdArray, n.array_cycles),
    ] {
        d.set(s.p(), v);
    }
    d.set128(Sig::NandCmdOp.p(), n.op);
    let x = o.dma.unwrap_or(DmaReq {
        to_host: false,
        prp1: 0,
        prp2: 0,
        len: 0,
        channel: 0,
        way: 0,
        offset: 0,
    });
    for (s, v) in [
        (Sig::DmaValid, o.dma.is_some() as u64),
        (Sig::DmaToHost, x.to_host as u64),
        (Sig::DmaPrp1, x.prp1),
        (Sig::DmaPrp2, x.prp2),
        (Sig::DmaLen, x.len as u64),
        (Sig::DmaChannel, x.channel as u64),
        (Sig::DmaWay, x.way as u64),
        (Sig::DmaOffset, x.offset as u64),
    ] {
        d.set(s.p(), v);
    }
    let c = o.cpl.unwrap_or(CplReq {
        sqid: 0,
        cid: 0,
        status: 0,
    });
    for (s, v) in [
        (Sig::CplValid, o.cpl.is_some() as u64),
        (Sig::CplSqid, c.sqid as u64),
        (Sig::CplCid, c.cid as u64),
        (Sig::CplStatus, c.status as u64),
        (Sig::CplDw0, 0),
    ] {
        d.set(s.p(), v);
    }
    let q = o.qc.unwrap_or_default();
    for (s, v) in [
        (Sig::QcValid, o.qc.is_some() as u64),
        (Sig::QcSq, q.sq as u64),
        (Sig::QcDel, q.del as u64),
        (Sig::QcQid, q.qid as u64),
        (Sig::QcBase, q.base),
        (Sig::QcSize, q.size as u64),
        (Sig::QcCqid, q.cqid as u64),
        (Sig::QcVec, q.vec as u64),
        (Sig::QcIen, q.ien as u64),
        (Sig::QcPrio, q.prio as u64),
    ] {
        d.set(s.p(), v);
    }
}

/// The handshakes of this cycle (queue config has no ready: a one-cycle pulse).
pub(super) fn taken<D: DatapathDut>(d: &D, o: &Offer) -> Taken {
    Taken {
        map: o.map.is_some() && d.get(Sig::MapReqReady.p()) != 0,
        nand: o.nand.is_some() && d.get(Sig::NandCmdReady.p()) != 0,
        dma: o.dma.is_some() && d.get(Sig::DmaReady.p()) != 0,
        cpl: o.cpl.is_some() && d.get(Sig::CplReady.p()) != 0,
        qc: o.qc.is_some(),
    }
}

/// Mapping decisions and responses of this cycle.
pub(super) fn map_events<D: DatapathDut>(d: &D, ev: &mut Vec<HwEvent>) {
    if d.get(Sig::MapDecValid.p()) != 0 {
        let evict = (d.get(Sig::MapDecEvict.p()) != 0).then(|| {
            (
                d.get(Sig::MapDecEvictLpn.p()) as u32,
                d.get(Sig::MapDecEvictDirty.p()) != 0,
            )
        });
        ev.push(HwEvent::MapDec(MapDec {
            id: d.get(Sig::MapDecId.p()) as u8,
            hit: d.get(Sig::MapDecHit.p()) != 0,
            way: d.get(Sig::MapDecWay.p()) as u8,
            evict,
        }));
    }
    if d.get(Sig::MapRespValid.p()) != 0 {
        ev.push(HwEvent::MapResp {
            id: d.get(Sig::MapRespId.p()) as u8,
            data: d.get(Sig::MapRespData.p()) as u32,
        });
    }
}
