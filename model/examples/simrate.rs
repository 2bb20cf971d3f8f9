//! Prints the model's simulation speed plainly: `cargo run --release -p ssdlab-model --example simrate [N]`.

mod common {
    pub mod qd_loop;
}
use ssdlab_model::drive::IoOp;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    for op in [IoOp::Read, IoOp::Write] {
        println!("{}", common::qd_loop::measure(op, n).line());
    }
    for op in [IoOp::Read, IoOp::Write] {
        let cfg = common::qd_loop::unchecked_config();
        println!(
            "{}",
            common::qd_loop::measure_with(cfg, " (FTL integrity checker off)", op, n).line()
        );
    }
}
