//! The steady-state criterion on hand-computed series (rounds x = 0..4, mean 100).

use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn a_flat_noisy_window_is_steady() {
    // Deviations 0, 2, -2, 1, -1: excursion 104 - 98 = 4 (4 % <= 20 %); sum(dx*dy) = -3,
    // sum(dx^2) = 10, slope -0.3, line excursion 0.3 x 4 = 1.2 (1.2 % <= 10 %).
    let f = window_figures(&[100.0, 102.0, 98.0, 101.0, 99.0], 0).unwrap();
    assert!(close(f.mean, 100.0) && close(f.excursion, 4.0));
    assert!(close(f.slope, -0.3) && close(f.fit_excursion, 1.2));
    assert!(f.steady);
}

#[test]
fn a_wide_excursion_fails_with_a_flat_line() {
    // 100 75 125 125 75: excursion 50 (50 % > 20 %); sum(dx*dy) = 25 + 25 - 50 = 0: slope 0.
    let f = window_figures(&[100.0, 75.0, 125.0, 125.0, 75.0], 0).unwrap();
    assert!(close(f.mean, 100.0) && close(f.excursion, 50.0) && close(f.slope, 0.0));
    assert!(!f.steady);
}

#[test]
fn a_rising_trend_fails_on_the_slope_alone() {
    // 92 96 100 104 108: excursion 16 (16 % <= 20 %); slope 4, line excursion 16 (> 10 %).
    let f = window_figures(&[92.0, 96.0, 100.0, 104.0, 108.0], 0).unwrap();
    assert!(close(f.excursion, 16.0) && close(f.slope, 4.0) && close(f.fit_excursion, 16.0));
    assert!(!f.steady);
}

#[test]
fn the_window_is_the_last_rounds_and_the_cap_ends_the_run() {
    let rule = SteadyRule::new(8, 5).unwrap();
    // A fresh-drive transient, then the steady series above: steady at round 7 over 3..=7.
    let mut t = Tracker::new(rule);
    let series = [300.0, 200.0, 100.0, 102.0, 98.0, 101.0, 99.0];
    let verdicts: Vec<Verdict> = series.iter().map(|v| t.push(*v)).collect();
    assert!(verdicts[..6].iter().all(|v| *v == Verdict::Continue));
    match verdicts[6] {
        Verdict::Steady(f) => assert_eq!((f.first_round, f.rounds), (3, 5)),
        v => panic!("{v:?}"),
    }
    // Never steady: the cap's round reports the last window, rounds 2..=6.
    let mut t = Tracker::new(SteadyRule::new(6, 5).unwrap());
    let noisy = [50.0, 100.0, 75.0, 125.0, 125.0, 75.0];
    let last = noisy.iter().map(|v| t.push(*v)).last().unwrap();
    match last {
        Verdict::Capped(f) => {
            assert_eq!(f.first_round, 2);
            assert!(close(f.excursion, 50.0) && !f.steady);
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn bad_rules_are_refused() {
    assert!(SteadyRule::new(0, 5).unwrap_err().contains("max_rounds"));
    assert!(SteadyRule::new(4, 5).unwrap_err().contains("larger than"));
    assert!(SteadyRule::new(25, 1).is_err());
    assert_eq!(
        SteadyRule::new(SPEC_MAX_ROUNDS, SPEC_WINDOW),
        Ok(SteadyRule {
            max_rounds: 25,
            window: 5
        })
    );
}
