//! The generic Verilator runner on two small rust_hdl blocks: a combinational one (the NAND bus
//! arbiter) and a clocked one (the way queue), with expectations from the blocks' specs; the way
//! queue both in rust_hdl's form (`module top`) and in the integrable form `make verilog` writes
//! (`module ssdlab_nand_way_queue`, `ssdlab_hdl::export`).

use ssdlab_hdl::nand::{arbiter::Arbiter, way_queue::WayQueue};
use ssdlab_hdl::verilog_of;
use ssdlab_testbench::verilator::{Dir, PortId, VerilatorModel};

#[test]
fn runner_drives_combinational_block() {
    let mut v = VerilatorModel::build("test_arbiter", &verilog_of(Arbiter::default())).unwrap();
    // Inputs: rf (first-phase requests), rs (second-phase), last (one-hot pointer), a bit per way.
    assert_eq!(v.ports().iter().filter(|p| p.dir == Dir::In).count(), 3);
    let (rf, rs, last) = (
        v.port("rf").unwrap(),
        v.port("rs").unwrap(),
        v.port("last").unwrap(),
    );
    let (valid, grant, second) = (
        v.port("valid").unwrap(),
        v.port("grant").unwrap(),
        v.port("pick_second").unwrap(),
    );
    v.eval();
    assert_eq!(v.get(valid), 0);
    // A second-phase request of way 2 alone wins.
    v.set(rs, 0b100);
    v.set(last, 0b100);
    v.eval();
    assert_eq!((v.get(valid), v.get(grant), v.get(second)), (1, 0b100, 1));
    // A first-phase request of way 1 beats it (command first).
    v.set(rf, 0b10);
    v.eval();
    assert_eq!((v.get(grant), v.get(second)), (0b10, 0));
    // Ways 1 and 6 request first phases after way 3 was granted: way 6 is next.
    v.set(rf, 0b100_0010);
    v.set(last, 0b1000);
    v.eval();
    assert_eq!(v.get(grant), 0b100_0000);
    assert!(v
        .port("nonexistent")
        .unwrap_err()
        .to_string()
        .contains("nonexistent"));
}

#[test]
fn runner_drives_clocked_block() {
    drives_the_way_queue("test_way_queue", &verilog_of(WayQueue::default()));
}

#[test]
fn runner_drives_the_exported_form() {
    let raw = verilog_of(WayQueue::default());
    let v = ssdlab_hdl::export::names::integrable("nand_way_queue", &raw).unwrap();
    assert!(v.contains("\nmodule ssdlab_nand_way_queue(") && !v.contains("module top"));
    drives_the_way_queue("test_way_queue_exported", &v);
}

/// Sets a 68-bit op-word port (three 32-bit words).
fn set_op(v: &mut VerilatorModel, p: PortId, w: u128) {
    v.set_wide(p, &[w as u32, (w >> 32) as u32, (w >> 64) as u32]);
}

/// Reads a 68-bit op-word port.
fn get_op(v: &VerilatorModel, p: PortId) -> u128 {
    let w = v.get_wide(p);
    w.iter().rev().fold(0u128, |a, &x| a << 32 | x as u128)
}

/// Four pushes fill the queue; a pop moves its head (the way queue's spec).
fn drives_the_way_queue(name: &str, verilog: &str) {
    let mut v = VerilatorModel::build(name, verilog).unwrap();
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
    // Four 68-bit op words in (bits in all three 32-bit words), then full.
    for k in 0..4u128 {
        v.set(push, 1);
        set_op(&mut v, din, (0xABC << 56) | k);
        v.eval();
        v.tick(clk);
    }
    v.set(push, 0);
    v.eval();
    assert_eq!((v.get(full), get_op(&v, dout)), (1, (0xABC << 56)));
    v.set(pop, 1);
    v.eval();
    v.tick(clk);
    assert_eq!((v.get(full), get_op(&v, dout)), (0, (0xABC << 56) | 1));
    assert_eq!(v.cycles(), 5);
}

#[test]
fn way_queue_counts_the_plain_reads_at_its_head() {
    let mut v =
        VerilatorModel::build("test_way_queue_lead", &verilog_of(WayQueue::default())).unwrap();
    let p = |v: &VerilatorModel, n: &str| v.port(n).unwrap();
    let (clk, push, din, pop, empty, lead, any) = (
        p(&v, "clock"),
        p(&v, "push"),
        p(&v, "data_in"),
        p(&v, "pop"),
        p(&v, "empty"),
        p(&v, "lead_reads"),
        p(&v, "lead_any"),
    );
    // Op kind in bits 1:0: 0 plain read, 1 program.
    let step = |v: &mut VerilatorModel, push_kind: Option<u64>, do_pop: bool| {
        v.set(push, push_kind.is_some() as u64);
        set_op(v, din, (0x5A << 8) | push_kind.unwrap_or(0) as u128);
        v.set(pop, do_pop as u64);
        v.eval();
        v.tick(clk);
        v.set(push, 0);
        v.set(pop, 0);
        v.eval();
        (v.get(lead), v.get(any), v.get(empty))
    };
    v.eval();
    assert_eq!((v.get(lead), v.get(any), v.get(empty)), (0, 0, 1));
    // read, read, program, read: two reads lead; the read behind the program does not count.
    assert_eq!(step(&mut v, Some(0), false), (1, 1, 0));
    assert_eq!(step(&mut v, Some(0), false), (2, 1, 0));
    assert_eq!(step(&mut v, Some(1), false), (2, 1, 0));
    assert_eq!(step(&mut v, Some(0), false), (2, 1, 0));
    // Full: a push with a pop is ignored, the pop is taken (read, program, read left).
    assert_eq!(step(&mut v, Some(0), true), (1, 1, 0));
    // program, read left: no read at the head.
    assert_eq!(step(&mut v, None, true), (0, 0, 0));
    // The program leaves while a read is pushed: read, read.
    assert_eq!(step(&mut v, Some(0), true), (2, 1, 0));
    assert_eq!(step(&mut v, None, true), (1, 1, 0));
    // The last read leaves while a program is pushed: only the program is left.
    assert_eq!(step(&mut v, Some(1), true), (0, 0, 0));
    assert_eq!(step(&mut v, None, true), (0, 0, 1));
    // A pop of the empty queue is ignored; a read pushed with it counts.
    assert_eq!(step(&mut v, Some(0), true), (1, 1, 0));
    assert_eq!(step(&mut v, Some(0), false), (2, 1, 0));
}
