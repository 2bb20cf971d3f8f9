//! Closed-loop driver test of `NvmeFrontEnd` (issue 7, "driver-like tests"): the root-complex
//! model plays the host driver (controller init, I/O queue pair 1, NVM Write then NVM Read
//! SQEs with PRP lists, doorbells), the bench plays the firmware: it takes each fetched NVM
//! command from `cmd_*`, starts its data transfer on `dma_*` with the command's PRP1/PRP2 and
//! (NLB + 1) × 512 B, keeps the written blocks in a 512 B-block store, and posts the completion
//! on `cpl_*` when `dma_done` comes. NVM Express Base 1.4 sections 4.3 (PRP lists), 4.6 (CQE),
//! 6.14/6.15 (NVM Read/Write: SLBA in CDW10-11, NLB 0-based in CDW12 bits 15:0).

use super::{cq_base, init, sq_base, Act, ACQ_BASE};
use rust_hdl::prelude::*;
use ssdlab_hdl::nvme::frontend::NvmeFrontEnd;
use ssdlab_model::config::DriveConfig;
use ssdlab_model::encoding::nvme::{opc, Status};
use ssdlab_model::encoding::nvme_regs::sq_doorbell;
use ssdlab_model::nvme::frontend::entry::{Cqe, Sqe};
use ssdlab_model::nvme::frontend::tlp::Cycle;
use ssdlab_model::nvme::frontend::tlp::TlpKind::{MemRead as MRd, MemWrite as MWr};
use ssdlab_testbench::devices::frontend_bench::{HdlBench, NextStage};
use ssdlab_testbench::devices::prp_bench::put_entries;
use std::collections::{HashMap, VecDeque};

const BLOCK: usize = 512;

/// A transfer in flight on `dma_*`.
struct Xfer {
    sqid: u16,
    sqe: Sqe,
    offered: bool,
    /// Device→host bytes (NVM Read) and how many the data path has taken.
    out: Vec<u8>,
    pos: usize,
    /// Host→device bytes (NVM Write) received so far.
    got: Vec<u8>,
}

/// The bench firmware's data side: one NVM Read/Write at a time through `dma_*`.
#[derive(Default)]
struct DataFw {
    pending: VecDeque<(u16, Sqe)>,
    cur: Option<Xfer>,
    /// Written blocks by LBA.
    store: HashMap<u64, Vec<u8>>,
    /// (cycle, cid) of each transfer start and end.
    starts: Vec<(Cycle, u16)>,
    ends: Vec<(Cycle, u16, u16)>,
}

fn slba(s: &Sqe) -> u64 {
    s.cdw10 as u64 | (s.cdw11 as u64) << 32
}
fn len_bytes(s: &Sqe) -> usize {
    ((s.cdw12 & 0xFFFF) as usize + 1) * BLOCK
}

impl NextStage for DataFw {
    fn take(&mut self, _: Cycle, sqid: u16, sqe: &Sqe) -> bool {
        let io = sqid != 0 && (sqe.opc == opc::NVM_WRITE || sqe.opc == opc::NVM_READ);
        if io {
            assert!(self.pending.len() < 8, "firmware queue bounded");
            self.pending.push_back((sqid, *sqe));
        }
        io
    }

