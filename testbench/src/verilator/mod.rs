//! Generic Verilator runner: compiles the Verilog that rust_hdl generates for a block (`module
//! top`) with Verilator into a shared library and drives its ports from Rust, cycle by cycle.
//! Any HDL block can use it (NAND sequencer, mapping cache, NVMe front end).
//!
//! Why this design: a generated C++ shim with `extern "C"` set/get/eval functions, built by
//! `verilator --cc --exe --build` as a `-shared -fPIC` library and loaded with `libloading`, needs
//! only Verilator and g++ (already required by `make lint`) and one small, well-kept crate; it
//! works for any port list without per-block C++ and is ~10^6-10^7 cycles/s on small blocks.
//! (The `marlin` crate would add its own build conventions and a newer toolchain requirement.)
//!
//! API:
//! ```ignore
//! let v = VerilatorModel::build("nand_channel", &verilog)?; // cached under target/verilator/
//! let clk = v.port("clock")?;                // PortId; unknown names are an error naming them
//! v.set(cmd_valid, 1); v.eval();             // inputs up to 64 bits; set_wide for wider
//! let ready = v.get(cmd_ready);              // outputs after eval()
//! v.tick(clk);                               // clock 1, eval, clock 0, eval: one rising edge
//! ```
//! Packed interface (one FFI call per cycle, for benches that drive every port each cycle):
//! [`VerilatorModel::put`]/[`VerilatorModel::out`] read and write Rust-side word buffers (no
//! FFI), [`VerilatorModel::io`] moves all inputs in, settles and brings all outputs back —
//! optionally after a rising edge — and [`VerilatorModel::run_quiet`] keeps clocking inside C++
//! while the outputs the bench watches stay quiet, fast-forwarding a quiescent design
//! ([`shim`] explains when that is exact). The fast-forward is disabled for a design with an
//! asynchronous memory read ([`async_memory_reads`]), found when the model is loaded:
//! [`VerilatorModel::fast_forward_hazard`] names it, and `run_quiet` then only clocks.
//!
//! Ports are parsed from the `module top(...)` declarations (`input wire [N:0] name;`,
//! `output reg [N:0] name;`); rust-hdl port arrays appear as `name$i` (e.g. `ce$3`). The cache key is a hash of the Verilog text, the shim and the
//! waiver file, so a changed block rebuilds; set `SSDLAB_VERILATOR_CACHE` to move the cache.
//! Builds are atomic (built in a temp folder, then renamed), so parallel tests may share it.

mod build;
mod ports;
mod shim;
mod verilog_scan;

pub use ports::{parse_ports, Dir, Port};
pub use shim::Quiesce;
pub use verilog_scan::{async_memory_reads, AsyncMemRead};

use libloading::{Library, Symbol};
use std::ffi::c_void;
use std::path::PathBuf;

/// Errors of the runner; each names the block, file or port concerned.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error("verilator runner: {0}")]
    Parse(String),
    #[error("verilator runner: building {block} failed (log: {log}):\n{tail}")]
    Build {
        block: String,
        log: String,
        tail: String,
    },
    #[error("verilator runner: {0}")]
    Io(String),
    #[error("verilator runner: block {block} has no port `{port}`")]
    NoPort { block: String, port: String },
    #[error("verilator runner: block {block} cannot be fast-forwarded: {read}; step it with SSDLAB_STEPPING=quiet (same results), or read that memory synchronously")]
    FastForward { block: String, read: AsyncMemRead },
}

/// Index of a port in [`VerilatorModel::ports`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortId(pub usize);

type NewFn = unsafe extern "C" fn() -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type EvalFn = unsafe extern "C" fn(*mut c_void);
type SetFn = unsafe extern "C" fn(*mut c_void, u32, *const u32);
type GetFn = unsafe extern "C" fn(*mut c_void, u32, *mut u32);
type DumpFn = unsafe extern "C" fn(*mut c_void, u64);
type OpenFn = unsafe extern "C" fn(*mut c_void, *const std::ffi::c_char) -> i32;
type IoFn = unsafe extern "C" fn(*mut c_void, i32, *const u32, *mut u32, u64);
type RunFn = unsafe extern "C" fn(
    *mut c_void,
    i32,
    *const u32,
    *mut u32,
    *const u32,
    *const u32,
    u64,
    u64,
    i32,
    i32,
    u64,
    u64,
    u64,
) -> u64;

/// A second clock that [`VerilatorModel::run_quiet`] clocks beside the main one, never faster:
/// main-clock cycle c spans (c x `main_period_ps`, (c + 1) x `main_period_ps`] ps and port `port`
/// rises at every multiple of `period_ps` — inside a cycle on its own, before the cycle's main
/// edge; at its end together with it (as a bench that clocks both in Rust does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecondClock {
    pub port: PortId,
    /// Its period, at least the main clock's.
    pub period_ps: u64,
    pub main_period_ps: u64,
    /// The number, on that timeline, of the first cycle `run_quiet` runs.
    pub first_cycle: u64,
}

