//! Behavioural-execution tests of the co-simulation with hand-derived expectations.

use super::*;
use crate::cosim::datapath::port::TlpClass;
use ssdlab_model::nvme::frontend::tlp::TlpKind;

fn lim(seed: u64) -> RunLimits {
    RunLimits { submit_until: u64::MAX, max_cycles: 2_000_000, seed }
}

#[test]
fn smoke_sequential_writes_qd1() {
    let cfg = cosim_config();
    let s = run_model(&cfg, "[w]\nrw=write\nbs=4k\niodepth=1\nnumber_ios=16\n", lim(1), false).expect("runs");
    println!("{} cycles, {} tlps, {} nand, {} map, {} cpl", s.cycles, s.tlps.len(), s.nand.len(), s.map.len(), s.cpl.len());
    for c in &s.cpl { println!("{c:?}"); }
    for n in &s.nand { println!("{n:?}"); }
    let data: Vec<_> = s.tlps.iter().filter(|t| t.0 == TlpClass::Data).take(10).collect();
    println!("{data:?}");
    assert_eq!(s.cpl.len(), 16);
    let _ = TlpKind::MemRead;
}
