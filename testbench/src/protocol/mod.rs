//! Test protocols as data: TOML files of ordered steps (see [`schema`] for the format), loaded
//! and checked in full before anything runs ([`load`]), executed on a device ([`run`]) and
//! reported beside published figures ([`report`]). Built-ins (`ssdfans`, `ssdfans-30s`,
//! `anandtech-burst`, `anandtech-sustained`, `power-loss`, `read-qos`, the SNIA PTS tests
//! `pts-iops`, `pts-throughput`, `pts-latency`) are embedded from `testbench/protocols/`; the
//! `power_loss` step runs in [`power`], the `rounds` step (steady-state rounds) in [`rounds`].

pub mod burst;
pub mod power;
pub mod report;
pub mod rounds;
pub mod run;
pub mod schema;
pub mod seeds;
pub mod set;
pub mod steady_state;

use crate::error::InputError;
use crate::fio::value::{parse_bytes, parse_size, parse_time, TimeUnit};
use crate::fio::{decode_job_text, parse_job_file, JobSpec, SizeSpec};
use schema::{Mode, Pattern, ProtocolDef, ReportDef, StepDef};
use ssdlab_model::SimTime;
use std::path::Path;

/// Built-in protocols: (name, file, text).
pub const BUILTINS: &[(&str, &str, &str)] = &[
    (
        "ssdfans",
        "protocols/ssdfans.toml",
        include_str!("../../protocols/ssdfans.toml"),
    ),
    (
        "ssdfans-30s",
        "protocols/ssdfans-30s.toml",
        include_str!("../../protocols/ssdfans-30s.toml"),
    ),
    (
        "anandtech-burst",
        "protocols/anandtech-burst.toml",
        include_str!("../../protocols/anandtech-burst.toml"),
    ),
    (
        "anandtech-sustained",
        "protocols/anandtech-sustained.toml",
        include_str!("../../protocols/anandtech-sustained.toml"),
    ),
    (
        "power-loss",
        "protocols/power-loss.toml",
        include_str!("../../protocols/power-loss.toml"),
    ),
    (
        "read-qos",
        "protocols/read-qos.toml",
        include_str!("../../protocols/read-qos.toml"),
    ),
    (
        "pts-iops",
        "protocols/pts-iops.toml",
        include_str!("../../protocols/pts-iops.toml"),
    ),
    (
        "pts-throughput",
        "protocols/pts-throughput.toml",
        include_str!("../../protocols/pts-throughput.toml"),
    ),
    (
        "pts-latency",
        "protocols/pts-latency.toml",
        include_str!("../../protocols/pts-latency.toml"),
    ),
];

#[derive(Clone, Debug)]
pub struct Protocol {
    pub name: String,
    pub description: String,
    pub source: Option<String>,
    /// Printed beside this protocol's validation, not judged ([`schema::ProtocolDef::compare`]).
    pub compare: Option<String>,
    pub file: String,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug)]
pub enum Step {
    Precondition {
        label: String,
        mode: Mode,
        pattern: Pattern,
        bs: u64,
        passes: u32,
        offset: SizeSpec,
        size: Option<SizeSpec>,
        iodepth: u32,
        numjobs: u32,
        /// Line of the step's `[[step]]` header (0 when the file has none), for errors found
        /// against the device.
        line: usize,
    },
    Fio {
        id: Option<String>,
        label: String,
        jobs: Vec<JobSpec>,
        report: Option<ReportDef>,
    },
    Idle {
        label: String,
        duration: SimTime,
    },
    Burst {
        id: Option<String>,
        label: String,
        jobs: Vec<JobSpec>,
        bursts: u32,
        duty_pct: u32,
        report: Option<ReportDef>,
    },
    Score {
        id: Option<String>,
        label: String,
        of: Vec<String>,
        published: Option<f64>,
        source: Option<String>,
        note: Option<String>,
    },
    PowerLoss {
        label: String,
        jobs: Vec<JobSpec>,
        at: CutTime,
        plp: Option<bool>,
    },
    /// Run-time settings for the steps after it: the drive's `nand.suspend` keys.
    Set {
        label: String,
        keys: Vec<(String, toml::Value)>,
    },
    /// Rounds of a fio job matrix until steady state or a round cap ([`rounds`]).
    Rounds(rounds::RoundsStep),
}

/// When a `power_loss` step cuts power, measured from the start of its job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutTime {
    At(SimTime),
    /// Uniform in [0, max), drawn from the step's seed.
    Random {
        max: SimTime,
    },
}

