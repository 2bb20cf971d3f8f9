//! Runs a `rounds` step: every cell of the matrix in order makes a round; after each round the
//! tracked cell's first metric goes to the steady-state [`Tracker`], which says whether to run
//! another. The loop itself ([`round_loop`]) takes the round as a closure, so that a series of
//! figures made by hand can drive it in tests.

use super::RoundsStep;
use crate::error::InputError;
use crate::protocol::report::metric_value;
use crate::protocol::schema::Metric;
use crate::protocol::steady_state::{SteadyRule, Tracker, Verdict, WindowFigures};
use crate::workload::runner::{run_jobs, Observer};
use crate::workload::Device;
use ssdlab_model::SeedTree;

/// What a `rounds` step did.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundsOutcome {
    pub rule: SteadyRule,
    /// Cell labels in run order, the tracked one's index and the metrics recorded.
    pub cells: Vec<String>,
    pub axes: Vec<String>,
    /// Each cell's value per axis.
    pub settings: Vec<Vec<String>>,
    pub track: usize,
    pub metrics: Vec<Metric>,
    /// `values[round][cell][metric]`, rounds from the first.
    pub values: Vec<Vec<Vec<f64>>>,
    /// The last window's figures; `steady` says whether the criterion held (else the cap).
    pub window: WindowFigures,
}

impl RoundsOutcome {
    pub fn rounds_run(&self) -> u32 {
        self.values.len() as u32
    }
    pub fn steady(&self) -> bool {
        self.window.steady
    }
    /// The tracking variable per round.
    pub fn tracking(&self) -> Vec<f64> {
        self.values.iter().map(|r| r[self.track][0]).collect()
    }
    /// A cell's metric over the measurement window: the mean, or for a `*_max_us` metric the
    /// largest.
    pub fn window_value(&self, cell: usize, metric: usize) -> f64 {
        let first = self.window.first_round as usize - 1;
        let vals = self.values[first..].iter().map(|r| r[cell][metric]);
        if is_max(self.metrics[metric]) {
            vals.fold(0.0, f64::max)
        } else {
            vals.sum::<f64>() / (self.values.len() - first) as f64
        }
    }
}

fn is_max(m: Metric) -> bool {
    matches!(
        m,
        Metric::ReadLatMaxUs | Metric::WriteLatMaxUs | Metric::LatMaxUs
    )
}

/// Runs rounds until the rule ends them: `round(r)` gives round `r`'s (1-based) figures per cell
/// and metric; `on_round` sees each round with the tracker's verdict.
pub fn round_loop<E>(
    s: &RoundsStep,
    mut round: impl FnMut(u32) -> Result<Vec<Vec<f64>>, E>,
    mut on_round: impl FnMut(u32, &[Vec<f64>], &Verdict, &Tracker),
) -> Result<RoundsOutcome, E> {
    let mut t = Tracker::new(s.rule);
    let mut values = Vec::new();
    let window = loop {
        let r = values.len() as u32 + 1;
        let v = round(r)?;
        assert_eq!(v.len(), s.cells.len(), "one figure set per cell");
        let verdict = t.push(v[s.track][0]);
        on_round(r, &v, &verdict, &t);
        values.push(v);
        match verdict {
            Verdict::Continue => {}
            Verdict::Steady(f) | Verdict::Capped(f) => break f,
        }
    };
    Ok(RoundsOutcome {
        rule: s.rule,
        cells: s.cells.iter().map(|c| c.label.clone()).collect(),
        axes: s.axes.clone(),
        settings: s.cells.iter().map(|c| c.values.clone()).collect(),
        track: s.track,
        metrics: s.metrics.clone(),
        values,
        window,
    })
}

/// The seed of one cell of one round: distinct per (round, cell), fixed by the step's seed.
fn cell_seed(step: &SeedTree, round: u32, cell: usize) -> SeedTree {
    let k = ((round as u64) << 32) | cell as u64;
    SeedTree::new(step.seed() ^ k.wrapping_add(1).wrapping_mul(0xD605_BBB5_8C8C_A9F3))
}

/// Runs the step on the device; a line per round goes to `obs.note`.
pub fn run_rounds(
    dev: &mut dyn Device,
    s: &RoundsStep,
    file: &str,
    seeds: &SeedTree,
    obs: &mut dyn Observer,
) -> Result<RoundsOutcome, InputError> {
    let n = s.cells.len();
    // The observer serves both the fio runs (progress) and the round lines: the closures take
    // turns, so a cell holds it.
    let obs = std::cell::RefCell::new(obs);
    let round = |r: u32| -> Result<Vec<Vec<f64>>, InputError> {
        let mut figures = Vec::with_capacity(n);
        for (c, cell) in s.cells.iter().enumerate() {
            let mut o = obs.borrow_mut();
            o.label(&format!(
                "{}: round {r}, cell {}/{n} {}",
                s.label,
                c + 1,
                cell.label
            ));
            let groups = run_jobs(dev, &cell.jobs, file, &cell_seed(seeds, r, c), &mut **o)?;
            figures.push(
                s.metrics
                    .iter()
                    .map(|m| metric_value(*m, &groups))
                    .collect(),
            );
        }
        Ok(figures)
    };
    let on_round = |r: u32, v: &[Vec<f64>], verdict: &Verdict, t: &Tracker| {
        let line = super::report::round_line(s, r, v[s.track][0], verdict, t);
        obs.borrow_mut().note(&line);
    };
    round_loop(s, round, on_round)
}
