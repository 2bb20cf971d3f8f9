//! Functional warm-up (ops dropped) and timed warm-up (ops executed in order by the test
//! executor, which also checks the NAND rules) reach identical FTL state.

use super::executor::Executor;
use super::*;
use crate::time::SimTime;
use rand::Rng;

fn warm(f: &mut Ftl, mut exec: Option<&mut Executor>) {
    let mut rng = SeedTree::new(99).stream("warmup-equivalence", 0);
    let n = f.logical_units();
    let mut ops = Vec::new();
    let mut step = |f: &mut Ftl, lpn: u64, c: u32, ops: &mut Vec<NandOp>| {
        f.host_write(lpn, c, ops);
        if let Some(e) = exec.as_deref_mut() {
            let t = e.run(ops);
            e.advance(t);
            // A timed drive offers idle time between commands; none is long enough to act on.
            ops.clear();
            assert!(!f.idle_work(SimTime::ZERO, ops));
            e.run(ops);
        }
        ops.clear();
    };
    for _ in 0..2 {
        for lpn in (0..n).step_by(256) {
            step(f, lpn, 256.min((n - lpn) as u32), &mut ops);
        }
    }
    for _ in 0..n {
        step(f, rng.gen_range(0..n), 1, &mut ops);
    }
}

#[test]
fn functional_and_timed_warm_up_reach_identical_state() {
    let cfg = small_cfg();
    let mut functional = ftl(&cfg);
    warm(&mut functional, None);
    let mut timed = ftl(&cfg);
    let mut ex = Executor::new(&cfg);
    warm(&mut timed, Some(&mut ex));
    assert!(ex.ops_done > 10_000);
    assert_eq!(functional.state_digest(), timed.state_digest());
    assert_eq!(functional.stats(), timed.stats());
    for lpn in (0..cfg_units(&functional)).step_by(101) {
        assert_eq!(functional.lookup(lpn), timed.lookup(lpn), "lpn {lpn}");
    }
}

fn cfg_units(f: &Ftl) -> u64 {
    f.logical_units()
}
