//! Cycle-by-cycle driving of the rust_hdl front end's streams by the root-complex model.

use super::{RootComplex, SeenTlp};
use crate::nvme::frontend::NvmeFrontEnd;
use crate::pcie::tlp::{CcDesc, ReqDesc, REQ_MRD, REQ_MWR};
use ssdlab_model::nvme::frontend::tlp::{Cycle, TlpKind, CLOCK_PS};
use rust_hdl::prelude::*;

impl RootComplex {
    /// Sets the front end's stream inputs for cycle `cycle` (before the clock edge).
    pub fn drive(&mut self, cycle: Cycle, uut: &mut NvmeFrontEnd) {
        uut.cq_tvalid.next = false;
        uut.cq_tlast.next = false;
        uut.cq_tdata.next = 0u128.to_bits();
        if let Some(b) = self.cq_beats.front() {
            assert!(b.cycle >= cycle, "CQ beat for cycle {} missed (now {cycle})", b.cycle);
            if b.cycle == cycle {
                uut.cq_tvalid.next = true;
                uut.cq_tlast.next = b.last;
                uut.cq_tdata.next = b.data.to_bits();
            }
        }
        uut.rc_tvalid.next = false;
        uut.rc_tlast.next = false;
        uut.rc_tdata.next = 0u128.to_bits();
        if let Some(b) = self.rc_beats.front() {
            assert!(b.cycle >= cycle, "RC beat for cycle {} missed (now {cycle})", b.cycle);
            if b.cycle == cycle {
                uut.rc_tvalid.next = true;
                uut.rc_tlast.next = b.last;
                uut.rc_tdata.next = b.data.to_bits();
                self.rc_beats.pop_front();
            }
        }
        uut.cc_tready.next = true;
        // The link takes a TLP header once it is free (the ceiling); payload beats flow.
        let free_ps = self.link.free_at(ssdlab_model::pcie::link::Dir::Up).as_ps();
        uut.rq_tready.next = !self.rq_cur.is_empty() || free_ps <= cycle * CLOCK_PS;
    }

    /// Samples the front end's outputs in cycle `cycle` (after the settle, before the edge).
    pub fn observe(&mut self, cycle: Cycle, uut: &NvmeFrontEnd) {
        if uut.cq_tvalid.val() && uut.cq_tready.val() {
            self.cq_beats.pop_front();
        } else if let Some(b) = self.cq_beats.front_mut() {
            if b.cycle == cycle {
                // Not taken: retry the remaining beats one cycle later.
                for x in self.cq_beats.iter_mut() {
                    x.cycle += 1;
                }
            }
        }
        if uut.cc_tvalid.val() {
            self.cc_cur.push(uut.cc_tdata.val().to_u128());
            if uut.cc_tlast.val() {
                let d = CcDesc::unpack(self.cc_cur[0]);
                let data = match (d.dwords, self.cc_cur.len()) {
                    (0, 1) => None,
                    (1 | 2, 2) => Some(self.cc_cur[1] as u64 & if d.dwords == 1 { 0xFFFF_FFFF } else { u64::MAX }),
                    (n, beats) => panic!("CC completion of {n} dwords in {beats} beats"),
                };
                if let Some(w) = data {
                    self.mmio_reads.push(w);
                }
                self.cc_log.push((d, data));
                self.cc_cur.clear();
            }
        }
        if uut.rq_tvalid.val() {
            if self.rq_cur.is_empty() && self.rq_first.is_none() {
                self.rq_first = Some(cycle);
            }
            if uut.rq_tready.val() {
                self.rq_beat(cycle, uut.rq_tdata.val().to_u128(), uut.rq_tlast.val());
            }
        }
    }

    pub(super) fn rq_beat(&mut self, cycle: Cycle, data: u128, last: bool) {
        if self.rq_cur.is_empty() {
            let d = ReqDesc::unpack(data);
            let kind = if d.req_type == REQ_MRD { TlpKind::MemRead } else { TlpKind::MemWrite };
            let ready = self.rq_first.take().expect("header seen");
            let start = self.take_upstream(ready, kind, d.bytes());
            assert_eq!(start, cycle, "header accepted when the link model says it is free");
            self.seen.push(SeenTlp { kind, addr: d.addr, len: d.bytes(), cycle });
        }
        self.rq_cur.push(data);
        if !last {
            return;
        }
        let d = ReqDesc::unpack(self.rq_cur[0]);
        match d.req_type {
            REQ_MRD => {
                let (beats, _) = self.schedule_read(d.addr, d.bytes(), d.tag);
                self.rc_beats.extend(beats);
            }
            REQ_MWR => {
                let bytes: Vec<u8> = self.rq_cur[1..].iter().flat_map(|w| w.to_le_bytes()).take(d.bytes() as usize).collect();
                assert_eq!(bytes.len(), d.bytes() as usize, "MWr with {} payload bytes for {} named", bytes.len(), d.bytes());
                self.put(d.addr, &bytes);
            }
            t => panic!("front end sent request type {t:#x}"),
        }
        self.rq_cur.clear();
    }
}
