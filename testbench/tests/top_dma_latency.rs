//! The datapath top's DMA latencies (hdl/src/top.rs, "DMA latency"), on the rust_hdl `Datapath`
//! against the root-complex model: the firmware port offers one 4 KiB page-aligned move (PRP1
//! only) on `dma_*`, nothing else runs (no NVMe enable is needed by the PRP data path). MPS 256,
//! MRRS 512, the default preset's Gen3 x4 link. Every expected cycle is hand-derived in the
//! top's module doc; rust_hdl runs the top at a few hundred cycles per second, so each move is
//! ~300-500 cycles.

use rust_hdl::prelude::*;
use ssdlab_hdl::top::{small_drive_config, Datapath, DMA_END_CYCLES, DMA_START_CYCLES};
use ssdlab_model::nvme::frontend::datapath::Direction;
use ssdlab_model::nvme::frontend::tlp::TlpKind;
use ssdlab_model::nvme::frontend::FrontEnd;
use ssdlab_testbench::devices::root_complex::{PcieUserSide, RootComplex};

const HOST: u64 = 0x40_0000;

/// What one move did: handshake cycle, TLP header cycles, last RC beat cycle, `dma_done` cycle.
struct Run {
    take: u64,
    headers: Vec<(TlpKind, u64)>,
    last_rc: Option<u64>,
    done: u64,
    status: u64,
}

/// Offers the move from cycle 2 until taken; runs until `dma_done` (at most `limit` cycles).
fn run(to_host: bool, limit: u64) -> Run {
    let cfg = small_drive_config();
    let mut rc = RootComplex::new(&cfg.pcie);
    rc.put(
        HOST,
        &(0..4096u32).map(|i| (i * 5 + 1) as u8).collect::<Vec<u8>>(),
    );
    let mut u = Datapath::new_boxed(&cfg).expect("small drive fits the datapath");
    u.connect_all();
    let (mut take, mut last_rc) = (None, None);
    for n in 0..limit {
        u.clock.next = Clock { clk: false };
        let i = rc.drive_user(n);
        if i.rc.is_some() {
            last_rc = Some(n);
        }
        u.drive_pcie(&i);
        (u.mps_code.next, u.mrrs_code.next, u.cmd_stall.next) = (bits::<3>(1), bits::<3>(2), false);
        (
            u.map_tp_done.next,
            u.dram_cmd_ready.next,
            u.dram_wdata_ready.next,
        ) = (false, true, true);
        for c in 0..8 {
            (u.phy[c].rb_n.next, u.phy[c].dq_in.next) = (bits::<8>(0xFF), bits::<32>(0));
        }
        u.dma_valid.next = n >= 2 && take.is_none();
        (u.dma_to_host.next, u.dma_prp1.next, u.dma_prp2.next) =
            (to_host, bits::<64>(HOST), bits::<64>(0));
        (
            u.dma_len.next,
            u.dma_channel.next,
            u.dma_way.next,
            u.dma_offset.next,
        ) = (bits::<32>(4096), bits::<4>(0), bits::<3>(0), bits::<32>(0));
        u.settle();
        rc.observe_user(n, &u.pcie_out());
        assert!(!u.pb_err.val(), "cycle {n}: page-buffer error");
        if take.is_none() && u.dma_valid.val() && u.dma_ready.val() {
            take = Some(n);
        }
        let done = u.dma_done.val().then(|| u.dma_status.val().to_u64());
        u.clock.next = Clock { clk: true };
        u.settle();
        if let Some(status) = done {
            let headers = rc.seen.iter().map(|t| (t.kind, t.cycle)).collect();
            return Run {
                take: take.expect("done after the handshake"),
                headers,
                last_rc,
                done: n,
                status,
            };
        }
    }
    panic!("4 KiB move (to_host {to_host}) not done within {limit} cycles");
}