/// A Verilated block, loaded and instantiated.
pub struct VerilatorModel {
    name: String,
    ports: Vec<Port>,
    handle: *mut c_void,
    f_free: FreeFn,
    f_eval: EvalFn,
    f_set: SetFn,
    f_get: GetFn,
    f_io: IoFn,
    f_run: RunFn,
    /// Word offset of each port in its direction's buffer.
    offs: Vec<usize>,
    inp: Vec<u32>,
    outp: Vec<u32>,
    /// Traced builds: dumps the VCD at a time stamp (two per cycle).
    f_dump: Option<DumpFn>,
    cycles: u64,
    /// The first memory read that makes the fast-forward inexact, if any.
    ff_hazard: Option<AsyncMemRead>,
    // Dropped last: the functions above point into it.
    _lib: Library,
}

impl VerilatorModel {
    /// Builds (or reuses from the cache) and loads the block whose generated Verilog is `verilog`.
    pub fn build(name: &str, verilog: &str) -> Result<Self, RunnerError> {
        Self::load(name, verilog, None, &Quiesce::default())
    }

    /// Like [`VerilatorModel::build`] (or traced, with `vcd`), with the block knowledge `q` for
    /// the fast-forward of [`VerilatorModel::run_quiet`].
    pub fn build_with(
        name: &str,
        verilog: &str,
        vcd: Option<&std::path::Path>,
        q: &Quiesce,
    ) -> Result<Self, RunnerError> {
        Self::load(name, verilog, vcd, q)
    }

    /// Like [`VerilatorModel::build`], built with `--trace`, writing a VCD waveform of every
    /// signal to `vcd` (for GTKWave): two time units per clock cycle (rising edge at odd times).
    pub fn build_traced(
        name: &str,
        verilog: &str,
        vcd: &std::path::Path,
    ) -> Result<Self, RunnerError> {
        Self::load(name, verilog, Some(vcd), &Quiesce::default())
    }

