//! Simulation speed of the whole drive model: simulated IOs per wall-clock second for 4 KiB
//! random read and random write at QD32 on the default 512 GB drive (`make bench`).
//! Prints one plain line per workload, then runs the same loops under criterion.

use criterion::{black_box, Criterion};
use ssdlab_model::drive::IoOp;
use ssdlab_model::SeedTree;

#[path = "../examples/common/qd_loop.rs"]
mod qd_loop;

fn main() {
    for op in [IoOp::Read, IoOp::Write] {
        println!("{}", qd_loop::measure(op, 200_000).line());
    }
    for op in [IoOp::Read, IoOp::Write] {
        let cfg = qd_loop::unchecked_config();
        println!(
            "{}",
            qd_loop::measure_with(cfg, " (FTL integrity checker off)", op, 200_000).line()
        );
    }
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    for (name, op) in [
        ("randread_4k_qd32_20k_ios", IoOp::Read),
        ("randwrite_4k_qd32_20k_ios", IoOp::Write),
    ] {
        let (mut d, span) = qd_loop::prepared_drive(1);
        let mut rng = SeedTree::new(1).stream("bench", 0);
        c.bench_function(name, |b| {
            b.iter(|| black_box(qd_loop::run_qd(&mut d, op, 32, 20_000, span, &mut rng)));
        });
    }
    c.final_summary();
}
