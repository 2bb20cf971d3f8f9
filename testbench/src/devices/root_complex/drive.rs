//! Cycle-by-cycle driving of a rust_hdl PCIe user side (the front end, or any block with its four
//! streams through [`UserIn`] / [`UserOut`]) by the root-complex model.

use super::{keep_of, rq_sideband, RootComplex, SeenTlp};
use rust_hdl::prelude::*;
use ssdlab_hdl::nvme::frontend::NvmeFrontEnd;
use ssdlab_hdl::pcie::tlp::{CcDesc, ReqDesc, REQ_MRD, REQ_MWR};
use ssdlab_model::nvme::frontend::tlp::{Cycle, TlpKind, CLOCK_PS};

/// The root complex's drive of a PCIe user side for one cycle, as values, so any block with the
/// front end's four streams (`NvmeFrontEnd`, the datapath top `top::Datapath`) can be driven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UserIn {
    /// Completer request beat (data, last), if any this cycle.
    pub cq: Option<(u128, bool)>,
    /// Requester completion beat (data, last), if any this cycle.
    pub rc: Option<(u128, bool)>,
    /// The CQ beat's `(tkeep, tuser)` (PG156 `m_axis_cq_*`; 0 without a beat).
    pub cq_side: (u8, u128),
    /// The RC beat's `(tkeep, tuser)` (PG156 `m_axis_rc_*`; 0 without a beat).
    pub rc_side: (u8, u128),
    /// The link takes a requester beat this cycle.
    pub rq_tready: bool,
}

/// The user side's stream outputs (and the ready inputs) the root complex samples after the settle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UserOut {
    pub cq_tvalid: bool,
    pub cq_tready: bool,
    pub cc_tvalid: bool,
    pub cc_tdata: u128,
    pub cc_tlast: bool,
    pub rq_tvalid: bool,
    pub rq_tready: bool,
    pub rq_tdata: u128,
    pub rq_tlast: bool,
    pub rq_tkeep: u8,
    pub rq_tuser: u64,
    pub cc_tkeep: u8,
    pub cc_tuser: u64,
}

/// A block with the front end's four PCIe stream port groups under the front end's names
/// (`cq_*`, `cc_*`, `rq_*`, `rc_*`): `NvmeFrontEnd` and the datapath top `top::Datapath`, whose
/// PCIe ports are the same, so the root complex drives either.
pub trait PcieUserSide {
    /// Applies the root complex's drive of the PCIe user side (`RootComplex::drive_user`).
    fn drive_pcie(&mut self, i: &UserIn);
    /// The PCIe user side's outputs for `RootComplex::observe_user` (after the settle).
    fn pcie_out(&self) -> UserOut;
}

/// [`PcieUserSide`] for one block type, written once for both.
macro_rules! impl_pcie_user_side {
    ($block:ty) => {
        impl PcieUserSide for $block {
            fn drive_pcie(&mut self, i: &UserIn) {
                self.cq_tvalid.next = i.cq.is_some();
                self.cq_tlast.next = i.cq.is_some_and(|b| b.1);
                self.cq_tdata.next = i.cq.map_or(0, |b| b.0).to_bits();
                self.rc_tvalid.next = i.rc.is_some();
                self.rc_tlast.next = i.rc.is_some_and(|b| b.1);
                self.rc_tdata.next = i.rc.map_or(0, |b| b.0).to_bits();
                self.cq_tkeep.next = (i.cq_side.0 as u64).to_bits();
                self.cq_tuser.next = i.cq_side.1.to_bits();
                self.rc_tkeep.next = (i.rc_side.0 as u64).to_bits();
                self.rc_tuser.next = i.rc_side.1.to_bits();
                self.cc_tready.next = true;
                self.rq_tready.next = i.rq_tready;
            }

            fn pcie_out(&self) -> UserOut {
                UserOut {
                    cq_tvalid: self.cq_tvalid.val(),
                    cq_tready: self.cq_tready.val(),
                    cc_tvalid: self.cc_tvalid.val(),
                    cc_tdata: self.cc_tdata.val().to_u128(),
                    cc_tlast: self.cc_tlast.val(),
                    rq_tvalid: self.rq_tvalid.val(),
                    rq_tready: self.rq_tready.val(),
                    rq_tdata: self.rq_tdata.val().to_u128(),
                    rq_tlast: self.rq_tlast.val(),
                    rq_tkeep: self.rq_tkeep.val().to_u128() as u8,
                    rq_tuser: self.rq_tuser.val().to_u128() as u64,
                    cc_tkeep: self.cc_tkeep.val().to_u128() as u8,
                    cc_tuser: self.cc_tuser.val().to_u128() as u64,
                }
            }
        }
    };
}

impl_pcie_user_side!(NvmeFrontEnd);
impl_pcie_user_side!(ssdlab_hdl::top::Datapath);

impl RootComplex {
    /// Sets the front end's stream inputs for cycle `cycle` (before the clock edge).
    pub fn drive(&mut self, cycle: Cycle, uut: &mut NvmeFrontEnd) {
        uut.drive_pcie(&self.drive_user(cycle));
    }

    /// Samples the front end's outputs in cycle `cycle` (after the settle, before the edge).
    pub fn observe(&mut self, cycle: Cycle, uut: &NvmeFrontEnd) {
        self.observe_user(cycle, &uut.pcie_out());
    }

