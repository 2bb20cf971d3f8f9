//! Closed loop through the datapath top level (issue 9): the rust_hdl `Datapath` (front end +
//! PRP data path + page buffer + 8-channel NAND array + mapping cache) between the root-complex
//! model (host driver: controller init, I/O queue pair 1, one 4 KiB NVM Write, then an NVM Read
//! of it to another buffer) and four NAND targets at the ONFI pins of channel 3. A bench "firmware" drives only
//! the firmware port, never data: it takes fetched commands from `cmd_*`, applies queue creation
//! on `qc_*`, moves host data into page-buffer region (3, 1) on `dma_*`, programs it with a NAND
//! op on `nand_*`, records LPN -> row with a `map_*` update (a DRAM model serves the mapping
//! cache's line fill), looks the row up again for the read, reads the page back into the region,
//! moves it to the host, and completes on `cpl_*`. NVM Express Base 1.4 sections 4.3, 4.6,
//! 6.14/6.15; ONFI 4.1 (targets). rust_hdl simulates the whole top at a few hundred cycles per
//! second: one short run (~4 300 cycles).

use rust_hdl::prelude::*;
use ssdlab_hdl::nand::op::{pack_op, HdlOp};
use ssdlab_hdl::nand::plane_stride;
use ssdlab_hdl::top::{small_drive_config, Datapath};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::encoding::nvme::opc;
use ssdlab_model::encoding::nvme_regs::*;
use ssdlab_model::nand::phy::PhyTiming;
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::nvme::frontend::entry::{Cqe, Sqe};
use ssdlab_model::nvme::frontend::tlp::TlpKind;
use ssdlab_testbench::devices::onfi_pins::channel::PinChannel;
use ssdlab_testbench::devices::onfi_pins::dut::PhyOut;
use ssdlab_testbench::devices::onfi_pins::{OnfiPinTarget, PinPhase};
use ssdlab_testbench::devices::root_complex::host_init::{driver_init, Act, ACQ_BASE};
use ssdlab_testbench::devices::root_complex::{PcieUserSide, RootComplex};
use std::collections::VecDeque;

const SQ1: u64 = 0x31_0000;
const CQ1: u64 = 0x21_0000;
const WBUF: u64 = 0x40_0000;
const RBUF: u64 = 0x44_0000;
/// Channel and way whose page-buffer region and target the firmware uses.
const CH: usize = 3;
const WAY: usize = 1;
/// Array times the targets give the program and the read (cycles; short to keep the run short).
const T_PROG: u64 = 300;
const T_READ: u64 = 200;

/// One step of the bench firmware's script for the I/O command in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Data move between host and region (CH, WAY): to host or not.
    Dma(bool),
    /// NAND op on (CH, WAY): program or read of one 4 KiB page (program at `row()`, read at
    /// the row the mapping lookup returned).
    Nand(NandOpKind),
    /// Mapping-cache request for the command's LPN: update to `row()` (write) or lookup (read).
    Map(bool),
    Complete,
}

/// The bench firmware: queue config for admin commands, a data script for NVM Write/Read.
#[derive(Default)]
struct Firmware {
    qc: VecDeque<Sqe>,
    cpl: VecDeque<(u16, u16)>,
    io: VecDeque<Sqe>,
    cur: Option<(Sqe, VecDeque<Step>, bool)>,
    /// (cycle, op kind) of each NAND op accepted and each completion on (CH, WAY).
    nand_acc: Vec<(u64, NandOpKind)>,
    nand_done: Vec<u64>,
    dma_done: Vec<(u64, u16)>,
    /// Mapping decisions (hit, way, evict) and responses (id, value), in order.
    decs: Vec<(bool, u64, bool)>,
    resps: Vec<(u64, u32)>,
}

/// The command's logical page (4 KiB unit): SLBA x 512 B / 4096 B.
fn lpn(s: &Sqe) -> u64 {
    s.cdw10 as u64 / 8
}