    fn load(
        name: &str,
        verilog: &str,
        vcd: Option<&std::path::Path>,
        q: &Quiesce,
    ) -> Result<Self, RunnerError> {
        let ports = parse_ports(verilog)?;
        let lib_path = build::build_cached(name, verilog, &ports, vcd.is_some(), q)?;
        let (offs, n_in, n_out) = shim::layout(&ports);
        // SAFETY: the library was generated by `build` with exactly these C signatures.
        unsafe {
            let lib = Library::new(&lib_path)
                .map_err(|e| RunnerError::Io(format!("loading {}: {e}", lib_path.display())))?;
            let sym = |n: &[u8]| -> Result<*const (), RunnerError> {
                let s: Symbol<*const ()> = lib
                    .get(n)
                    .map_err(|e| RunnerError::Io(format!("{}: {e}", lib_path.display())))?;
                Ok(*s)
            };
            let f_new: NewFn = std::mem::transmute(sym(b"vr_new")?);
            let f_free: FreeFn = std::mem::transmute(sym(b"vr_free")?);
            let f_eval: EvalFn = std::mem::transmute(sym(b"vr_eval")?);
            let f_set: SetFn = std::mem::transmute(sym(b"vr_set")?);
            let f_get: GetFn = std::mem::transmute(sym(b"vr_get")?);
            let f_io: IoFn = std::mem::transmute(sym(b"vr_io")?);
            let f_run: RunFn = std::mem::transmute(sym(b"vr_run")?);
            let handle = f_new();
            assert!(!handle.is_null(), "vr_new returned null");
            let mut f_dump = None;
            if let Some(path) = vcd {
                let f_open: OpenFn = std::mem::transmute(sym(b"vr_trace_open")?);
                f_dump = Some(std::mem::transmute::<*const (), DumpFn>(sym(
                    b"vr_trace_dump",
                )?));
                let c = std::ffi::CString::new(path.to_string_lossy().as_bytes())
                    .map_err(|e| RunnerError::Io(format!("{}: {e}", path.display())))?;
                if f_open(handle, c.as_ptr()) != 0 {
                    f_free(handle);
                    return Err(RunnerError::Io(format!(
                        "cannot open waveform file {}",
                        path.display()
                    )));
                }
            }
            let (inp, outp) = (vec![0; n_in], vec![0; n_out]);
            let ff_hazard = async_memory_reads(verilog).into_iter().next();
            Ok(VerilatorModel {
                name: name.to_string(),
                ports,
                handle,
                f_free,
                f_eval,
                f_set,
                f_get,
                f_io,
                f_run,
                offs,
                inp,
                outp,
                f_dump,
                cycles: 0,
                ff_hazard,
                _lib: lib,
            })
        }
    }
    /// The block's ports in declaration order.
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }
    /// The block's name as given to `build`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Why `run_quiet` cannot fast-forward this design (an asynchronous memory read), if so.
    pub fn fast_forward_hazard(&self) -> Option<&AsyncMemRead> {
        self.ff_hazard.as_ref()
    }
    /// Looks a port up by name.
    pub fn port(&self, name: &str) -> Result<PortId, RunnerError> {
        self.ports
            .iter()
            .position(|p| p.name == name)
            .map(PortId)
            .ok_or_else(|| RunnerError::NoPort {
                block: self.name.clone(),
                port: name.to_string(),
            })
    }
    /// Sets an input of up to 64 bits (higher bits of `v` beyond the width are dropped).
    pub fn set(&mut self, p: PortId, v: u64) {
        let port = &self.ports[p.0];
        assert!(
            port.dir == Dir::In,
            "{}: `{}` is not an input",
            self.name,
            port.name
        );
        assert!(
            port.width <= 64,
            "{}: `{}` is {} bits wide, use set_wide",
            self.name,
            port.name,
            port.width
        );
        let w = [v as u32, (v >> 32) as u32];
        // SAFETY: vr_set reads at most ceil(width/32) <= 2 words.
        unsafe { (self.f_set)(self.handle, p.0 as u32, w.as_ptr()) }
    }
    /// Sets an input of any width from 32-bit words, least significant first.
    pub fn set_wide(&mut self, p: PortId, words: &[u32]) {
        let port = &self.ports[p.0];
        assert!(
            port.dir == Dir::In,
            "{}: `{}` is not an input",
            self.name,
            port.name
        );
        assert_eq!(
            words.len(),
            port.words(),
            "{}: `{}` takes {} words",
            self.name,
            port.name,
            port.words()
        );
        // SAFETY: exactly port.words() words are provided.
        unsafe { (self.f_set)(self.handle, p.0 as u32, words.as_ptr()) }
    }
    /// Reads a port of up to 64 bits (as of the last `eval`).
    pub fn get(&self, p: PortId) -> u64 {
        let port = &self.ports[p.0];
        assert!(
            port.width <= 64,
            "{}: `{}` is {} bits wide, use get_wide",
            self.name,
            port.name,
            port.width
        );
        let mut w = [0u32; 2];
        // SAFETY: vr_get writes at most 2 words for ports up to 64 bits.
        unsafe { (self.f_get)(self.handle, p.0 as u32, w.as_mut_ptr()) };
        w[0] as u64 | (w[1] as u64) << 32
    }
    /// Reads a port of any width as 32-bit words, least significant first.
    pub fn get_wide(&self, p: PortId) -> Vec<u32> {
        let mut w = vec![0u32; self.ports[p.0].words()];
        // SAFETY: the buffer holds port.words() words.
        unsafe { (self.f_get)(self.handle, p.0 as u32, w.as_mut_ptr()) };
        w
    }
    /// Settles combinational logic after inputs changed.
    pub fn eval(&mut self) {
        // SAFETY: handle is live until drop.
        unsafe { (self.f_eval)(self.handle) }
    }
    /// One rising clock edge on `clock`: clock high, eval, clock low, eval.
    pub fn tick(&mut self, clock: PortId) {
        self.set(clock, 1);
        self.eval();
        self.dump(2 * self.cycles + 1);
        self.set(clock, 0);
        self.eval();
        self.dump(2 * self.cycles + 2);
        self.cycles += 1;
    }
    fn dump(&mut self, time: u64) {
        if let Some(f) = self.f_dump {
            // SAFETY: handle is live; the traced library exports vr_trace_dump.
            unsafe { f(self.handle, time) }
        }
    }
    /// Packed interface: sets input `p` in the Rust-side buffer (bits beyond the width are
    /// dropped); takes effect at the next [`VerilatorModel::io`].
    #[inline]
    pub fn put(&mut self, p: PortId, v: u128) {
        let port = &self.ports[p.0];
        debug_assert!(
            port.dir == Dir::In,
            "{}: `{}` is not an input",
            self.name,
            port.name
        );
        let v = if port.width >= 128 {
            v
        } else {
            v & ((1u128 << port.width) - 1)
        };
        let o = self.offs[p.0];
        for k in 0..port.words() {
            self.inp[o + k] = (v >> (32 * k)) as u32;
        }
    }
    /// Packed interface: output (or input) `p` as of the last `io`/`run_quiet` (up to 128 bits).
    #[inline]
    pub fn out(&self, p: PortId) -> u128 {
        let port = &self.ports[p.0];
        let (buf, o) = (
            if port.dir == Dir::In {
                &self.inp
            } else {
                &self.outp
            },
            self.offs[p.0],
        );
        (0..port.words().min(4)).fold(0u128, |a, k| a | (buf[o + k] as u128) << (32 * k))
    }
    /// Packed interface: with `edge`, a rising edge on `clock` first (one cycle counted), then
    /// every buffered input applied, the design settled, every output read back: one FFI call.
    pub fn io(&mut self, clock: PortId, edge: bool) {
        let clk = if edge { clock.0 as i32 } else { -1 };
        // SAFETY: the buffers have the shim's VR_NIN / VR_NOUT words (same layout function).
        unsafe {
            (self.f_io)(
                self.handle,
                clk,
                self.inp.as_ptr(),
                self.outp.as_mut_ptr(),
                self.cycles,
            )
        };
        self.cycles += edge as u64;
    }
    /// An all-zero output mask (one bit per output bit) for [`VerilatorModel::run_quiet`].
    pub fn out_mask(&self) -> Vec<u32> {
        vec![0; self.outp.len()]
    }
    /// Sets port `p`'s bits in an output mask.
    pub fn mask_port(&self, mask: &mut [u32], p: PortId) {
        let port = &self.ports[p.0];
        assert!(
            port.dir == Dir::Out,
            "{}: `{}` is not an output",
            self.name,
            port.name
        );
        for k in 0..port.words() {
            let bits = port.width - 32 * k as u32;
            mask[self.offs[p.0] + k] = if bits >= 32 {
                u32::MAX
            } else {
                (1 << bits) - 1
            };
        }
    }
    /// Clocks up to `max` cycles inside C++ with the inputs applied by the last `io` (which must
    /// have settled them, clock low), stopping before the first cycle in which an output bit of
    /// `nz` is 1 or one of `chg` differs from its value at entry; returns the cycles clocked.
    /// A quiescent design is fast-forwarded when `ff` (the VCD of a traced build then has no
    /// time stamps for the skipped cycles) and the design has no [`Self::fast_forward_hazard`]
    /// (else every cycle is clocked: callers report the hazard, see `hw_exec::Stepping`).
    /// With `second`, that clock's edges are clocked too, and the fast-forward waits until the
    /// state holds over edges of both clocks (`shim_run.cpp`).
    pub fn run_quiet(
        &mut self,
        clock: PortId,
        nz: &[u32],
        chg: &[u32],
        max: u64,
        ff: bool,
        second: Option<SecondClock>,
    ) -> u64 {
        assert!(
            nz.len() == self.outp.len() && chg.len() == self.outp.len(),
            "{}: masks of {} words",
            self.name,
            self.outp.len()
        );
        let (nclk, c0, per, nper) = match second {
            None => (-1, 0, 0, 0),
            Some(s) => {
                assert!(
                    s.main_period_ps > 0 && s.period_ps >= s.main_period_ps,
                    "{}: second clock of {} ps beside a main clock of {} ps",
                    self.name,
                    s.period_ps,
                    s.main_period_ps
                );
                let end = s
                    .first_cycle
                    .checked_add(max)
                    .and_then(|c| c.checked_mul(s.main_period_ps));
                assert!(
                    end.is_some(),
                    "{}: cycle {} + {max} overflows in ps",
                    self.name,
                    s.first_cycle
                );
                (
                    s.port.0 as i32,
                    s.first_cycle,
                    s.main_period_ps,
                    s.period_ps,
                )
            }
        };
        // SAFETY: buffers and masks have the shim's word counts.
        let n = unsafe {
            (self.f_run)(
                self.handle,
                clock.0 as i32,
                self.inp.as_ptr(),
                self.outp.as_mut_ptr(),
                nz.as_ptr(),
                chg.as_ptr(),
                max,
                self.cycles,
                (ff && self.ff_hazard.is_none()) as i32,
                nclk,
                c0,
                per,
                nper,
            )
        };
        assert!(n <= max, "{}: vr_run ran {n} > {max} cycles", self.name);
        self.cycles += n;
        n
    }
    /// Rising edges so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }
}

impl Drop for VerilatorModel {
    fn drop(&mut self) {
        // SAFETY: handle came from vr_new of the still-loaded library.
        unsafe { (self.f_free)(self.handle) }
    }
}

/// The cache folder: `$SSDLAB_VERILATOR_CACHE`, else `<workspace>/target/verilator`.
pub fn cache_dir() -> PathBuf {
    match std::env::var_os("SSDLAB_VERILATOR_CACHE") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("target")
            .join("verilator"),
    }
}

#[cfg(test)]
mod tests;