    /// The stream inputs for cycle `cycle` (completer completions are always taken).
    pub fn drive_user(&mut self, cycle: Cycle) -> UserIn {
        let mut i = UserIn::default();
        if let Some(b) = self.cq_beats.front() {
            assert!(
                b.cycle >= cycle,
                "CQ beat for cycle {} missed (now {cycle})",
                b.cycle
            );
            if b.cycle == cycle {
                i.cq = Some((b.data, b.last));
                i.cq_side = (b.keep, b.user);
            }
        }
        if let Some(b) = self.rc_beats.front() {
            assert!(
                b.cycle >= cycle,
                "RC beat for cycle {} missed (now {cycle})",
                b.cycle
            );
            if b.cycle == cycle {
                i.rc = Some((b.data, b.last));
                i.rc_side = (b.keep, b.user);
                self.rc_beats.pop_front();
            }
        }
        // The link takes a TLP header once it is free (the ceiling); payload beats flow.
        let free_ps = self.link.free_at(ssdlab_model::pcie::link::Dir::Up).as_ps();
        i.rq_tready = !self.rq_cur.is_empty() || free_ps <= cycle * CLOCK_PS;
        i
    }

    /// Takes the user side's outputs of cycle `cycle` (after the settle, before the edge).
    pub fn observe_user(&mut self, cycle: Cycle, o: &UserOut) {
        if o.cq_tvalid && o.cq_tready {
            self.cq_beats.pop_front();
        } else if let Some(b) = self.cq_beats.front_mut() {
            if b.cycle == cycle {
                // Not taken: retry the remaining beats one cycle later.
                for x in self.cq_beats.iter_mut() {
                    x.cycle += 1;
                }
            }
        }
        if o.cc_tvalid {
            // PG156 CC sideband: the 3-dword descriptor (0111b), then the read data's dwords;
            // discontinue and parity 0.
            let keep = match self.cc_cur.first() {
                None => 0x7,
                Some(&desc) => keep_of(CcDesc::unpack(desc).dwords as u32),
            };
            assert_eq!(
                (o.cc_tkeep, o.cc_tuser),
                (keep, 0),
                "CC beat {} tkeep/tuser",
                self.cc_cur.len()
            );
            self.cc_keep_log.push(o.cc_tkeep);
            self.cc_cur.push(o.cc_tdata);
            if o.cc_tlast {
                let d = CcDesc::unpack(self.cc_cur[0]);
                let data = match (d.dwords, self.cc_cur.len()) {
                    (0, 1) => None,
                    (1 | 2, 2) => Some(
                        self.cc_cur[1] as u64 & if d.dwords == 1 { 0xFFFF_FFFF } else { u64::MAX },
                    ),
                    (n, beats) => panic!("CC completion of {n} dwords in {beats} beats"),
                };
                if let Some(w) = data {
                    self.mmio_reads.push(w);
                }
                self.cc_log.push((d, data));
                self.cc_cur.clear();
            }
        }
        if o.rq_tvalid {
            if self.rq_cur.is_empty() && self.rq_first.is_none() {
                self.rq_first = Some(cycle);
            }
            if o.rq_tready {
                self.rq_beat(
                    cycle,
                    o.rq_tdata,
                    o.rq_tlast,
                    Some((o.rq_tkeep, o.rq_tuser)),
                );
            }
        }
    }

    /// Takes an RQ beat; `side` is its `(tkeep, tuser)`, checked against PG156
    /// ([`rq_sideband`]) when the block drives them.
    pub(super) fn rq_beat(
        &mut self,
        cycle: Cycle,
        data: u128,
        last: bool,
        side: Option<(u8, u64)>,
    ) {
        if self.rq_cur.is_empty() {
            let d = ReqDesc::unpack(data);
            let kind = if d.req_type == REQ_MRD {
                TlpKind::MemRead
            } else {
                TlpKind::MemWrite
            };
            let ready = self.rq_first.take().expect("header seen");
            let start = self.take_upstream(ready, kind, d.bytes());
            assert_eq!(
                start, cycle,
                "header accepted when the link model says it is free"
            );
            self.seen.push(SeenTlp {
                kind,
                addr: d.addr,
                len: d.bytes(),
                cycle,
            });
        }
        self.rq_cur.push(data);
        if let Some(side) = side {
            let dwords = ReqDesc::unpack(self.rq_cur[0]).dwords;
            let k = self.rq_cur.len() - 1;
            assert_eq!(
                side,
                rq_sideband(dwords, k),
                "RQ beat {k} of a {dwords}-dword request: (tkeep, tuser)"
            );
            self.rq_side_checked += 1;
            self.rq_side_cur.push(side);
        }
        if !last {
            return;
        }
        let d = ReqDesc::unpack(self.rq_cur[0]);
        if side.is_some() {
            let beats = std::mem::take(&mut self.rq_side_cur);
            self.rq_side_log.push((d.req_type, d.dwords, beats));
        }
        match d.req_type {
            REQ_MRD => {
                let (beats, _) = self.schedule_read(d.addr, d.bytes(), d.tag);
                self.rc_beats.extend(beats);
            }
            REQ_MWR => {
                let bytes: Vec<u8> = self.rq_cur[1..]
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .take(d.bytes() as usize)
                    .collect();
                assert_eq!(
                    bytes.len(),
                    d.bytes() as usize,
                    "MWr with {} payload bytes for {} named",
                    bytes.len(),
                    d.bytes()
                );
                self.put(d.addr, &bytes);
            }
            t => panic!("front end sent request type {t:#x}"),
        }
        self.rq_cur.clear();
    }
}