fn row() -> u32 {
    5 * plane_stride(&small_drive_config()) + 2 // block 5, page 2
}

impl Firmware {
    fn handed(&mut self, sqid: u16, s: Sqe) {
        match (sqid, s.opc) {
            (0, opc::ADMIN_CREATE_IO_CQ | opc::ADMIN_CREATE_IO_SQ) => self.qc.push_back(s),
            (0, _) => self.cpl.push_back((0, s.cid)),
            (_, opc::NVM_WRITE | opc::NVM_READ) => self.io.push_back(s),
            (q, o) => panic!("unexpected command opcode {o:#x} on SQ {q}"),
        }
    }

    fn step(&self) -> Option<Step> {
        self.cur.as_ref().and_then(|c| c.1.front().copied())
    }

    /// Drives the firmware port for the coming cycle.
    fn drive(&mut self, u: &mut Datapath) {
        if self.cur.is_none() {
            if let Some(s) = self.io.pop_front() {
                let script = if s.opc == opc::NVM_WRITE {
                    [
                        Step::Dma(false),
                        Step::Nand(NandOpKind::Program),
                        Step::Map(true),
                        Step::Complete,
                    ]
                } else {
                    [
                        Step::Map(false),
                        Step::Nand(NandOpKind::Read),
                        Step::Dma(true),
                        Step::Complete,
                    ]
                };
                self.cur = Some((s, script.into(), true));
            }
        }
        u.qc_valid.next = false;
        if let Some(s) = self.qc.front() {
            let sq = s.opc == opc::ADMIN_CREATE_IO_SQ;
            (u.qc_valid.next, u.qc_sq.next, u.qc_del.next) = (true, sq, false);
            u.qc_qid.next = bits::<4>((s.cdw10 & 0xF) as u64);
            u.qc_size.next = bits::<16>((s.cdw10 >> 16) as u64);
            u.qc_base.next = bits::<64>(s.prp1);
            u.qc_cqid.next = bits::<4>(if sq { (s.cdw11 >> 16) as u64 } else { 0 });
            u.qc_vec.next = bits::<4>(if sq { 0 } else { (s.cdw11 >> 16) as u64 & 0xF });
            (u.qc_ien.next, u.qc_prio.next) = (!sq && s.cdw11 & 2 != 0, bits::<2>(0));
        }
        u.cpl_valid.next = !self.cpl.is_empty();
        let (sq, cid) = self.cpl.front().copied().unwrap_or((0, 0));
        (
            u.cpl_sqid.next,
            u.cpl_cid.next,
            u.cpl_status.next,
            u.cpl_dw0.next,
        ) = (
            bits::<4>(sq as u64),
            bits::<16>(cid as u64),
            bits::<11>(0),
            bits::<32>(0),
        );
        let (offer, s) = self
            .cur
            .as_ref()
            .map_or((false, Sqe::new(0, 0, 0, 0, 0)), |c| (c.2, c.0));
        u.dma_valid.next = offer && matches!(self.step(), Some(Step::Dma(_)));
        u.dma_to_host.next = self.step() == Some(Step::Dma(true));
        (u.dma_prp1.next, u.dma_prp2.next, u.dma_len.next) =
            (bits::<64>(s.prp1), bits::<64>(s.prp2), bits::<32>(4096));
        (u.dma_channel.next, u.dma_way.next, u.dma_offset.next) =
            (bits::<4>(CH as u64), bits::<3>(WAY as u64), bits::<32>(0));
        u.nand_cmd_valid.next = false;
        if let (true, Some(Step::Nand(kind))) = (offer, self.step()) {
            let r = if kind == NandOpKind::Read {
                self.resps.last().expect("lookup before the read").1
            } else {
                row()
            };
            let op = HdlOp {
                kind,
                planes: 1,
                row: r,
                data_cycles: 1024,
                pages: 1,
                column: 0,
            };
            u.nand_cmd_valid.next = true;
            (u.nand_cmd_channel.next, u.nand_cmd_way.next) =
                (bits::<4>(CH as u64), bits::<3>(WAY as u64));
            u.nand_cmd_op.next = ssdlab_hdl::nand::op::op_bits(pack_op(&op));
        }
        u.map_req_valid.next = false;
        if let (true, Some(Step::Map(update))) = (offer, self.step()) {
            (u.map_req_valid.next, u.map_req_update.next) = (true, update);
            (u.map_req_lpn.next, u.map_req_value.next) =
                (bits::<32>(lpn(&s)), bits::<32>(row() as u64));
            u.map_req_id.next = bits::<8>(s.cid as u64 & 0xFF);
        }
    }

