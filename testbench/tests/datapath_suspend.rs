//! Three-way datapath co-simulation with program/erase suspend on (`setup::with_suspend`:
//! `always` and `wait_over`, times scaled with the co-simulation's array times): the firmware
//! lets a host read of a way run beside the way's program or erase, so reads reach programming
//! dies and suspend them. The scoreboard compares the model blocks with the Verilated `top`
//! (and, on a short job, rust_hdl's simulation) event by event, including the number of
//! suspends, which must be above zero. `--ignored`: a long randomized run.

use ssdlab_model::config::SuspendPolicyKind;
use ssdlab_testbench::cosim::datapath::exec::RunLimits;
use ssdlab_testbench::cosim::datapath::setup::{cosim_config, with_suspend};
use ssdlab_testbench::cosim::datapath::sim::three_way;

fn seed_or(default: u64) -> u64 {
    std::env::var("SSDLAB_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn verilator_matches_model_with_suspend_on_a_mixed_job() {
    for (policy, seed) in [
        (SuspendPolicyKind::Always, seed_or(21)),
        (SuspendPolicyKind::WaitOver, seed_or(22)),
    ] {
        let cfg = with_suspend(cosim_config(), policy);
        let v = ssdlab_hdl::top::export_verilog(&cfg).expect("the drive fits the datapath");
        let ios = 160;
        let job = format!("[s]\nrw=randrw\nrwmixread=50\nbs=4k\niodepth=16\nnumber_ios={ios}\n");
        let lim = RunLimits {
            submit_until: u64::MAX,
            max_cycles: 4_000_000,
            seed,
        };
        let r = three_way(&cfg, &job, lim, &v, None).unwrap_or_else(|e| panic!("{policy:?}: {e}"));
        println!("{policy:?}: {r}");
        assert_eq!(r.mismatches(), 0, "{r}");
        assert_eq!(r.completions, ios, "every command completed: {r}");
        assert!(r.suspends > 0, "no read suspended a program or erase: {r}");
        assert_eq!((r.worst_time, r.worst_nand), (0.0, 0.0), "cycle-exact: {r}");
    }
}
