//! Functional warm-up rate of the FTL (issue 3: >= 10 M 4 KiB writes per wall-second):
//! preconditions the full `sm2262-512g` drive as the ssdfans protocol does (sequential 1 MiB
//! writes over the whole drive, then random 4 KiB writes through the batched path) with the
//! FTL's warm-up calls (`Ftl::warm_up`, `Ftl::warm_up_units`: same state transitions, no NAND ops
//! built), and prints units/s for each phase, with the integrity checker on (the default) and off.
//!
//!     cargo run --release -p ssdlab-model --example ftl_warmup [-- PASSES [on|off|both]]
//!
//! PASSES (default 1) is the number of full sequential and full random passes per configuration;
//! the second argument picks the integrity-checker setting(s) to run (default both).
//! `SSDLAB_WARMUP_BLOCKS=N` shrinks the drive to N blocks per plane (for instruction counts under
//! `valgrind --tool=cachegrind`, see README) and also prints the units GC moved.

use rand::Rng;
use ssdlab_model::ftl::Ftl;
use ssdlab_model::{DriveConfig, SeedTree};
use std::time::Instant;

fn main() {
    let passes: u32 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("PASSES must be a number"))
        .unwrap_or(1);
    let checks: &[bool] = match std::env::args().nth(2).as_deref() {
        None | Some("both") => &[true, false],
        Some("on") => &[true],
        Some("off") => &[false],
        Some(other) => panic!("checker setting must be on, off or both, not {other:?}"),
    };
    for &check in checks {
        let mut cfg = DriveConfig::default_drive();
        cfg.ftl.integrity_check = check;
        let reduced = std::env::var("SSDLAB_WARMUP_BLOCKS").ok();
        if let Some(b) = &reduced {
            cfg.geometry.blocks_per_plane =
                b.parse().expect("SSDLAB_WARMUP_BLOCKS must be a number");
        }
        let (t, cpu0) = (Instant::now(), cpu_secs());
        let mut f = Ftl::new(&cfg, &SeedTree::new(1)).expect("preset is valid");
        let n = f.logical_units();
        println!(
            "integrity_check = {check}: {} logical units, FTL built in {:.2} s",
            n,
            t.elapsed().as_secs_f64()
        );
        for pass in 1..=passes {
            let w = Window::start(&f);
            let mut lpn = 0;
            while lpn < n {
                let c = 256.min(n - lpn) as u32;
                f.warm_up(lpn, c);
                lpn += c as u64;
            }
            w.report(&format!("  sequential 1 MiB, pass {pass}"), &f);
        }
        let mut rng = SeedTree::new(1).stream("warmup-example", 0);
        // The batched path (`warm_up_units`: same state as one `host_write` per unit, with
        // software prefetch), fed 64 Ki units at a time as the testbench's preconditioning does.
        let mut lpns = Vec::with_capacity(1 << 16);
        for pass in 1..=passes {
            let w = Window::start(&f);
            let mut left = n;
            while left > 0 {
                let c = left.min(1 << 16);
                lpns.clear();
                lpns.extend((0..c).map(|_| rng.gen_range(0..n)));
                f.warm_up_units(&lpns);
                left -= c;
            }
            w.report(&format!("  random 4 KiB, pass {pass}   "), &f);
        }
        println!(
            "  total (FTL build + all passes): {:.2} s wall, {:.2} s CPU",
            t.elapsed().as_secs_f64(),
            cpu_secs() - cpu0
        );
        let s = f.stats();
        println!(
            "  after: WA {:.2}, GC blocks {}, fold blocks {}, free blocks {}, SLC blocks {}, violations {}",
            s.write_amplification(),
            s.gc_blocks,
            s.fold_blocks,
            s.free_blocks,
            s.slc_blocks,
            s.integrity_violations
        );
        if reduced.is_some() {
            let moved = s.gc_units_moved + s.fold_units_moved + s.wl_units_moved;
            println!(
                "  host units {}, relocated units {moved}",
                s.host_units_written
            );
        }
    }
}

/// Process CPU time (user + system), seconds: the figure that does not depend on other load.
fn cpu_secs() -> f64 {
    // SAFETY: `rusage` is plain integers, for which all-zero bytes are a valid value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct we pass; RUSAGE_SELF is always valid.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// One timed phase: wall and CPU time, host and NAND units written (the phase's own WA).
struct Window {
    wall: Instant,
    cpu: f64,
    host: u64,
    nand: u64,
}

impl Window {
    fn start(f: &Ftl) -> Window {
        let s = f.stats();
        Window {
            wall: Instant::now(),
            cpu: cpu_secs(),
            host: s.host_units_written,
            nand: s.nand_units_written,
        }
    }
    fn report(&self, what: &str, f: &Ftl) {
        let (wall, cpu) = (self.wall.elapsed().as_secs_f64(), cpu_secs() - self.cpu);
        let s = f.stats();
        let units = s.host_units_written - self.host;
        let wa = (s.nand_units_written - self.nand) as f64 / units as f64;
        println!(
            "{what}: {units} units in {wall:.2} s wall = {:.1} M units/s ({cpu:.2} s CPU = {:.1} M units/CPU-s), WA {wa:.2}",
            units as f64 / wall / 1e6,
            units as f64 / cpu / 1e6
        );
    }
}
