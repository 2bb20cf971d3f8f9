//! Builds the shared library of a Verilated block: writes `block.v` and the C++ shim
//! ([`super::shim`]), runs `verilator --cc --exe` (C++ generation), writes the shim's state
//! table from the generated root header, then compiles with the generated makefile (`-fPIC
//! -shared`), and caches the result by content hash; a lock file per library makes concurrent
//! callers wait for one build instead of each building it. A traced build (`--trace`) adds a VCD
//! waveform (GTKWave) through vr_trace_open/vr_trace_dump. The block is the file's first module,
//! whatever its name (`top` from rust_hdl, `ssdlab_<block>` exported); `--prefix Vtop` keeps the
//! C++ class `Vtop` the shim is written against.
//!
//! Compiler flags: Verilator's makefile compiles the model with `OPT_FAST` (default `-Os`,
//! which overrides any `-CFLAGS -O`); we pass [`OPT_FAST`]: `-O2`, measured faster on the
//! datapath (docs/performance.md, "Verilator co-simulation"), at the cost of a longer first
//! build, except in debug builds (`make test`), whose short runs gain more from `-O1`'s shorter
//! build. The flag is part of the cache key.

use super::shim::{shim, state_header, Quiesce};
use super::{cache_dir, Port, RunnerError};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Optimisation of the model's C++ (Verilator's `OPT_FAST`): `-O2` in release builds (`make sim`,
/// `make test-slow`: long runs), `-O1` in debug builds (`make test`: short runs, mostly from a
/// cold cache, where the compile dominates; docs/performance.md, "`make test`").
const OPT_FAST: &str = if cfg!(debug_assertions) { "-O1" } else { "-O2" };

const WAIVERS: &str = include_str!("../../../hdl/verilator-waivers.vlt");

/// FNV-1a 64: a stable content hash for cache keys.
fn fnv(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// Returns the path of the built library, building it when not cached.
pub fn build_cached(
    name: &str,
    verilog: &str,
    ports: &[Port],
    trace: bool,
    q: &Quiesce,
) -> Result<PathBuf, RunnerError> {
    assert!(
        q.counters.len() <= 16,
        "{name}: at most 16 fast-forward counters"
    );
    let cpp = shim(ports, trace);
    let (top, _) = super::ports::top_module(verilog)?;
    let key = fnv(&[verilog, &cpp, WAIVERS, &q.key(), OPT_FAST]);
    let root = cache_dir();
    let name = &format!("{name}{}", if trace { "-trace" } else { "" });
    let dir = root.join(format!("{name}-{key:016x}"));
    let lib = dir.join("obj").join("libvtop.so");
    if lib.exists() {
        return Ok(lib);
    }
    let io = |what: &str, p: &Path, e: std::io::Error| {
        RunnerError::Io(format!("{what} {}: {e}", p.display()))
    };
    std::fs::create_dir_all(&root).map_err(|e| io("creating", &root, e))?;
    // One build per library at a time: tests of one binary (and test binaries of a parallel
    // cargo) that want the same model wait for the first build instead of repeating it.
    let lock_path = root.join(format!("{name}-{key:016x}.lock"));
    let lock = std::fs::File::create(&lock_path).map_err(|e| io("creating", &lock_path, e))?;
    lock.lock().map_err(|e| io("locking", &lock_path, e))?;
    if lib.exists() {
        return Ok(lib);
    }
    let tmp = root.join(format!(
        "{name}-{key:016x}.tmp-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| io("creating", &tmp, e))?;
    for (f, text) in [
        ("block.v", verilog),
        ("shim.cpp", cpp.as_str()),
        ("waivers.vlt", WAIVERS),
    ] {
        std::fs::write(tmp.join(f), text).map_err(|e| io("writing", &tmp.join(f), e))?;
    }
    let out = Command::new("verilator")
        .current_dir(&tmp)
        .args([
            "--cc",
            "--exe",
            "-O2",
            "--top-module",
            top,
            "--prefix",
            "Vtop",
            "-Mdir",
            "obj",
        ])
        .args([
            "-CFLAGS",
            "-fPIC",
            "-LDFLAGS",
            "-shared",
            "-o",
            "libvtop.so",
        ])
        .args(if trace { &["--trace"][..] } else { &[][..] })
        .args(["waivers.vlt", "block.v", "shim.cpp"])
        .output()
        .map_err(|e| {
            RunnerError::Io(format!(
                "running verilator (is it installed? scripts/ensure-tools.sh): {e}"
            ))
        })?;
    let mut log_text = [out.stdout.as_slice(), out.stderr.as_slice()].concat();
    let obj = tmp.join("obj");
    let mut ok = out.status.success();
    if ok {
        let root_h = obj.join("Vtop___024root.h");
        let h = std::fs::read_to_string(&root_h).map_err(|e| io("reading", &root_h, e))?;
        std::fs::write(obj.join("vr_state.h"), state_header(&h, q)?)
            .map_err(|e| io("writing", &obj.join("vr_state.h"), e))?;
        let out = Command::new("make")
            .current_dir(&obj)
            .args([
                "-j",
                "2",
                "-f",
                "Vtop.mk",
                &format!("OPT_FAST={OPT_FAST}"),
                "libvtop.so",
            ])
            .output()
            .map_err(|e| RunnerError::Io(format!("running make in {}: {e}", obj.display())))?;
        log_text.extend_from_slice(&out.stdout);
        log_text.extend_from_slice(&out.stderr);
        ok = out.status.success();
    }
    let log = tmp.join("build.log");
    let _ = std::fs::write(&log, &log_text);
    if !ok || !obj.join("libvtop.so").exists() {
        let text = String::from_utf8_lossy(&log_text);
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        return Err(RunnerError::Build {
            block: name.to_string(),
            log: log.display().to_string(),
            tail: tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
        });
    }
    // Under the lock no caller of this code builds the same library at once; a process built
    // without the lock (an older test binary on a shared cache) may still have finished it
    // first, and either copy is complete.
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    Ok(lib)
}