    fn drive(&mut self, cycle: Cycle, uut: &mut NvmeFrontEnd) {
        if self.cur.is_none() {
            if let Some((sqid, sqe)) = self.pending.pop_front() {
                let n = len_bytes(&sqe) / BLOCK;
                let out: Vec<u8> = if sqe.opc == opc::NVM_READ {
                    (0..n as u64)
                        .flat_map(|i| {
                            self.store
                                .get(&(slba(&sqe) + i))
                                .expect("read of a written LBA")
                                .clone()
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                self.starts.push((cycle, sqe.cid));
                self.cur = Some(Xfer {
                    sqid,
                    sqe,
                    offered: true,
                    out,
                    pos: 0,
                    got: Vec::new(),
                });
            }
        }
        let x = self.cur.as_ref();
        uut.dma_valid.next = x.is_some_and(|x| x.offered);
        uut.dma_to_host.next = x.is_some_and(|x| x.sqe.opc == opc::NVM_READ);
        uut.dma_prp1.next = bits::<64>(x.map_or(0, |x| x.sqe.prp1));
        uut.dma_prp2.next = bits::<64>(x.map_or(0, |x| x.sqe.prp2));
        uut.dma_len.next = bits::<32>(x.map_or(0, |x| len_bytes(&x.sqe)) as u64);
        let mut w = [0u8; 16];
        let (out, pos) = x.map_or((&[][..], 0), |x| (&x.out[..], x.pos));
        let chunk = &out[pos.min(out.len())..(pos + 16).min(out.len())];
        w[..chunk.len()].copy_from_slice(chunk);
        uut.dma_bd_valid.next = pos < out.len();
        uut.dma_bd_data.next = u128::from_le_bytes(w).to_bits();
    }

    fn observe(&mut self, cycle: Cycle, uut: &NvmeFrontEnd) -> Option<(u16, u16, Status)> {
        let x = self.cur.as_mut()?;
        if uut.dma_ready.val() && uut.dma_valid.val() {
            x.offered = false;
        }
        if uut.dma_bd_ready.val() && uut.dma_bd_valid.val() {
            x.pos += 16;
        }
        if uut.dma_wd_valid.val() {
            let n = 4 * uut.dma_wd_dwords.val().to_u64() as usize;
            assert!(
                (4..=16).contains(&n),
                "cycle {cycle}: data beat of {n} bytes"
            );
            x.got
                .extend_from_slice(&uut.dma_wd_data.val().to_u128().to_le_bytes()[..n]);
        }
        if !uut.dma_done.val() {
            return None;
        }
        let status = uut.dma_status.val().to_u64() as u16;
        let x = self.cur.take().expect("transfer in flight");
        assert!(
            !x.offered,
            "cycle {cycle}: done before the transfer was taken"
        );
        if x.sqe.opc == opc::NVM_WRITE && status == 0 {
            assert_eq!(
                x.got.len(),
                len_bytes(&x.sqe),
                "NVM Write delivered every byte"
            );
            for (i, b) in x.got.chunks(BLOCK).enumerate() {
                self.store.insert(slba(&x.sqe) + i as u64, b.to_vec());
            }
        }
        self.ends.push((cycle, x.sqe.cid, status));
        let st = if status == 0 {
            Status::SUCCESS
        } else {
            Status {
                sct: (status >> 8) as u8,
                sc: status as u8,
            }
        };
        Some((x.sqid, x.sqe.cid, st))
    }
}

/// NVM command on SQ 1: 32 blocks (16 KiB) from LBA 0x100.
fn nvm(op: u8, cid: u16, prp1: u64, prp2: u64) -> Sqe {
    let mut s = Sqe::new(op, cid, 1, prp1, prp2);
    (s.cdw10, s.cdw11, s.cdw12) = (0x100, 0, 31);
    s
}

fn cqe(h: &HdlBench<DataFw>, addr: u64) -> Cqe {
    Cqe::decode(&h.rc.get(addr, 16))
}

/// Steps `h` until `done(h)`, at most `limit` more cycles.
fn run_till(
    h: &mut HdlBench<DataFw>,
    limit: Cycle,
    what: &str,
    done: impl Fn(&HdlBench<DataFw>) -> bool,
) {
    let end = h.cycle + limit;
    while !done(h) {
        assert!(
            h.cycle < end,
            "{what}: not within {limit} cycles (now cycle {})",
            h.cycle
        );
        h.run_until(h.cycle + 1);
    }
}

/// Data TLPs (type, address, bytes) in host region 0x40_0000..0x50_0000 since TLP `from`.
fn data_tlps(
    h: &HdlBench<DataFw>,
    from: usize,
) -> Vec<(ssdlab_model::nvme::frontend::tlp::TlpKind, u64, u32)> {
    h.rc.seen[from..]
        .iter()
        .filter(|t| (0x40_0000..0x50_0000).contains(&t.addr))
        .map(|t| (t.kind, t.addr, t.len))
        .collect()
}

#[test]
fn firmware_loop_writes_and_reads_back_16k_through_prp_lists() {
    let cfg = DriveConfig::default_drive();
    assert_eq!(
        (cfg.pcie.mps_bytes, cfg.pcie.mrrs_bytes),
        (256, 512),
        "the derivation below assumes MPS 256, MRRS 512"
    );
    let mut h = HdlBench::new(&cfg).with_stage(DataFw::default());
    for (t, a) in init(1, 8) {
        h.run_until(t);
        match a {
            Act::Mmio(off, v) => _ = h.rc.mmio_write(t, off, v),
            Act::Put(addr, b) => h.rc.put(addr, &b),
        }
    }
    run_till(&mut h, 2_000, "admin Create I/O CQ/SQ completions", |h| {
        cqe(h, ACQ_BASE + 16).cid == 101
    });
    // NVM Write, cid 0x11: PRP1 0x40_0100 (3840 B to the page end), PRP2 → list at 0x48_0000
    // of 4 entries (16384 − 3840 = 12544 B = 3 pages + 256 B): pages 0x40_3000, 0x40_1000,
    // 0x40_7000, 0x40_5000.
    let src: Vec<u8> = (0..16 * 1024u32)
        .map(|i| (i * 29 + (i >> 9) * 7 + 3) as u8)
        .collect();
    let wpages = [0x40_0100u64, 0x40_3000, 0x40_1000, 0x40_7000, 0x40_5000];
    let wlens = [0xF00usize, 4096, 4096, 4096, 256];
    let mut off = 0;
    for (p, n) in wpages.iter().zip(wlens) {
        h.rc.put(*p, &src[off..off + n]);
        off += n;
    }
    put_entries(&mut h.rc, 0x48_0000, &wpages[1..]);
    h.rc.put(
        sq_base(1),
        &nvm(opc::NVM_WRITE, 0x11, 0x40_0100, 0x48_0000).encode(),
    );
    let (n0, t) = (h.rc.seen.len(), h.cycle);
    h.rc.mmio_write(t, sq_doorbell(1), 1);
    run_till(&mut h, 6_000, "NVM Write CQE", |h| {
        cqe(h, cq_base(1)).cid == 0x11
    });
    let stored: Vec<u8> = (0..32u64)
        .flat_map(|i| h.stage.store[&(0x100 + i)].clone())
        .collect();
    assert!(
        stored == src,
        "firmware holds the written bytes, LBA 0x100..0x120"
    );
    // Hand derivation (MRRS 512, requests end on 512-aligned addresses, PRP walk first):
    // list MRd 0x48_0000 32 B; page 1: 0x40_0100 256 B, then 0x40_0200..0x40_1000 7 × 512 B;
    // pages 0x40_3000, 0x40_1000, 0x40_7000: 8 × 512 B each; page 0x40_5000: 256 B. 34 TLPs.
    let mut want = vec![(MRd, 0x48_0000, 32), (MRd, 0x40_0100, 256)];
    want.extend((0..7).map(|k| (MRd, 0x40_0200 + 512 * k, 512)));
    for p in [0x40_3000u64, 0x40_1000, 0x40_7000] {
        want.extend((0..8).map(|k| (MRd, p + 512 * k, 512)));
    }
    want.push((MRd, 0x40_5000, 256));
    assert_eq!(data_tlps(&h, n0), want, "NVM Write data TLPs");
    // NVM Read of the same LBAs, cid 0x12, other shape: PRP1 0x44_0800 (2048 B), PRP2 → list at
    // 0x48_0FF0 whose two slots end the page, so slot 0x48_0FF8 chains to 0x48_2000:
    // 0x48_0FF0 = 0x44_5000, 0x48_0FF8 → 0x48_2000 = [0x44_3000, 0x44_1000, 0x44_7000 (2048 B)].
    put_entries(&mut h.rc, 0x48_0FF0, &[0x44_5000, 0x48_2000]);
    put_entries(&mut h.rc, 0x48_2000, &[0x44_3000, 0x44_1000, 0x44_7000]);
    h.rc.put(
        sq_base(1) + 64,
        &nvm(opc::NVM_READ, 0x12, 0x44_0800, 0x48_0FF0).encode(),
    );
    let (n1, t) = (h.rc.seen.len(), h.cycle);
    h.rc.mmio_write(t, sq_doorbell(1), 2);
    run_till(&mut h, 6_000, "NVM Read CQE", |h| {
        cqe(h, cq_base(1) + 16).cid == 0x12
    });
    let rpages = [
        (0x44_0800u64, 2048usize),
        (0x44_5000, 4096),
        (0x44_3000, 4096),
        (0x44_1000, 4096),
        (0x44_7000, 2048),
    ];
    let back: Vec<u8> = rpages.iter().flat_map(|(p, n)| h.rc.get(*p, *n)).collect();
    assert!(
        back == src,
        "NVM Read returns the written bytes at the new PRPs"
    );
    // Hand derivation: list MRd 0x48_0FF0 16 B (two slots to the page end), MRd 0x48_2000 24 B
    // (three entries); then MWr ≤ MPS 256 on 256-aligned boundaries: 2048/256 = 8 in page 1,
    // 16 in each full page, 8 in the last: 64 MWr of 256 B. 66 TLPs.
    let mut want = vec![(MRd, 0x48_0FF0, 16), (MRd, 0x48_2000, 24)];
    for (p, n) in rpages {
        want.extend((0..n as u64 / 256).map(|k| (MWr, p + 256 * k, 256)));
    }
    assert_eq!(data_tlps(&h, n1), want, "NVM Read data TLPs");
    // CQEs on CQ 1 (section 4.6): slot 0 write, slot 1 read; phase 1 (first pass); SQ head after
    // the fetch of each: 1, then 2.
    for (slot, cid, sqhd) in [(0u64, 0x11u16, 1u16), (1, 0x12, 2)] {
        let c = cqe(&h, cq_base(1) + 16 * slot);
        assert_eq!(
            (c.cid, c.sqid, c.sqhd, c.status, c.phase),
            (cid, 1, sqhd, Status::SUCCESS, true),
            "CQE slot {slot}"
        );
    }
    let ends: Vec<(u16, u16)> = h.stage.ends.iter().map(|e| (e.1, e.2)).collect();
    assert_eq!(
        ends,
        vec![(0x11, 0), (0x12, 0)],
        "both transfers ended with status 0"
    );
    println!(
        "write {:?}..{:?}, read {:?}..{:?} (cycle, cid); run {} cycles",
        h.stage.starts[0], h.stage.ends[0], h.stage.starts[1], h.stage.ends[1], h.cycle
    );
}