    /// Samples the firmware port after the settle; returns the array cycles of an accepted op.
    fn observe(&mut self, n: u64, u: &Datapath) -> Option<u64> {
        if u.cmd_valid.val() {
            let mut raw = [0u8; 64];
            for (i, w) in [&u.cmd_w0, &u.cmd_w1, &u.cmd_w2, &u.cmd_w3]
                .iter()
                .enumerate()
            {
                raw[16 * i..16 * i + 16].copy_from_slice(&w.val().to_u128().to_le_bytes());
            }
            self.handed(u.cmd_sqid.val().to_u64() as u16, Sqe::decode(&raw));
        }
        if u.qc_valid.val() {
            let s = self.qc.pop_front().expect("qc offered");
            self.cpl.push_back((0, s.cid));
        }
        if u.cpl_valid.val() && u.cpl_ready.val() {
            self.cpl.pop_front();
        }
        assert!(!u.pb_err.val(), "cycle {n}: page-buffer error");
        if u.map_dec_valid.val() {
            self.decs.push((
                u.map_dec_hit.val(),
                u.map_dec_way.val().to_u64(),
                u.map_dec_evict.val(),
            ));
        }
        let mut array = None;
        let step = self.step();
        let cur = self.cur.as_mut()?;
        match step {
            Some(Step::Dma(_)) if u.dma_valid.val() && u.dma_ready.val() => cur.2 = false,
            Some(Step::Dma(_)) if u.dma_done.val() => {
                self.dma_done.push((n, u.dma_status.val().to_u64() as u16));
                cur.1.pop_front();
                cur.2 = true;
            }
            Some(Step::Nand(k)) if u.nand_cmd_valid.val() && u.nand_cmd_ready.val() => {
                self.nand_acc.push((n, k));
                cur.2 = false;
                array = Some(if k == NandOpKind::Program {
                    T_PROG
                } else {
                    T_READ
                });
            }
            Some(Step::Nand(_)) if u.nand_done_valid[CH].val() => {
                assert_eq!(
                    u.nand_done_way[CH].val().to_u64(),
                    WAY as u64,
                    "cycle {n}: completion way"
                );
                self.nand_done.push(n);
                cur.1.pop_front();
                cur.2 = true;
            }
            Some(Step::Map(_)) if u.map_req_valid.val() && u.map_req_ready.val() => cur.2 = false,
            Some(Step::Map(_)) if u.map_resp_valid.val() => {
                assert_eq!(
                    u.map_resp_id.val().to_u64(),
                    cur.0.cid as u64 & 0xFF,
                    "cycle {n}: response tag"
                );
                self.resps.push((n, u.map_resp_data.val().to_u64() as u32));
                cur.1.pop_front();
                cur.2 = true;
            }
            Some(Step::Complete) => {
                self.cpl.push_back((1, cur.0.cid));
                self.cur = None;
            }
            _ => {}
        }
        array
    }
}