/// A built-in protocol by name, or a protocol file by path.
pub fn resolve(name_or_path: &str) -> Result<Protocol, InputError> {
    if let Some((_, file, text)) = BUILTINS.iter().find(|(n, ..)| *n == name_or_path) {
        return load(text, file, None);
    }
    if !Path::new(name_or_path).exists() {
        let names: Vec<&str> = BUILTINS.iter().map(|b| b.0).collect();
        return Err(InputError::file(
            name_or_path,
            format!(
                "no such protocol file, and not a built-in protocol ({})",
                names.join(", ")
            ),
        ));
    }
    let text = crate::input_file::read_text(Path::new(name_or_path), name_or_path)?;
    load(&text, name_or_path, Path::new(name_or_path).parent())
}

/// Line (1-based) of the `n`-th `[[step]]` header, if the file uses that layout.
fn step_line(text: &str, n: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "[[step]]")
        .nth(n)
        .map(|(i, _)| i + 1)
}

/// Parses an inline job so that its errors carry the protocol file's own line numbers.
fn inline_jobs(text: &str, file: &str, step: usize, job: &str) -> Result<Vec<JobSpec>, InputError> {
    let start = step_line(text, step).and_then(|s| {
        text.lines().enumerate().skip(s).find(|(_, l)| {
            let t = l.trim_start();
            t.starts_with("job") && t.contains("\"\"\"")
        })
    });
    let pad = match start {
        Some((i, l)) if l.trim_end().ends_with("\"\"\"") => i + 1,
        Some((i, _)) => i,
        None => 0,
    };
    parse_job_file(&format!("{}{job}", "\n".repeat(pad)), file)
}

/// The protocol `validate` runs beside `name`, not judged: `arg` (`validate --compare`; `none`
/// for none) or else the protocol's own `compare` key.
pub fn compare_of(name: &str, arg: Option<&str>) -> Result<Option<String>, InputError> {
    Ok(match arg {
        Some("none") => None,
        Some(c) => Some(c.to_string()),
        None => resolve(name)?.compare,
    })
}

/// Parses and checks a whole protocol; `dir` resolves `file =` paths of fio steps.
pub fn load(text: &str, file: &str, dir: Option<&Path>) -> Result<Protocol, InputError> {
    let def: ProtocolDef = toml::from_str(text).map_err(|e| InputError::toml(file, text, &e))?;
    if def.steps.is_empty() {
        return Err(InputError::file(
            file,
            "a protocol needs at least one [[step]]",
        ));
    }
    let mut ids: Vec<String> = Vec::new();
    let mut steps = Vec::new();
    for (i, s) in def.steps.into_iter().enumerate() {
        steps.push(convert_step(s, i, text, file, dir, &mut ids)?);
    }
    Ok(Protocol {
        name: def.name,
        description: def.description,
        source: def.source,
        compare: def.compare,
        file: file.to_string(),
        steps,
    })
}

/// A published figure is a positive number: NaN would compare as within any tolerance, 0 or a
/// negative one makes the error in percent meaningless.
fn check_published(v: Option<f64>) -> Result<(), String> {
    match v {
        Some(p) if !(p.is_finite() && p > 0.0) => {
            Err(format!("published figure {p} must be a positive number"))
        }
        _ => Ok(()),
    }
}