/// Device->host: 16 MWr of 256 B. First header `DMA_START_CYCLES` = 5 after the handshake; then
/// each as soon as the requester port is free (17 beats: descriptor + 16 payload; the mux holds
/// its lock for a following data-path packet, so no idle beat) and the link is (one 256 B MWr
/// per (256 + 16 + 8) B / 15.754 B per cycle = 17.77 cycles from the previous header): +0, 18,
/// 36, 54, 72, 89, 107, 125, 143, 161, 178, 196, 214, 232, 250, 267; `dma_done` the cycle after
/// the last payload beat: 5 + 267 + 17 = 289 cycles after the handshake — the behavioural
/// transfer's end with `DMA_END_CYCLES` = 0.
#[test]
fn mwr_move_first_tlp_spacing_and_done() {
    let r = run(true, 600);
    assert_eq!(r.status, 0);
    let offsets = [
        0u64, 18, 36, 54, 72, 89, 107, 125, 143, 161, 178, 196, 214, 232, 250, 267,
    ];
    let want: Vec<(TlpKind, u64)> = offsets
        .iter()
        .map(|k| (TlpKind::MemWrite, r.take + DMA_START_CYCLES + k))
        .collect();
    assert_eq!(
        r.headers, want,
        "MWr headers (handshake at cycle {})",
        r.take
    );
    assert_eq!(
        r.done,
        r.take + 289,
        "dma_done (handshake at cycle {})",
        r.take
    );
    // The behavioural transfer started at 5 (`PageBuffer::dma_take`) ends at the same cycle.
    let cfg = small_drive_config();
    let mut rc = RootComplex::new(&cfg.pcie);
    let mut fe = FrontEnd::new(&cfg.pcie, &cfg.nvme);
    let (_, end) = fe
        .transfer(
            DMA_START_CYCLES,
            HOST,
            0,
            4096,
            Direction::ToHost,
            &[0u8; 4096],
            &mut rc,
        )
        .expect("valid PRPs");
    assert_eq!(
        end + DMA_END_CYCLES,
        289,
        "behavioural end, handshake at cycle 0"
    );
}

/// Host->device: 8 MRd of 512 B. First header 5 after the handshake; then the data path offers
/// one per cycle (the mux stays on it between its one-beat packets) and the link takes each
/// header when free: one MRd per (16 + 8) B / 15.754 B per cycle = 1.52 cycles, an 8 B ACK DLLP
/// riding ahead of every other MRd (each 512 B read comes back as 2 completions of MPS 256, and
/// the root acknowledges every 4 TLPs), and a header that waited starts on the link at its
/// exact free time (`RootComplex::take_upstream`), so headers are 1 to 3 cycles apart: the
/// cycles are checked against the behavioural data path (`FrontEnd::step_move`, granted at
/// handshake + 4) on the same link model. `dma_done` the cycle after the last completion beat
/// (4 KiB ends on a 16-byte beat: no residue cycle).
#[test]
fn mrd_move_first_tlp_spacing_and_done() {
    let r = run(false, 2_000);
    assert_eq!(r.status, 0);
    assert_eq!(
        r.headers.first(),
        Some(&(TlpKind::MemRead, r.take + DMA_START_CYCLES)),
        "first MRd (handshake at cycle {})",
        r.take
    );
    let cfg = small_drive_config();
    let (mut rc, mut fe) = (
        RootComplex::new(&cfg.pcie),
        FrontEnd::new(&cfg.pcie, &cfg.nvme),
    );
    let mut mv = fe
        .start_move(
            r.take + DMA_START_CYCLES - 1,
            HOST,
            0,
            4096,
            Direction::FromHost,
            &mut rc,
        )
        .expect("valid PRPs");
    for c in 0..r.take + 100 {
        fe.step_move(&mut mv, c, &[], &mut rc);
    }
    assert!(mv.finished(), "behavioural move sent its 8 MRd");
    let want: Vec<(TlpKind, u64)> = fe.tlps().iter().map(|t| (t.kind, t.cycle)).collect();
    assert_eq!(want.len(), 8);
    assert_eq!(
        r.headers, want,
        "MRd headers (handshake at cycle {}) against the behavioural data path",
        r.take
    );
    assert_eq!(
        Some(r.done),
        r.last_rc.map(|c| c + 1),
        "dma_done vs the last completion beat"
    );
}
