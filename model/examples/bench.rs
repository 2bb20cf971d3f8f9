//! `make bench`: the model's simulation speed per workload on the default preset
//! (`sm2262-512g`): simulated IO/s per wall-second and per CPU-second of the timed loop, and the
//! peak memory (getrusage max RSS) of the process that built, preconditioned and ran the drive.
//! Each workload runs in its own child process (this program with `--workload NAME`), so each
//! peak is its own. With `SSDLAB_BENCH_FULL=1` it also times the `ssdfans` protocol through the
//! `ssdlab` binary given by `--ssdlab PATH`.
//!
//!     cargo run --release -p ssdlab-model --example bench -- [--out FILE] [--ssdlab PATH]
//!
//! The table goes to stdout and, as Markdown, to FILE (default `out/bench.md`); with
//! `UPDATE_EXPECT=1` it also replaces the table in `docs/performance.md`.

mod common {
    pub mod bench_load;
}
use common::bench_load::{run, Measured, WORKLOADS};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Instant;

const MQSIM_NOTE: &str = "MQSim column absent: the side-by-side MQSim build needs a build \
recipe for fetched third-party code, which this repository does not commit.";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args) {
        Ok(Args::Child(name)) => child(&name),
        Ok(Args::Parent { out, ssdlab }) => {
            if let Err(e) = parent(&out, ssdlab.as_deref()) {
                eprintln!("bench: {e}");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("bench: {e}");
            std::process::exit(2);
        }
    }
}

enum Args {
    Child(String),
    Parent { out: String, ssdlab: Option<String> },
}

fn parse(args: &[String]) -> Result<Args, String> {
    let (mut out, mut ssdlab, mut workload) = ("out/bench.md".to_string(), None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--out" => out = value()?,
            "--ssdlab" => ssdlab = Some(value()?),
            "--workload" => workload = Some(value()?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(match workload {
        Some(w) => Args::Child(w),
        None => Args::Parent { out, ssdlab },
    })
}

/// Runs one workload and prints its figures as one line of numbers for the parent.
fn child(name: &str) {
    let Some(w) = WORKLOADS.iter().find(|w| w.name == name) else {
        eprintln!("bench: no workload {name:?}");
        std::process::exit(2);
    };
    let m = run(w);
    println!(
        "{} {} {} {} {} {} {} {}",
        m.ios, m.wall_s, m.cpu_s, m.sim_s, m.wa, m.setup_s, m.setup_cpu_s, m.integrity_violations
    );
}

fn parse_child_line(line: &str) -> Option<Measured> {
    let v: Vec<f64> = line
        .split_whitespace()
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    (v.len() == 8).then(|| Measured {
        ios: v[0] as u64,
        wall_s: v[1],
        cpu_s: v[2],
        sim_s: v[3],
        wa: v[4],
        setup_s: v[5],
        setup_cpu_s: v[6],
        integrity_violations: v[7] as u64,
    })
}

/// A finished child: its stdout, exit code and resource usage (wait4).
struct Finished {
    stdout: String,
    code: i32,
    cpu_s: f64,
    max_rss_kib: i64,
}

fn spawn_and_wait(cmd: &mut Command) -> Result<Finished, String> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    let mut stdout = String::new();
    if let Some(mut s) = child.stdout.take() {
        s.read_to_string(&mut stdout)
            .map_err(|e| format!("reading {cmd:?}: {e}"))?;
    }
    let mut status = 0;
    // SAFETY: `rusage` is plain integers, for which all-zero bytes are a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child by pid; `status` and `ru` are valid for writes.
    let r = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut ru) };
    if r < 0 {
        return Err(format!("wait4 on {cmd:?} failed"));
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    Ok(Finished {
        stdout,
        code,
        cpu_s: tv(ru.ru_utime) + tv(ru.ru_stime),
        max_rss_kib: ru.ru_maxrss,
    })
}

fn mib(kib: i64) -> String {
    format!("{:.0} MiB", kib as f64 / 1024.0)
}

