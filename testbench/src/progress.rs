//! Progress on a terminal: a spinner line with the current step, simulated time and host bytes,
//! drawn on stderr only when stderr is a terminal (nothing in pipes, files or CI logs).

use crate::workload::runner::Observer;
use indicatif::{ProgressBar, ProgressStyle};
use ssdlab_model::SimTime;
use std::io::IsTerminal;

pub struct TermProgress {
    bar: Option<ProgressBar>,
    label: String,
    calls: u64,
}

impl TermProgress {
    /// Draws only when `stderr` is a terminal.
    pub fn new() -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .expect("static template"),
            );
            b
        });
        TermProgress {
            bar,
            label: String::new(),
            calls: 0,
        }
    }
    pub fn set_label(&mut self, label: &str) {
        self.label = label.to_string();
        if let Some(b) = &self.bar {
            b.set_message(self.label.clone());
        }
    }
    /// Prints a line above the spinner (or plainly when there is none).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        }
    }
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl Default for TermProgress {
    fn default() -> Self {
        Self::new()
    }
}

impl Observer for TermProgress {
    fn label(&mut self, label: &str) {
        self.set_label(label);
    }
    fn note(&mut self, line: &str) {
        self.println(line);
    }
    fn progress(&mut self, now: SimTime, host_bytes: u64) {
        self.calls += 1;
        let Some(b) = &self.bar else { return };
        if !self.calls.is_multiple_of(512) {
            return;
        }
        b.set_message(format!(
            "{} | simulated {:.3} s | host {:.2} GiB",
            self.label,
            now.as_secs_f64(),
            host_bytes as f64 / (1u64 << 30) as f64
        ));
        b.tick();
    }
}