/// The datapath with its host, firmware and channel-`CH` targets, stepped one cycle at a time.
struct Bench {
    u: Box<Datapath>,
    rc: RootComplex,
    fw: Firmware,
    /// Channel CH's ONFI pins and its four targets (one per way).
    ch: PinChannel,
    n: u64,
    /// Cycles with a CE# low on any other channel.
    other_ce: u64,
    /// Mapping-table DRAM: read beats (cycle, data) scheduled for the cache, commands seen.
    dram_beats: VecDeque<(u64, u32)>,
    dram_cmds: Vec<(bool, u64)>,
}

/// DRAM latency from command handshake to first read beat, cycles (one beat per cycle after).
const DRAM_LATENCY: u64 = 6;

impl Bench {
    fn new(cfg: &DriveConfig) -> Self {
        let mut u = Datapath::new_boxed(cfg).expect("small drive fits the datapath");
        u.connect_all();
        let target = OnfiPinTarget::new(&cfg.onfi, 4, plane_stride(cfg), 4096);
        Bench {
            u,
            rc: RootComplex::new(&cfg.pcie),
            fw: Firmware::default(),
            ch: PinChannel::new(target),
            n: 0,
            other_ce: 0,
            dram_beats: VecDeque::new(),
            dram_cmds: Vec::new(),
        }
    }

    fn step(&mut self) {
        let (n, u) = (self.n, &mut *self.u);
        u.clock.next = Clock { clk: false };
        u.drive_pcie(&self.rc.drive_user(n));
        // MPS 256, MRRS 512 (Device Control encodings 1 and 2).
        (u.mps_code.next, u.mrrs_code.next, u.cmd_stall.next) = (bits::<3>(1), bits::<3>(2), false);
        (
            u.map_tp_done.next,
            u.dram_cmd_ready.next,
            u.dram_wdata_ready.next,
        ) = (false, true, true);
        let beat = self.dram_beats.front().filter(|b| b.0 == n).copied();
        (u.dram_rdata_valid.next, u.dram_rdata.next) =
            (beat.is_some(), bits::<32>(beat.map_or(0, |b| b.1) as u64));
        if beat.is_some() {
            self.dram_beats.pop_front();
        }
        self.fw.drive(u);
        for c in 0..8 {
            (u.phy[c].rb_n.next, u.phy[c].dq_in.next) = (bits::<8>(0xFF), bits::<32>(0));
        }
        u.phy[CH].rb_n.next = bits::<8>(self.ch.rb as u64);
        u.phy[CH].dq_in.next = bits::<32>(self.ch.dq_in() as u64);
        u.settle();
        self.rc.observe_user(n, &u.pcie_out());
        if u.dram_cmd_valid.val() {
            // A fresh table (entries 0): a line read returns 8 zero entries.
            self.dram_cmds
                .push((u.dram_cmd_write.val(), u.dram_cmd_addr.val().to_u64()));
            assert!(
                !u.dram_cmd_write.val(),
                "cycle {n}: no dirty line is evicted in this run"
            );
            self.dram_beats
                .extend((0..8).map(|k| (n + DRAM_LATENCY + k, 0)));
        }
        assert!(
            !u.map_tp_req_valid.val(),
            "cycle {n}: translation page 0 is resident at boot"
        );
        if let Some(array) = self.fw.observe(n, u) {
            self.ch.target.ways[WAY].push_array_cycles(array);
        }
        self.nand_pins(n);
        let u = &mut *self.u;
        u.clock.next = Clock { clk: true };
        u.settle();
        self.n += 1;
    }

