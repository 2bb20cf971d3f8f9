//! The generic Verilator runner on two small rust_hdl blocks: a combinational one (the NAND bus
//! arbiter) and a clocked one (the way queue), with expectations from the blocks' specs.

use ssdlab_hdl::nand::{arbiter::Arbiter, way_queue::WayQueue};
use ssdlab_hdl::verilog_of;
use ssdlab_testbench::verilator::{Dir, VerilatorModel};

#[test]
fn runner_drives_combinational_block() {
    let mut v = VerilatorModel::build("test_arbiter", &verilog_of(Arbiter::default())).unwrap();
    // Inputs: rf0..3 (first-phase requests), rs0..3 (second-phase), last0..3 (one-hot pointer).
    assert_eq!(v.ports().iter().filter(|p| p.dir == Dir::In).count(), 12);
    let (rf1, rs2, last2) = (
        v.port("rf1").unwrap(),
        v.port("rs2").unwrap(),
        v.port("last2").unwrap(),
    );
    let (valid, g1, g2, second) = (
        v.port("valid").unwrap(),
        v.port("g1").unwrap(),
        v.port("g2").unwrap(),
        v.port("pick_second").unwrap(),
    );
    v.eval();
    assert_eq!(v.get(valid), 0);
    // A second-phase request of way 2 alone wins.
    v.set(rs2, 1);
    v.set(last2, 1);
    v.eval();
    assert_eq!(
        (v.get(valid), v.get(g1), v.get(g2), v.get(second)),
        (1, 0, 1, 1)
    );
    // A first-phase request of way 1 beats it (command first).
    v.set(rf1, 1);
    v.eval();
    assert_eq!((v.get(g1), v.get(g2), v.get(second)), (1, 0, 0));
    assert!(v
        .port("nonexistent")
        .unwrap_err()
        .to_string()
        .contains("nonexistent"));
}

#[test]
fn runner_drives_clocked_block() {
    let mut v = VerilatorModel::build("test_way_queue", &verilog_of(WayQueue::default())).unwrap();
    let p = |v: &VerilatorModel, n: &str| v.port(n).unwrap();
    let (clk, push, din, pop, dout, empty, full) = (
        p(&v, "clock"),
        p(&v, "push"),
        p(&v, "data_in"),
        p(&v, "pop"),
        p(&v, "data_out"),
        p(&v, "empty"),
        p(&v, "full"),
    );
    v.eval();
    assert_eq!(v.get(empty), 1);
    // Four 44-bit words in (above 32 bits to exercise the two-word path), then full.
    for k in 0..4u64 {
        v.set(push, 1);
        v.set(din, (0xABC << 32) | k);
        v.eval();
        v.tick(clk);
    }
    v.set(push, 0);
    v.eval();
    assert_eq!((v.get(full), v.get(dout)), (1, (0xABC << 32)));
    v.set(pop, 1);
    v.eval();
    v.tick(clk);
    assert_eq!((v.get(full), v.get(dout)), (0, (0xABC << 32) | 1));
    assert_eq!(v.cycles(), 5);
}