fn workload_row(what: &str, m: &Measured, max_rss_kib: i64) -> String {
    let wa = if m.wa > 0.0 {
        format!("{:.2}", m.wa)
    } else {
        "-".into()
    };
    format!(
        "| {what} | {} | {:.3} M | {:.3} M | {:.0} k | {wa} | {} | {:.0} s / {:.0} s |",
        m.ios,
        m.ios as f64 / m.wall_s / 1e6,
        m.ios as f64 / m.cpu_s.max(1e-9) / 1e6,
        m.ios as f64 / m.sim_s / 1e3,
        mib(max_rss_kib),
        m.setup_s,
        m.setup_cpu_s
    )
}

fn parent(out: &str, ssdlab: Option<&str>) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("own path: {e}"))?;
    let mut md = String::from(
        "| workload | simulated IOs | IO/s per wall-s | IO/s per CPU-s | simulated drive IOPS \
         | WA | peak RSS | setup wall / CPU |\n|---|---|---|---|---|---|---|---|\n",
    );
    for w in &WORKLOADS {
        eprintln!("bench: {} ...", w.name);
        let f = spawn_and_wait(Command::new(&exe).args(["--workload", w.name]))?;
        let m = parse_child_line(f.stdout.trim())
            .filter(|_| f.code == 0)
            .ok_or(format!("workload {} failed (exit {})", w.name, f.code))?;
        if m.integrity_violations > 0 {
            return Err(format!("workload {}: integrity violations", w.name));
        }
        md += &workload_row(w.what, &m, f.max_rss_kib);
        md.push('\n');
    }
    md += &ssdfans_row(ssdlab)?;
    md += &format!("\n{MQSIM_NOTE}\n");
    println!("{md}");
    write_outputs(out, &md)
}

/// The `ssdfans` protocol's wall time (only with `SSDLAB_BENCH_FULL=1`).
fn ssdfans_row(ssdlab: Option<&str>) -> Result<String, String> {
    if std::env::var("SSDLAB_BENCH_FULL").as_deref() != Ok("1") {
        return Ok(
            "| `ssdfans` protocol | not run (SSDLAB_BENCH_FULL=1 runs it) | | | | | | |\n".into(),
        );
    }
    let bin = ssdlab.ok_or("SSDLAB_BENCH_FULL=1 needs --ssdlab PATH")?;
    eprintln!("bench: ssdfans protocol ...");
    let t = Instant::now();
    let f =
        spawn_and_wait(Command::new(bin).args(["protocol", "ssdfans", "--preset", "sm2262-512g"]))?;
    let wall = t.elapsed().as_secs_f64();
    if f.code != 0 {
        return Err(format!("{bin} protocol ssdfans exited {}", f.code));
    }
    Ok(format!(
        "| `ssdfans` protocol (518 s simulated), whole run | - | {wall:.0} s wall | {:.0} s CPU | - | - | {} | - |\n",
        f.cpu_s,
        mib(f.max_rss_kib)
    ))
}

const BEGIN: &str = "<!-- bench table: begin -->";
const END: &str = "<!-- bench table: end -->";

fn write_outputs(out: &str, md: &str) -> Result<(), String> {
    if let Some(dir) = std::path::Path::new(out).parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(out, md).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("bench: table written to {out}");
    if std::env::var("UPDATE_EXPECT").as_deref() != Ok("1") {
        return Ok(());
    }
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs/performance.md");
    let doc = doc.display().to_string();
    let text = std::fs::read_to_string(&doc).map_err(|e| format!("{doc}: {e}"))?;
    let (Some(a), Some(b)) = (text.find(BEGIN), text.find(END)) else {
        return Err(format!("{doc}: no {BEGIN} ... {END} markers"));
    };
    let new = format!("{}{BEGIN}\n{md}{}", &text[..a], &text[b..]);
    std::fs::write(&doc, new).map_err(|e| format!("{doc}: {e}"))?;
    eprintln!("bench: table replaced in docs/performance.md");
    Ok(())
}