    /// Plays the targets on channel CH's pins (as `cosim::channel_bench` at the pins does).
    fn nand_pins(&mut self, n: u64) {
        let u = &*self.u;
        self.other_ce += (0..8)
            .filter(|&c| c != CH && u.phy[c].ce_n.val().to_u64() != 0xFF)
            .count() as u64;
        let p = &u.phy[CH];
        let v = |s: &Signal<Out, Bit>| s.val();
        let pins = PhyOut {
            ce_n: p.ce_n.val().to_u64() as u8,
            cle: v(&p.cle),
            ale: v(&p.ale),
            we_n: v(&p.we_n),
            re: p.re.val().to_u64() as u8,
            dqs: p.dqs.val().to_u64() as u8,
            dqs_oe: v(&p.dqs_oe),
            dq: p.dq.val().to_u64() as u32,
            dq_oe: v(&p.dq_oe),
            ..Default::default()
        };
        self.ch.cycle(&pins);
        let report = self.ch.target.report();
        assert!(report.is_empty(), "cycle {n}: ONFI violation: {report}");
    }

    fn run_till(&mut self, limit: u64, what: &str, done: impl Fn(&Bench) -> bool) {
        let end = self.n + limit;
        while !done(self) {
            assert!(
                self.n < end,
                "{what}: not within {limit} cycles (now cycle {})",
                self.n
            );
            self.step();
        }
    }

    fn cqe(&self, addr: u64) -> Cqe {
        Cqe::decode(&self.rc.get(addr, 16))
    }
}

/// Driver init (NVMe 1.4 section 7.6.1): admin queues, MSI-X vectors 0..=1, CC.EN, then Create
/// I/O CQ 1 / SQ 1 (8 entries) through the admin SQ.
fn init(b: &mut Bench) {
    for (t, a) in driver_init(2, 1, 8, 8, &[]) {
        b.run_till(t + 1, "init", |b| b.n >= t);
        match a {
            Act::Mmio(off, v) => {
                b.rc.mmio_write(t, off, v);
            }
            Act::Put(addr, bytes) => b.rc.put(addr, &bytes),
        }
    }
    b.run_till(2_000, "Create I/O CQ/SQ completions", |b| {
        b.cqe(ACQ_BASE + 16).cid == 101
    });
}

/// NVM command on SQ 1: 8 blocks (4 KiB) at LBA 0x40 (LPN 8), PRP1 page aligned (PRP2 unused).
fn nvm(op: u8, cid: u16, prp1: u64) -> Sqe {
    let mut s = Sqe::new(op, cid, 1, prp1, 0);
    (s.cdw10, s.cdw11, s.cdw12) = (0x40, 0, 7);
    s
}

