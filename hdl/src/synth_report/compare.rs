//! The regression rule between the checked-in report and the current build: a line fails when
//! LUT, FF or BRAM grew by more than `TOLERANCE_PCT` percent (integer arithmetic: now x 100 >
//! was x 105, so 0 → 1 BRAM fails), or when a (block, family) line exists on one side only.
//! Shrinking by more than the tolerance is reported (the report is then out of date) but is not
//! a failure.

use super::report::Report;
use super::stat::{Counts, Family};

/// Allowed growth, percent, of LUT, FF and BRAM against the report.
pub const TOLERANCE_PCT: u64 = 5;

/// One difference between the report and the current build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A count grew beyond the tolerance (failure).
    Grew {
        block: String,
        family: Family,
        metric: &'static str,
        was: u64,
        now: u64,
    },
    /// A count shrank beyond the tolerance (not a failure: refresh the report).
    Shrank {
        block: String,
        family: Family,
        metric: &'static str,
        was: u64,
        now: u64,
    },
    /// Built now (with figures) but absent from the report, or without figures there (failure).
    NotInReport { block: String, family: Family },
    /// In the report with figures but not built now: block gone or synthesis failed (failure).
    NotBuilt { block: String, family: Family },
}

impl Finding {
    /// Does this finding fail the comparison?
    pub fn is_failure(&self) -> bool {
        !matches!(self, Finding::Shrank { .. })
    }

    /// One line for the user.
    pub fn describe(&self) -> String {
        let pct = |was: u64, now: u64| {
            if was == 0 {
                "from zero".to_string()
            } else {
                format!("{:+.1} %", (now as f64 - was as f64) * 100.0 / was as f64)
            }
        };
        match self {
            Finding::Grew { block, family, metric, was, now } => format!(
                "FAIL {block} {}: {metric} {was} -> {now} ({}, more than {TOLERANCE_PCT} %)",
                family.name(),
                pct(*was, *now)
            ),
            Finding::Shrank { block, family, metric, was, now } => format!(
                "note {block} {}: {metric} {was} -> {now} ({}): smaller than the report, refresh it",
                family.name(),
                pct(*was, *now)
            ),
            Finding::NotInReport { block, family } => {
                format!("FAIL {block} {}: built now, but the report has no figures for it", family.name())
            }
            Finding::NotBuilt { block, family } => format!(
                "FAIL {block} {}: in the report, but no result now (block no longer exported, or yosys failed)",
                family.name()
            ),
        }
    }
}

fn metrics(c: &Counts) -> [(&'static str, u64); 3] {
    [("LUT", c.lut), ("FF", c.ff), ("BRAM", c.bram)]
}

/// Every difference between `report` (checked in) and `now` (this build), in row order.
pub fn compare(report: &Report, now: &Report) -> Vec<Finding> {
    let mut out = vec![];
    let mut keys: Vec<(String, Family)> = report
        .rows
        .iter()
        .chain(now.rows.iter())
        .map(|r| (r.block.clone(), r.family))
        .collect();
    keys.sort();
    keys.dedup();
    for (block, family) in keys {
        let was = report.row(&block, family).and_then(|r| r.counts);
        let is = now.row(&block, family).and_then(|r| r.counts);
        match (was, is) {
            (Some(w), Some(n)) => {
                for ((metric, w), (_, n)) in metrics(&w).into_iter().zip(metrics(&n)) {
                    if n * 100 > w * (100 + TOLERANCE_PCT) {
                        out.push(Finding::Grew {
                            block: block.clone(),
                            family,
                            metric,
                            was: w,
                            now: n,
                        });
                    } else if n * 100 < w * (100 - TOLERANCE_PCT) {
                        out.push(Finding::Shrank {
                            block: block.clone(),
                            family,
                            metric,
                            was: w,
                            now: n,
                        });
                    }
                }
            }
            (None, Some(_)) => out.push(Finding::NotInReport { block, family }),
            (Some(_), None) => out.push(Finding::NotBuilt { block, family }),
            // Not synthesized on either side (the whole datapath on iCE40): a line present on
            // one side only is still a missing block.
            (None, None) => {
                if report.row(&block, family).is_none() {
                    out.push(Finding::NotInReport { block, family });
                } else if now.row(&block, family).is_none() {
                    out.push(Finding::NotBuilt { block, family });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth_report::report::Row;

    /// A block and its (LUT, FF, BRAM), or `None` when it did not synthesize.
    type RowSpec<'a> = (&'a str, Option<(u64, u64, u64)>);

    fn rep(rows: &[RowSpec]) -> Report {
        Report {
            date: "2026-11-30".into(),
            yosys: "Yosys 0.23".into(),
            command: "make synth".into(),
            rows: rows
                .iter()
                .map(|(b, c)| Row {
                    block: b.to_string(),
                    family: Family::Xcu,
                    counts: c.map(|(lut, ff, bram)| Counts {
                        lut,
                        lutram: 0,
                        ff,
                        bram,
                    }),
                    cpu_s: None,
                    note: String::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn five_percent_more_passes_and_one_more_fails() {
        // 1000 LUT: 1050 is +5.0 % (passes), 1051 is +5.1 % (fails); FF 200 -> 210 passes.
        let was = rep(&[("a", Some((1000, 200, 4)))]);
        assert_eq!(compare(&was, &rep(&[("a", Some((1050, 210, 4)))])), vec![]);
        let f = compare(&was, &rep(&[("a", Some((1051, 200, 4)))]));
        assert_eq!(
            f,
            vec![Finding::Grew {
                block: "a".into(),
                family: Family::Xcu,
                metric: "LUT",
                was: 1000,
                now: 1051
            }]
        );
        assert!(f[0].is_failure());
        assert_eq!(
            f[0].describe(),
            "FAIL a xcu: LUT 1000 -> 1051 (+5.1 %, more than 5 %)"
        );
    }

    #[test]
    fn a_first_block_ram_fails_and_shrinking_is_only_a_note() {
        let was = rep(&[("a", Some((1000, 200, 0)))]);
        let f = compare(&was, &rep(&[("a", Some((900, 200, 1)))]));
        // LUT 1000 -> 900 is -10 % (note); BRAM 0 -> 1 grows from zero (failure).
        assert_eq!(f.len(), 2);
        assert!(!f[0].is_failure() && matches!(f[0], Finding::Shrank { metric: "LUT", .. }));
        assert!(
            f[1].is_failure()
                && matches!(
                    f[1],
                    Finding::Grew {
                        metric: "BRAM",
                        was: 0,
                        now: 1,
                        ..
                    }
                )
        );
    }

    #[test]
    fn a_block_on_one_side_only_fails() {
        let was = rep(&[
            ("a", Some((1, 1, 0))),
            ("gone", Some((1, 1, 0))),
            ("datapath", None),
        ]);
        let now = rep(&[
            ("a", Some((1, 1, 0))),
            ("new", Some((1, 1, 0))),
            ("datapath", None),
        ]);
        let f = compare(&was, &now);
        assert_eq!(
            f,
            vec![
                Finding::NotBuilt {
                    block: "gone".into(),
                    family: Family::Xcu
                },
                Finding::NotInReport {
                    block: "new".into(),
                    family: Family::Xcu
                },
            ]
        );
        // A line without figures on both sides (not synthesized) is no difference; one that is
        // missing on one side is.
        let f = compare(
            &was,
            &rep(&[("a", Some((1, 1, 0))), ("gone", Some((1, 1, 0)))]),
        );
        assert_eq!(
            f,
            vec![Finding::NotBuilt {
                block: "datapath".into(),
                family: Family::Xcu
            }]
        );
    }
}
