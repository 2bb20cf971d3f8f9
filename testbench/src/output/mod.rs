//! Result formatting: fio-like text ([`human`]) and fio-shaped JSON ([`json`]).

pub mod human;
pub mod json;

use ssdlab_model::SimTime;

/// A runtime in whole milliseconds as fio reports it: rounded up (fio's `update_runtime` adds
/// `(elapsed_us + 999) / 1000`), so a run that moved data never reports 0 ms.
pub fn fio_runtime_ms(t: SimTime) -> u64 {
    t.as_ps().div_ceil(1_000_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_rounds_up_to_whole_ms() {
        assert_eq!(fio_runtime_ms(SimTime::ZERO), 0);
        assert_eq!(fio_runtime_ms(SimTime::from_ns(1)), 1);
        assert_eq!(fio_runtime_ms(SimTime::from_us(2500)), 3);
        assert_eq!(fio_runtime_ms(SimTime::from_ms(20)), 20);
    }
}