#[test]
fn host_write_then_read_back_4k_through_page_buffer_and_nand() {
    let cfg = small_drive_config();
    assert_eq!(
        (cfg.pcie.mps_bytes, cfg.pcie.mrrs_bytes),
        (256, 512),
        "the derivation below assumes MPS 256, MRRS 512"
    );
    let mut b = Bench::new(&cfg);
    init(&mut b);
    let src: Vec<u8> = (0..4096u32)
        .map(|i| (i * 37 + (i >> 8) * 11 + 5) as u8)
        .collect();
    b.rc.put(WBUF, &src);
    b.rc.put(SQ1, &nvm(opc::NVM_WRITE, 0x21, WBUF).encode());
    let n0 = b.rc.seen.len();
    b.rc.mmio_write(b.n, sq_doorbell(1), 1);
    b.run_till(20_000, "NVM Write CQE", |b| b.cqe(CQ1).cid == 0x21);
    b.rc.put(SQ1 + 64, &nvm(opc::NVM_READ, 0x22, RBUF).encode());
    b.rc.mmio_write(b.n, sq_doorbell(1), 2);
    b.run_till(20_000, "NVM Read CQE", |b| b.cqe(CQ1 + 16).cid == 0x22);
    assert!(
        b.rc.get(RBUF, 4096) == src,
        "NVM Read returns the 4096 bytes written, through region (3, 1) and the flash page"
    );
    // Data TLPs: the write's 4 KiB in MRd of MRRS 512 (8), the read's in MWr of MPS 256 (16).
    let data: Vec<(TlpKind, u64, u32)> = b.rc.seen[n0..]
        .iter()
        .filter(|t| (WBUF..RBUF + 4096).contains(&t.addr))
        .map(|t| (t.kind, t.addr, t.len))
        .collect();
    let mut want: Vec<(TlpKind, u64, u32)> = (0..8)
        .map(|k| (TlpKind::MemRead, WBUF + 512 * k, 512))
        .collect();
    want.extend((0..16).map(|k| (TlpKind::MemWrite, RBUF + 256 * k, 256)));
    assert_eq!(data, want, "data TLPs");
    // CQEs (section 4.6): slot 0 write, slot 1 read, phase 1, SQ head 1 then 2.
    for (slot, cid, sqhd) in [(0u64, 0x21u16, 1u16), (1, 0x22, 2)] {
        let c = b.cqe(CQ1 + 16 * slot);
        assert_eq!(
            (c.cid, c.sqid, c.sqhd, c.status.field(), c.phase),
            (cid, 1, sqhd, 0, true),
            "CQE slot {slot}"
        );
    }
    // NAND: one program then one read on (3, 1), at the pins. Data in: 4096 B on 4096 DQS
    // edges in one burst of 1024 cycles (4 bytes per cycle) inside the PHY's DQS preamble and
    // postamble. Data out: the program's status byte after 70h (one 4-edge cycle), then the
    // read's 4096 B on 4096 RE# edges in one burst inside the RE# preamble and postamble.
    let kinds: Vec<NandOpKind> = b.fw.nand_acc.iter().map(|a| a.1).collect();
    assert_eq!(kinds, vec![NandOpKind::Program, NandOpKind::Read]);
    assert_eq!(b.fw.nand_done.len(), 2);
    let t = PhyTiming::new(&cfg.onfi).expect("the PHY elaborates");
    let (din, dout): (Vec<PinPhase>, Vec<PinPhase>) =
        b.ch.target
            .phases
            .iter()
            .filter(|p| matches!(p, PinPhase::DataIn { .. } | PinPhase::DataOut { .. }))
            .partition(|p| matches!(p, PinPhase::DataIn { .. }));
    let q = |cycles: u32| 4 * cycles as u64;
    assert_eq!(
        din,
        vec![PinPhase::DataIn {
            quarters: q(t.wpre + 1024 + t.wpst),
            edges: 4096
        }],
        "data in: one contiguous burst"
    );
    assert_eq!(
        dout,
        vec![
            PinPhase::DataOut {
                quarters: q(t.rpre + 1 + t.rpst),
                edges: 4
            },
            PinPhase::DataOut {
                quarters: q(t.rpre + 1024 + t.rpst),
                edges: 4096
            }
        ],
        "data out: the program's status, then the page in one contiguous burst"
    );
    assert_eq!(b.other_ce, 0, "channels other than {CH} stay idle");
    // Mapping (64 sets x 4 ways x 8 entries; LPN 8 = line 1, set 1): the write's update misses
    // into the empty cache's lowest invalid way 0 (one DRAM line read at word 8: slot 0 x 1024
    // + 8); the read's lookup hits way 0 and returns the programmed row, which the read used.
    assert_eq!(
        b.fw.decs,
        vec![(false, 0, false), (true, 0, false)],
        "map decisions (hit, way, evict)"
    );
    assert_eq!(
        b.dram_cmds,
        vec![(false, 8)],
        "DRAM commands (write, word address)"
    );
    assert_eq!(
        b.fw.resps.iter().map(|r| r.1).collect::<Vec<_>>(),
        vec![row(), row()],
        "map responses"
    );
    assert_eq!(
        b.fw.dma_done.iter().map(|d| d.1).collect::<Vec<_>>(),
        vec![0, 0],
        "both moves status 0"
    );
    println!(
        "cycles {}: dma done {:?}, nand accepted {:?}, nand done {:?}",
        b.n, b.fw.dma_done, b.fw.nand_acc, b.fw.nand_done
    );
}
