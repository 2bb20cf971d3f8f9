//! The PRP data path inside `NvmeFrontEnd`: transfers started on the front end's `dma_*` port
//! (as the firmware would for a fetched NVM Write / NVM Read) move their data through the front
//! end's requester mux and shared completion stream, driven by the root-complex model; the TLP
//! sequence matches the behavioural model's and the bytes arrive intact.

use rust_hdl::prelude::*;
use ssdlab_hdl::nvme::frontend::NvmeFrontEnd;
use ssdlab_model::config::DriveConfig;
use ssdlab_model::nvme::frontend::tlp::Cycle;
use ssdlab_model::nvme::frontend::tlp::TlpKind::{MemRead as MRd, MemWrite as MWr};
use ssdlab_testbench::devices::prp_bench::{
    put_entries, run_model, simulate_settle, size_code, Cmd,
};
use ssdlab_testbench::devices::root_complex::RootComplex;

/// Runs one transfer on the front end's `dma_*` port; returns (status, host→device bytes).
fn transfer(
    fe: &mut NvmeFrontEnd,
    rc: &mut RootComplex,
    cycle: &mut Cycle,
    cmd: Cmd,
    data: &[u8],
) -> (u16, Vec<u8>) {
    let (mut out, mut pos, mut offered) = (Vec::new(), 0usize, true);
    let start = *cycle;
    while *cycle < start + 50_000 {
        let c = *cycle;
        *cycle += 1;
        fe.clock.next = Clock { clk: false };
        rc.drive(c, fe);
        fe.dma_valid.next = offered;
        fe.dma_to_host.next = cmd.to_host;
        fe.dma_prp1.next = bits::<64>(cmd.prp1);
        fe.dma_prp2.next = bits::<64>(cmd.prp2);
        fe.dma_len.next = bits::<32>(cmd.len as u64);
        let mut w = [0u8; 16];
        let chunk = &data[pos.min(data.len())..(pos + 16).min(data.len())];
        w[..chunk.len()].copy_from_slice(chunk);
        fe.dma_bd_valid.next = pos < data.len();
        fe.dma_bd_data.next = u128::from_le_bytes(w).to_bits();
        simulate_settle(fe);
        rc.observe(c, fe);
        if fe.dma_ready.val() {
            offered = false;
        }
        if fe.dma_bd_ready.val() && fe.dma_bd_valid.val() {
            pos += 16;
        }
        if fe.dma_wd_valid.val() {
            let n = 4 * fe.dma_wd_dwords.val().to_u64() as usize;
            out.extend_from_slice(&fe.dma_wd_data.val().to_u128().to_le_bytes()[..n]);
        }
        let done = fe
            .dma_done
            .val()
            .then(|| fe.dma_status.val().to_u64() as u16);
        fe.clock.next = Clock { clk: true };
        simulate_settle(fe);
        if let Some(st) = done {
            return (st, out);
        }
    }
    panic!("transfer {cmd:x?} did not end within 50 000 cycles");
}

