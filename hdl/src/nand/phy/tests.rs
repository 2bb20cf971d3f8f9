//! Checks of the ONFI PHY block: it elaborates to Verilog yosys accepts, refuses 3 bytes per
//! cycle naming the field, and one command latch at the pins has the hand-computed WE# pulse.
//! The pin-level runs against a NAND target are `testbench/tests/onfi_pins.rs`.

use super::*;
use ssdlab_model::DriveConfig;

/// The default drive's `[onfi]` at 400 MT/s: 2 bytes per 200 MHz cycle.
fn onfi() -> ssdlab_model::config::OnfiConfig {
    let mut o = DriveConfig::default_drive().onfi;
    o.transfer_mts = 400;
    o
}

#[test]
fn onfi_phy_is_synthesizable() {
    let vlog = crate::verilog_of(OnfiPhy::new(&onfi()).unwrap());
    crate::test_support::yosys_validate("ssdlab_nand_phy", &vlog).unwrap();
}

#[test]
fn three_bytes_per_cycle_is_refused_naming_the_field() {
    // 600 MT/s at 200 MHz: no serializer ratio moves 3 bytes per cycle.
    let mut o = onfi();
    o.transfer_mts = 600;
    let e = OnfiPhy::new(&o).err().unwrap();
    assert!(e.contains("onfi.transfer_mts"), "{e}");
    // The default preset's 800 MT/s at 200 MHz (4 bytes per cycle) builds.
    assert!(OnfiPhy::new(&DriveConfig::default_drive().onfi).is_ok());
}

fn tick(u: &mut OnfiPhy) {
    u.clock.next = Clock { clk: true };
    crate::settle(u, 64, "onfi phy");
    u.clock.next = Clock { clk: false };
    crate::settle(u, 64, "onfi phy");
}

#[test]
fn a_command_latch_shows_up_pipe_cycles_later_with_its_we_pulse() {
    let mut u = OnfiPhy::new(&onfi()).unwrap();
    u.connect_all();
    // 200 MHz: tWC 25 ns = 5-cycle window, tWP 10 ns = WE# low 2 cycles from its start
    // (tCLS 10 ns = 2 cycles of setup), pipe 1 + tWPRE/tRPRE 3 = 4 cycles.
    let mut pins = Vec::new();
    for c in 0..12u32 {
        let lat = (2..7).contains(&c);
        u.beat_ce.next = bits::<8>(if lat { 1 } else { 0 });
        u.beat_cle.next = lat;
        u.beat_we.next = c == 2;
        u.beat_dq.next = bits::<32>(if lat { 0x70 } else { 0 });
        u.rb_n.next = bits::<8>(0xFF);
        crate::settle(&mut u, 64, "onfi phy");
        pins.push((
            u.ce_n.val().to_u64(),
            u.cle.val(),
            u.we_n.val(),
            u.dq.val().to_u64(),
        ));
        tick(&mut u);
    }
    // Beat cycles 2..7 appear at the pins in cycles 6..11; WE# low in 6 and 7.
    for (c, &(ce_n, cle, we_n, dq)) in pins.iter().enumerate() {
        let lat = (6..11).contains(&c);
        assert_eq!(ce_n, if lat { 0xFE } else { 0xFF }, "CE# cycle {c}");
        assert_eq!(cle, lat, "CLE cycle {c}");
        assert_eq!(we_n, !(c == 6 || c == 7), "WE# cycle {c}");
        if lat {
            // The latch byte in all four quarters.
            assert_eq!(dq, 0x7070_7070, "DQ cycle {c}");
        }
    }
}

/// `verilator --lint-only -Wall` (with the rust-hdl library waivers `make lint` uses) on the
/// integrable form of the PHY, elaborated for the default preset (4 bytes per cycle), and at
/// 2 and 1 bytes per cycle.
#[test]
fn onfi_phy_passes_verilator_lint() {
    let base = DriveConfig::default_drive();
    let mut two_bytes = base.clone();
    two_bytes.onfi.transfer_mts = 400;
    let mut one_byte = base.clone();
    one_byte.onfi.transfer_mts = 200;
    let dir = tempfile::Builder::new()
        .prefix("ssdlab-phy-lint-")
        .tempdir()
        .unwrap();
    let waivers = concat!(env!("CARGO_MANIFEST_DIR"), "/verilator-waivers.vlt");
    for (i, cfg) in [base, two_bytes, one_byte].iter().enumerate() {
        let raw = crate::nand::phy_verilog(cfg).unwrap();
        let v = crate::export::names::integrable("nand_phy", &raw).unwrap();
        let file = dir.path().join(format!("nand_phy_{i}.v"));
        std::fs::write(&file, v).unwrap();
        let out = std::process::Command::new("verilator")
            .args([
                "--lint-only",
                "-Wall",
                "--top-module",
                "ssdlab_nand_phy",
                waivers,
            ])
            .arg(&file)
            .output()
            .expect("verilator installed (scripts/ensure-tools.sh)");
        assert!(
            out.status.success(),
            "config {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