/// Checks one step definition and resolves its values; `ids` collects reported step ids.
fn convert_step(
    s: StepDef,
    i: usize,
    text: &str,
    file: &str,
    dir: Option<&Path>,
    ids: &mut Vec<String>,
) -> Result<Step, InputError> {
    let line = step_line(text, i).unwrap_or(0);
    let err = |r: String| match line {
        0 => InputError::file(file, format!("step {}: {r}", i + 1)),
        l => InputError::at(file, l, format!("step {}: {r}", i + 1)),
    };
    let step = match s {
        StepDef::Precondition(p) => {
            let bs = parse_bytes(&p.bs, 1024).map_err(|e| err(format!("bs: {e}")))?;
            if bs == 0 || bs % 4096 != 0 || bs > 16 << 20 {
                return Err(err(format!(
                    "bs {bs} must be a multiple of 4 KiB, at most 16 MiB"
                )));
            }
            if !(1..=100).contains(&p.passes)
                || !(1..=1023).contains(&p.iodepth)
                || !(1..=256).contains(&p.numjobs)
            {
                return Err(err(
                    "passes must be 1..100, iodepth 1..1023, numjobs 1..256".into(),
                ));
            }
            let offset = match &p.offset {
                Some(o) => parse_size(o, 1024).map_err(|e| err(format!("offset: {e}")))?,
                None => SizeSpec::Bytes(0),
            };
            let size = p
                .size
                .as_deref()
                .map(|s| parse_size(s, 1024))
                .transpose()
                .map_err(|e| err(format!("size: {e}")))?;
            let label = p
                .label
                .unwrap_or_else(|| format!("{:?} {:?} precondition", p.mode, p.pattern));
            Step::Precondition {
                label,
                mode: p.mode,
                pattern: p.pattern,
                bs,
                passes: p.passes,
                offset,
                size,
                iodepth: p.iodepth,
                numjobs: p.numjobs,
                line,
            }
        }
        StepDef::Fio(f) => {
            let jobs = match (&f.job, &f.file) {
                (Some(j), None) => inline_jobs(text, file, i, j)?,
                (None, Some(path)) => {
                    let p = dir.map_or_else(|| Path::new(path).to_path_buf(), |d| d.join(path));
                    let ps = p.display().to_string();
                    let t = crate::input_file::read_bytes(&p, &ps)
                        .map_err(|e| err(format!("job file `{ps}`: {}", e.reason())))?;
                    parse_job_file(&decode_job_text(&t), &ps)?
                }
                _ => {
                    return Err(err(
                        "a fio step needs exactly one of `job` (inline) or `file`".into(),
                    ))
                }
            };
            if let Some(r) = &f.report {
                check_published(r.published).map_err(err)?;
                ids.extend(f.id.clone());
            }
            Step::Fio {
                id: f.id,
                label: f.label,
                jobs,
                report: f.report,
            }
        }
        StepDef::Idle(d) => {
            let duration = parse_time(&d.duration, TimeUnit::Secs)
                .map_err(|e| err(format!("duration: {e}")))?;
            Step::Idle {
                label: d.label.unwrap_or_else(|| format!("idle {}", d.duration)),
                duration,
            }
        }
        StepDef::Burst(b) => {
            if !(1..=1000).contains(&b.bursts) || !(1..=100).contains(&b.duty_cycle_pct) {
                return Err(err(
                    "bursts must be 1..1000 and duty_cycle_pct 1..100".into()
                ));
            }
            let jobs = inline_jobs(text, file, i, &b.job)?;
            if let Some(r) = &b.report {
                check_published(r.published).map_err(err)?;
                ids.extend(b.id.clone());
            }
            Step::Burst {
                id: b.id,
                label: b.label,
                jobs,
                bursts: b.bursts,
                duty_pct: b.duty_cycle_pct,
                report: b.report,
            }
        }
        StepDef::Score(s) => {
            if s.of.is_empty() {
                return Err(err("`of` lists no steps".into()));
            }
            if let Some(missing) = s.of.iter().find(|o| !ids.contains(o)) {
                return Err(err(format!(
                    "`of` names `{missing}`, which is not the id of an earlier reported step"
                )));
            }
            check_published(s.published).map_err(err)?;
            ids.extend(s.id.clone());
            Step::Score {
                id: s.id,
                label: s.label,
                of: s.of,
                published: s.published,
                source: s.source,
                note: s.note,
            }
        }
        StepDef::PowerLoss(d) => {
            let time = |what: &str, v: &str| {
                parse_time(v, TimeUnit::Secs).map_err(|e| err(format!("{what}: {e}")))
            };
            let at = match (d.at.trim(), &d.at_max) {
                ("random", Some(m)) => {
                    let max = time("at_max", m)?;
                    if max == SimTime::ZERO {
                        return Err(err("at_max must be above 0".into()));
                    }
                    CutTime::Random { max }
                }
                ("random", None) => return Err(err("at = \"random\" needs at_max".into())),
                (_, Some(_)) => return Err(err("at_max goes only with at = \"random\"".into())),
                (v, None) => CutTime::At(time("at", v)?),
            };
            Step::PowerLoss {
                jobs: inline_jobs(text, file, i, &d.job)?,
                label: d.label,
                at,
                plp: d.plp,
            }
        }
        StepDef::Set(d) => Step::Set {
            keys: set::set_keys(&d.set).map_err(err)?,
            label: d.label,
        },
        StepDef::Rounds(d) => {
            let r = rounds::convert(d, |job| inline_jobs(text, file, i, job), err)?;
            ids.extend(r.id.clone());
            Step::Rounds(r)
        }
    };
    Ok(step)
}

#[cfg(test)]
mod power_tests;
#[cfg(test)]
mod tests;