/// 16 KiB at PRP1 offset 0x100 with a 4-entry PRP list at 0x9000 (pages 0x20_0000..0x23_0000):
/// NVM Write at MRRS 512 = list read (32 B) + 0x100..0x200 and 7 × 512 in the first page (8) +
/// 3 × 8 + 1 (256 B in the last page) = 33 MRd; then NVM Read of those bytes to pages
/// 0x30_0000.. at MPS 256 = list read + 15 + 48 + 1 = 64 MWr. Same sequences as the model.
#[test]
fn write_then_read_move_data_through_the_front_end() {
    let mut cfg = DriveConfig::default_drive();
    cfg.pcie.mps_bytes = 256;
    cfg.pcie.mrrs_bytes = 512;
    let arb = ssdlab_hdl::nvme::arbiter::Arbitration::RoundRobin;
    let mut fe = NvmeFrontEnd::new(cfg.nvme.queue_entries, cfg.nvme.irq_coalesce_count, 0, arb);
    fe.connect_all();
    fe.mps_code.next = bits::<3>(size_code(256));
    fe.mrrs_code.next = bits::<3>(size_code(512));
    let mut rc = RootComplex::new(&cfg.pcie);
    let src: Vec<u8> = (0..5 * 4096u32).map(|i| (i * 13 + 7) as u8).collect();
    let setup = |rc: &mut RootComplex, base: u64| {
        put_entries(
            rc,
            0x9000,
            &[base + 0x1000, base + 0x2000, base + 0x3000, base + 0x4000],
        );
    };
    setup(&mut rc, 0x20_0000);
    rc.put(0x20_0000, &src);
    let wr = Cmd {
        to_host: false,
        prp1: 0x20_0100,
        prp2: 0x9000,
        len: 16 * 1024,
    };
    let mut cycle = 0;
    let (st, got) = transfer(&mut fe, &mut rc, &mut cycle, wr, &[]);
    assert_eq!(st, 0);
    assert!(
        got == src[0x100..0x100 + 16 * 1024],
        "NVM Write bytes are host memory at the PRPs"
    );
    let tlps: Vec<_> = rc.seen.iter().map(|t| (t.kind, t.addr, t.len)).collect();
    assert_eq!(tlps.len(), 1 + 33);
    assert_eq!(tlps[0], (MRd, 0x9000, 32));
    let mut rm = RootComplex::new(&cfg.pcie);
    setup(&mut rm, 0x20_0000);
    assert_eq!(
        run_model(&cfg, &mut rm, wr, &[]).tlps,
        tlps,
        "model's TLP sequence"
    );
    // NVM Read: the bytes just written go back to the host at other pages.
    setup(&mut rc, 0x30_0000);
    let n0 = rc.seen.len();
    let rd = Cmd {
        to_host: true,
        prp1: 0x30_0100,
        prp2: 0x9000,
        len: 16 * 1024,
    };
    let (st, _) = transfer(&mut fe, &mut rc, &mut cycle, rd, &got);
    assert_eq!(st, 0);
    assert!(
        rc.get(0x30_0100, 16 * 1024) == got,
        "NVM Read bytes land at the PRPs"
    );
    let tlps: Vec<_> = rc.seen[n0..]
        .iter()
        .map(|t| (t.kind, t.addr, t.len))
        .collect();
    assert_eq!(tlps.len(), 1 + 64);
    assert!(tlps[1..].iter().all(|t| t.0 == MWr && t.2 <= 256));
    let mut rm = RootComplex::new(&cfg.pcie);
    setup(&mut rm, 0x30_0000);
    assert_eq!(
        run_model(&cfg, &mut rm, rd, &got).tlps,
        tlps,
        "model's TLP sequence"
    );
}

/// A requester completion whose last beat carries discontinue (PG156 `m_axis_rc_tuser[42]`)
/// fails the transfer with Data Transfer Error (04h), for write data (an 8 KiB NVM Write, PRP1
/// and PRP2 both pages: its first data read discontinued) and for a PRP list (a 16 KiB NVM Write
/// through a list: the list read discontinued); the same transfers then succeed.
#[test]
fn discontinued_completions_fail_the_transfer() {
    let cfg = DriveConfig::default_drive();
    let arb = ssdlab_hdl::nvme::arbiter::Arbitration::RoundRobin;
    let mut fe = NvmeFrontEnd::new(cfg.nvme.queue_entries, cfg.nvme.irq_coalesce_count, 0, arb);
    fe.connect_all();
    fe.mps_code.next = bits::<3>(size_code(cfg.pcie.mps_bytes));
    fe.mrrs_code.next = bits::<3>(size_code(cfg.pcie.mrrs_bytes));
    let mut rc = RootComplex::new(&cfg.pcie);
    let src: Vec<u8> = (0..5 * 4096u32).map(|i| (i * 7 + 3) as u8).collect();
    rc.put(0x40_0000, &src);
    put_entries(&mut rc, 0x9000, &[0x40_1000, 0x40_2000, 0x40_3000]);
    let direct = Cmd {
        to_host: false,
        prp1: 0x40_0000,
        prp2: 0x40_1000,
        len: 8192,
    };
    let listed = Cmd {
        prp2: 0x9000,
        len: 16 * 1024,
        ..direct
    };
    let xfer_err = ssdlab_hdl::nvme::prp::status::data_transfer_error();
    let mut cycle = 0;
    for cmd in [direct, listed] {
        rc.rc_discontinue_next = true;
        let (st, _) = transfer(&mut fe, &mut rc, &mut cycle, cmd, &[]);
        assert_eq!(st, xfer_err, "{cmd:x?} with a discontinued completion");
        assert!(!rc.rc_discontinue_next);
        let (st, got) = transfer(&mut fe, &mut rc, &mut cycle, cmd, &[]);
        assert_eq!(st, 0, "{cmd:x?} again");
        assert!(got == src[..cmd.len as usize], "{cmd:x?}: bytes intact");
    }
}
