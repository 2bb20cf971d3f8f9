//! The protocol file format (TOML): an ordered list of `[[step]]` tables, each with a `kind`.
//!
//! ```toml
//! name = "my-protocol"
//! description = "what it measures"
//! source = "where its procedure comes from"
//! compare = "other-protocol" # optional: `validate` runs it too and prints it beside, not judged
//!
//! [[step]]
//! kind = "precondition"      # fill the drive: functional (untimed FTL fast path) or timed
//! mode = "functional"        # or "timed"
//! pattern = "sequential"     # or "random" (every block once per pass, seeded: fio's random
//!                            # map) or "uniform" (uniform random with repetition: fio's
//!                            # norandommap; a pass is as many writes as the region has blocks)
//! bs = "1m"
//! passes = 2
//! size = "100%"              # optional region, fio size syntax; `offset` too
//!
//! [[step]]
//! kind = "fio"               # a fio job file, inline (`job`) or by path (`file`, relative)
//! id = "seq-read"
//! label = "Sequential read"
//! job = """
//! [seq-read]
//! rw=read
//! bs=128k
//! iodepth=32
//! size=20g
//! runtime=30
//! """
//! report = { metric = "read_mbps", published = 3222, source = "SSDFans 2018" }
//!
//! [[step]]
//! kind = "idle"              # no host IO: background GC and SLC folding may run
//! duration = "60s"
//!
//! [[step]]
//! kind = "burst"             # the job run `bursts` times at offsets advancing by its size,
//! bursts = 8                 # idling between bursts to keep the given duty cycle
//! duty_cycle_pct = 20
//!
//! [[step]]
//! kind = "score"             # the mean of earlier reported steps (by id)
//! of = ["qd1", "qd2", "qd4"]
//!
//! [[step]]
//! kind = "set"               # change run-time settings of the drive for the steps after it:
//! label = "Suspend on"       # only nand.suspend.* keys (program/erase suspend)
//! set = { "nand.suspend.policy" = "always" }
//!
//! [[step]]
//! kind = "power_loss"        # power fails `at` into the job, the drive mounts, the job goes on
//! label = "Cut during random writes"
//! at = "500ms"               # or "random": uniform in [0, at_max) from the run's seed
//! plp = false                # optional: hold-up capacitors for this cut (default ftl.plp)
//! job = """
//! [w]
//! rw=randwrite
//! bs=4k
//! size=1g
//! """
//!
//! [[step]]
//! kind = "rounds"            # rounds of a matrix of fio jobs until the SNIA steady-state
//! id = "iops"                # criterion holds on one cell's figure, or a round cap
//! label = "IOPS rounds"      # (see `protocol/rounds.rs`)
//! metrics = ["iops"]         # figures per cell; the first is the tracking variable's
//! track = { rwmixread = 0, bs = "4k" }
//! steady_state = { max_rounds = 25, window = 5 }
//! job = """
//! [iops]
//! rw=randrw
//! runtime=1
//! time_based
//! """
//! [[step.axis]]              # each cell appends `option=value` to the job; first axis outermost
//! option = "rwmixread"
//! values = [100, 65, 0]
//! [[step.axis]]
//! option = "bs"
//! values = ["128k", "4k"]
//! ```

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtocolDef {
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub source: Option<String>,
    /// A protocol `ssdlab validate` runs at the same seeds and prints beside this one, not
    /// judged (a built-in name or a file).
    #[serde(default)]
    pub compare: Option<String>,
    #[serde(rename = "step")]
    pub steps: Vec<StepDef>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepDef {
    Precondition(PreconditionDef),
    Fio(FioDef),
    Idle(IdleDef),
    Burst(BurstDef),
    Score(ScoreDef),
    PowerLoss(PowerLossDef),
    Set(SetDef),
    Rounds(RoundsDef),
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Functional,
    Timed,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    Sequential,
    Random,
    /// Random with repetition (fio `norandommap`). A full pass of it leaves some blocks unwritten
    /// and others written several times, so the drive's invalid space stays spread over its
    /// blocks (the steady state of SNIA-style random preconditioning); a `random` pass instead
    /// rewrites every block exactly once, which leaves the previous data wholly invalid.
    Uniform,
}

fn one() -> u32 {
    1
}
fn qd32() -> u32 {
    32
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreconditionDef {
    #[serde(default)]
    pub label: Option<String>,
    pub mode: Mode,
    pub pattern: Pattern,
    pub bs: String,
    #[serde(default = "one")]
    pub passes: u32,
    #[serde(default)]
    pub offset: Option<String>,
    #[serde(default)]
    pub size: Option<String>,
    /// Timed mode only: queue depth and jobs.
    #[serde(default = "qd32")]
    pub iodepth: u32,
    #[serde(default = "one")]
    pub numjobs: u32,
}

/// What number of a step to report, and the published figure to print beside it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportDef {
    pub metric: Metric,
    #[serde(default)]
    pub published: Option<f64>,
    #[serde(default)]
    pub source: Option<String>,
    /// Free text shown beside the result (e.g. a reviewer's words when there is no number).
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    ReadMbps,
    WriteMbps,
    ReadIops,
    WriteIops,
    ReadLatAvgUs,
    WriteLatAvgUs,
    ReadLatP99Us,
    WriteLatP99Us,
    /// p99.9 (`read_lat_p999_us`), p99.99 (`read_lat_p9999_us`) and the largest completion
    /// latency of the step (`read_lat_max_us`); writes likewise.
    ReadLatP999Us,
    WriteLatP999Us,
    ReadLatP9999Us,
    WriteLatP9999Us,
    ReadLatMaxUs,
    WriteLatMaxUs,
    AvgPowerW,
    MbpsPerW,
    /// Both directions together: IOs and bytes per second, mean and largest completion latency.
    Iops,
    Mbps,
    LatAvgUs,
    LatMaxUs,
}

impl Metric {
    pub fn unit(self) -> &'static str {
        match self {
            Metric::ReadMbps | Metric::WriteMbps | Metric::Mbps => "MB/s",
            Metric::ReadIops | Metric::WriteIops | Metric::Iops => "IOPS",
            Metric::ReadLatAvgUs
            | Metric::WriteLatAvgUs
            | Metric::ReadLatP99Us
            | Metric::WriteLatP99Us
            | Metric::ReadLatP999Us
            | Metric::WriteLatP999Us
            | Metric::ReadLatP9999Us
            | Metric::WriteLatP9999Us
            | Metric::ReadLatMaxUs
            | Metric::WriteLatMaxUs
            | Metric::LatAvgUs
            | Metric::LatMaxUs => "us",
            Metric::AvgPowerW => "W",
            Metric::MbpsPerW => "MB/s/W",
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FioDef {
    #[serde(default)]
    pub id: Option<String>,
    pub label: String,
    #[serde(default)]
    pub job: Option<String>,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub report: Option<ReportDef>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdleDef {
    #[serde(default)]
    pub label: Option<String>,
    pub duration: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BurstDef {
    #[serde(default)]
    pub id: Option<String>,
    pub label: String,
    pub job: String,
    pub bursts: u32,
    pub duty_cycle_pct: u32,
    #[serde(default)]
    pub report: Option<ReportDef>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreDef {
    #[serde(default)]
    pub id: Option<String>,
    pub label: String,
    pub of: Vec<String>,
    #[serde(default)]
    pub published: Option<f64>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

/// `kind = "set"`: run-time config keys (dotted, `nand.suspend.*` only) for the later steps.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetDef {
    pub label: String,
    pub set: toml::Table,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerLossDef {
    pub label: String,
    /// Simulated time into the job when power fails, or "random" (with `at_max`).
    pub at: String,
    #[serde(default)]
    pub at_max: Option<String>,
    #[serde(default)]
    pub plp: Option<bool>,
    pub job: String,
}

/// `kind = "rounds"`: a matrix of fio jobs (the `job` with each combination of the `axis`
/// values appended) run round after round until the steady-state criterion holds on the
/// `track` cell's first metric, or `steady_state.max_rounds`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundsDef {
    #[serde(default)]
    pub id: Option<String>,
    pub label: String,
    pub job: String,
    #[serde(default, rename = "axis")]
    pub axes: Vec<AxisDef>,
    pub metrics: Vec<Metric>,
    #[serde(default)]
    pub track: Option<toml::Table>,
    pub steady_state: SteadyStateDef,
}

/// One dimension of a `rounds` matrix: a fio option and the values it takes, in run order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisDef {
    pub option: String,
    pub values: Vec<toml::Value>,
}

fn spec_window() -> u32 {
    super::steady_state::SPEC_WINDOW
}

/// The round rule: at most `max_rounds`, the criterion over the last `window` (default 5).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SteadyStateDef {
    pub max_rounds: u32,
    #[serde(default = "spec_window")]
    pub window: u32,
}
