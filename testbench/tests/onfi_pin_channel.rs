//! `devices::onfi_pins::channel::PinChannel`, the pin-level target as the datapath benches see
//! it: a channel whose pins and target are idle advances without stepping quarters
//! (`OnfiPinTarget::skip_idle`), and that must give the R/B# of stepping every quarter, cycle
//! for cycle, across an R/B# rise.

use ssdlab_model::config::OnfiConfig;
use ssdlab_model::encoding::onfi::{ERASE_1, ERASE_2};
use ssdlab_model::DriveConfig;
use ssdlab_testbench::devices::onfi_pins::channel::{idle_pins, PinChannel};
use ssdlab_testbench::devices::onfi_pins::dut::PhyOut;
use ssdlab_testbench::devices::onfi_pins::OnfiPinTarget;

fn onfi() -> OnfiConfig {
    let mut o = DriveConfig::default_drive().onfi;
    (o.transfer_mts, o.core_clock_mhz) = (800, 200);
    o
}

/// The pins with nothing driven: every CE# high, WE# and RE# high.
fn idle() -> PhyOut {
    PhyOut {
        ce_n: 0xFF,
        we_n: true,
        re: 0xF,
        ..Default::default()
    }
}

/// A channel of two ways, way 1 erasing for `array` cycles from cycle 0.
fn erasing(array: u64) -> PinChannel {
    let mut t = OnfiPinTarget::new(&onfi(), 2, 256, 16);
    let w = &mut t.ways[1];
    w.push_array_cycles(array);
    w.command(0, ERASE_1);
    for b in [0x05, 0x01, 0x00] {
        w.address(0, b);
    }
    w.command(0, ERASE_2);
    PinChannel::new(t)
}

#[test]
fn skipped_idle_cycles_give_the_rb_of_stepped_quarters() {
    assert!(idle_pins(&idle()));
    let (mut stepped, mut skipped) = (erasing(100), erasing(100));
    let ready = stepped.target.ways[1].ready_at();
    assert!(
        ready >= 100,
        "the erase holds way 1 busy past its array time"
    );
    // Stepped: four quarters per cycle. Skipped: runs of 37, 1 and the rest, one cycle at a
    // time around the rise.
    let mut rb_stepped = Vec::new();
    for _ in 0..ready + 20 {
        let (_, rb) = stepped.target.step_cycle(&idle());
        rb_stepped.push(rb);
    }
    let mut rb_skipped = vec![0u8; rb_stepped.len()];
    let mut c = 0usize;
    for run in [37usize, 1] {
        skipped.skip(run as u64);
        c += run;
        rb_skipped[c - 1] = skipped.rb;
    }
    while c < rb_stepped.len() {
        assert!(skipped.settled(), "cycle {c}: an idle channel is settled");
        skipped.cycle(&idle());
        rb_skipped[c] = skipped.rb;
        c += 1;
    }
    for c in [36, 37] {
        assert_eq!(rb_skipped[c], rb_stepped[c], "R/B# after cycle {c}");
    }
    assert_eq!(rb_skipped[38..], rb_stepped[38..], "R/B# cycle for cycle");
    // Way 1 busy until `ready`, then ready; way 0 ready; absent ways pulled up.
    let r = ready as usize;
    assert_eq!(rb_stepped[r - 1], 0xFD, "way 1 busy in cycle {}", r - 1);
    assert_eq!(rb_stepped[r], 0xFF, "way 1 ready in cycle {r}");
    assert_eq!(stepped.target.report(), "");
    assert_eq!(skipped.target.report(), "");
}
