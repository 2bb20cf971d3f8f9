//! The environment variables that tune a long co-simulation run (`make sim`: `SSDLAB_SEED`,
//! `SSDLAB_SIM_RUNTIME_US`, ...): read strictly, so a mistyped value stops the run naming the
//! variable instead of silently running with the default.

use std::ops::RangeInclusive;

/// The value of environment variable `name`, `default` when unset; Err naming the variable
/// when it is set to anything but a whole number in `range`.
pub fn knob(name: &str, default: u64, range: RangeInclusive<u64>) -> Result<u64, String> {
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(default),
        Err(std::env::VarError::NotUnicode(s)) => Err(format!("{name}={s:?}: not UTF-8")),
        Ok(s) => parse(name, &s, range),
    }
}

/// `s` as the value of `name`: a whole number in `range`.
fn parse(name: &str, s: &str, range: RangeInclusive<u64>) -> Result<u64, String> {
    match s.trim().parse() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!("{name}={s}: not a whole number in {range:?}")),
    }
}

/// `SSDLAB_SEED`: the seed of a run, `default` when unset.
pub fn seed_or(default: u64) -> Result<u64, String> {
    knob("SSDLAB_SEED", default, 0..=u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn values_outside_the_range_or_not_numbers_name_the_variable() {
        assert_eq!(parse("K", "7", 1..=10), Ok(7));
        assert_eq!(parse("K", " 10\n", 1..=10), Ok(10));
        for bad in ["0", "11", "-1", "2ms", ""] {
            let e = parse("K", bad, 1..=10).unwrap_err();
            assert!(e.starts_with(&format!("K={bad}:")), "{e}");
        }
    }
}
