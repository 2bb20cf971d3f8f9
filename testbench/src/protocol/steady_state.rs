//! The SNIA steady-state criterion of a protocol's round rule (`steady_state`): rounds of a step
//! set run until the tracked variable is steady over the measurement window, or a round cap.
//!
//! Source: SNIA Solid State Storage Performance Test Specification (Enterprise PTS-E, Client
//! PTS-C), its definitions of Steady State and of the Measurement Window: over the window (five
//! rounds) the data excursion, max - min of the tracked variable, is within 20 % of the window's
//! mean, and the excursion of the least-squares best-fit line over the window, |slope| x (rounds
//! in the window - 1), is within 10 % of that mean. Its IOPS test tracks 4 KiB 100 % write IOPS
//! and caps the run at 25 rounds; a run that reaches the cap without the criterion is reported
//! as such. The `rounds` protocol step (`protocol/rounds.rs`) runs its rounds by this rule.

#[cfg(test)]
mod tests;

/// The measurement window of the specification: five rounds.
pub const SPEC_WINDOW: u32 = 5;
/// The specification's round cap of the IOPS test.
pub const SPEC_MAX_ROUNDS: u32 = 25;
/// Largest data excursion, percent of the window's mean.
pub const MAX_EXCURSION_PCT: f64 = 20.0;
/// Largest excursion of the best-fit line over the window, percent of the window's mean.
pub const MAX_FIT_EXCURSION_PCT: f64 = 10.0;

/// A `steady_state` round rule: at most `max_rounds` rounds, the criterion over the last
/// `window` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SteadyRule {
    pub max_rounds: u32,
    pub window: u32,
}

impl SteadyRule {
    /// Checks the rule's numbers: at least one round, a window of at least two rounds (a line
    /// needs two points) and no larger than the cap.
    pub fn new(max_rounds: u32, window: u32) -> Result<SteadyRule, String> {
        if max_rounds == 0 {
            return Err("steady_state: max_rounds must be at least 1".into());
        }
        if window < 2 {
            return Err(format!(
                "steady_state: window {window} must be at least 2 rounds (the spec's is {SPEC_WINDOW})"
            ));
        }
        if window > max_rounds {
            return Err(format!(
                "steady_state: window {window} is larger than max_rounds {max_rounds}"
            ));
        }
        Ok(SteadyRule { max_rounds, window })
    }
}

/// The figures of one measurement window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowFigures {
    /// First round of the window (1-based) and its length.
    pub first_round: u32,
    pub rounds: u32,
    pub mean: f64,
    /// max - min of the tracked variable over the window.
    pub excursion: f64,
    /// Slope of the least-squares line, per round, and its excursion over the window.
    pub slope: f64,
    pub fit_excursion: f64,
    /// Both limits hold.
    pub steady: bool,
}

/// The window figures of `values[first..]`, rounds numbered from `first + 1`; `None` for fewer
/// than two values.
pub fn window_figures(values: &[f64], first: usize) -> Option<WindowFigures> {
    let w = values.get(first..)?;
    let n = w.len();
    if n < 2 {
        return None;
    }
    let nf = n as f64;
    let mean = w.iter().sum::<f64>() / nf;
    let max = w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = w.iter().copied().fold(f64::INFINITY, f64::min);
    // Least squares over x = 0..n-1: slope = sum((x - xm)(y - ym)) / sum((x - xm)^2).
    let xm = (nf - 1.0) / 2.0;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (i, y) in w.iter().enumerate() {
        let dx = i as f64 - xm;
        sxy += dx * (y - mean);
        sxx += dx * dx;
    }
    let slope = sxy / sxx;
    let fit_excursion = slope.abs() * (nf - 1.0);
    let excursion = max - min;
    let steady = mean > 0.0
        && excursion <= MAX_EXCURSION_PCT / 100.0 * mean
        && fit_excursion <= MAX_FIT_EXCURSION_PCT / 100.0 * mean;
    Some(WindowFigures {
        first_round: first as u32 + 1,
        rounds: n as u32,
        mean,
        excursion,
        slope,
        fit_excursion,
        steady,
    })
}

/// Where a run of rounds stands after a round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Run another round.
    Continue,
    /// The criterion holds over the window ending with this round.
    Steady(WindowFigures),
    /// The cap is reached without it; the last window's figures.
    Capped(WindowFigures),
}

/// The tracked variable's value per round, checked against a rule after each.
#[derive(Clone, Debug)]
pub struct Tracker {
    rule: SteadyRule,
    values: Vec<f64>,
}

impl Tracker {
    pub fn new(rule: SteadyRule) -> Tracker {
        Tracker {
            rule,
            values: Vec::new(),
        }
    }

    /// The rounds recorded so far.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Records a round's value and says whether to go on.
    pub fn push(&mut self, value: f64) -> Verdict {
        self.values.push(value);
        let n = self.values.len();
        let w = self.rule.window as usize;
        let figures = if n >= w {
            window_figures(&self.values, n - w)
        } else {
            None
        };
        match figures {
            Some(f) if f.steady => Verdict::Steady(f),
            _ if n < self.rule.max_rounds as usize => Verdict::Continue,
            Some(f) => Verdict::Capped(f),
            None => unreachable!("the window is no larger than the cap"),
        }
    }
}
