//! Simulated time: an integer count of picoseconds.
//!
//! Every timestamp and duration inside the model is a [`SimTime`]. Datasheet figures arrive as
//! floats in configs (`t_read_us`, `transfer_mts`) and are converted exactly once, at the config
//! boundary, with the constructors below. The model never reads the wall clock.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub, SubAssign};

/// A point in simulated time, or a duration, in picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);
    /// Days of simulated time an input may reach (job times, idle periods, trace spans).
    pub const LIMIT_DAYS: u64 = 200;
    /// The latest time input may ask for: 200 days. `u64` picoseconds end at 213.5 days; the
    /// 13.5 days between leave room for every internal latency that follows a host command,
    /// so no operator on [`SimTime`] overflows on valid input.
    pub const LIMIT: SimTime = SimTime(SimTime::LIMIT_DAYS * 86_400 * 1_000_000_000_000);

    pub const fn from_ps(ps: u64) -> Self {
        SimTime(ps)
    }
    pub const fn from_ns(ns: u64) -> Self {
        SimTime(ns * 1_000)
    }
    pub const fn from_us(us: u64) -> Self {
        SimTime(us * 1_000_000)
    }
    pub const fn from_ms(ms: u64) -> Self {
        SimTime(ms * 1_000_000_000)
    }
    pub const fn from_secs(s: u64) -> Self {
        SimTime(s * 1_000_000_000_000)
    }
    /// Converts a datasheet float (in microseconds) once, rounding to the nearest picosecond.
    /// Only config code should call the `_f64` constructors.
    pub fn from_us_f64(us: f64) -> Self {
        SimTime((us * 1e6).round() as u64)
    }
    pub fn from_ns_f64(ns: f64) -> Self {
        SimTime((ns * 1e3).round() as u64)
    }
    pub fn from_ms_f64(ms: f64) -> Self {
        SimTime((ms * 1e9).round() as u64)
    }
    pub fn from_secs_f64(s: f64) -> Self {
        SimTime((s * 1e12).round() as u64)
    }
    pub const fn as_ps(self) -> u64 {
        self.0
    }
    /// For reports only.
    pub fn as_ns_f64(self) -> f64 {
        self.0 as f64 / 1e3
    }
    pub fn as_us_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e12
    }
    /// `self` when it lies within [`SimTime::LIMIT`], else None.
    pub fn limited(self) -> Option<SimTime> {
        (self <= SimTime::LIMIT).then_some(self)
    }
    /// `self + rhs`, or None past [`SimTime::LIMIT`]. For input-derived times (job runtimes,
    /// thinktimes, protocol idle periods, trace timestamps); the operators panic on overflow,
    /// which only a model bug can cause once inputs are held within the limit.
    pub fn add_limited(self, rhs: SimTime) -> Option<SimTime> {
        self.0.checked_add(rhs.0).map(SimTime)?.limited()
    }
    pub fn mul_limited(self, rhs: u64) -> Option<SimTime> {
        self.0.checked_mul(rhs).map(SimTime)?.limited()
    }
    /// `ns` nanoseconds, or None past [`SimTime::LIMIT`].
    pub fn from_ns_limited(ns: u64) -> Option<SimTime> {
        ns.checked_mul(1_000).map(SimTime)?.limited()
    }
    /// A float of picoseconds rounded to the nearest one, or None when it is not finite, is
    /// negative or lies past [`SimTime::LIMIT`]. For input-derived floats.
    pub fn from_ps_f64_limited(ps: f64) -> Option<SimTime> {
        let r = ps.round();
        // Every f64 below the limit (< 2^64) converts to u64 without saturating.
        (r.is_finite() && r >= 0.0 && r <= SimTime::LIMIT.0 as f64)
            .then_some(SimTime(r as u64))?
            .limited()
    }
    pub fn saturating_sub(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.saturating_sub(rhs.0))
    }
    /// Time to move `bytes` at `bytes_per_sec`, rounded up to a whole picosecond.
    pub fn for_bytes(bytes: u64, bytes_per_sec: u64) -> SimTime {
        assert!(bytes_per_sec > 0, "zero bandwidth");
        let ps = (bytes as u128 * 1_000_000_000_000u128).div_ceil(bytes_per_sec as u128);
        SimTime(ps as u64)
    }
}

impl Add for SimTime {
    type Output = SimTime;
    fn add(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.checked_add(rhs.0).expect("simulated time overflow"))
    }
}
impl AddAssign for SimTime {
    fn add_assign(&mut self, rhs: SimTime) {
        *self = *self + rhs;
    }
}
impl Sub for SimTime {
    type Output = SimTime;
    fn sub(self, rhs: SimTime) -> SimTime {
        SimTime(
            self.0
                .checked_sub(rhs.0)
                .expect("negative simulated duration"),
        )
    }
}
impl SubAssign for SimTime {
    fn sub_assign(&mut self, rhs: SimTime) {
        *self = *self - rhs;
    }
}
impl Mul<u64> for SimTime {
    type Output = SimTime;
    fn mul(self, rhs: u64) -> SimTime {
        SimTime(self.0.checked_mul(rhs).expect("simulated time overflow"))
    }
}
impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ps = self.0;
        if ps >= 1_000_000_000 {
            write!(f, "{:.3} ms", ps as f64 / 1e9)
        } else if ps >= 1_000_000 {
            write!(f, "{:.3} us", ps as f64 / 1e6)
        } else {
            write!(f, "{:.3} ns", ps as f64 / 1e3)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_exact() {
        assert_eq!(SimTime::from_us(50).as_ps(), 50_000_000);
        assert_eq!(SimTime::from_us_f64(2.5), SimTime::from_ns(2_500));
        assert_eq!(SimTime::from_ms(3), SimTime::from_us(3_000));
    }

    #[test]
    fn checked_forms_refuse_what_does_not_fit() {
        // 200 days = 17 280 000 s = 1.728e19 ps, below u64::MAX = 1.8447e19 ps (213.5 days).
        assert_eq!(SimTime::LIMIT.as_ps(), 17_280_000_000_000_000_000);
        let day = SimTime::from_secs(86_400);
        assert_eq!(day.mul_limited(200), Some(SimTime::LIMIT));
        assert_eq!(day.mul_limited(201), None);
        assert_eq!(SimTime::LIMIT.add_limited(SimTime(1)), None);
        assert_eq!(SimTime::MAX.add_limited(SimTime(1)), None);
        assert_eq!(SimTime(2).add_limited(SimTime(3)), Some(SimTime(5)));
        assert_eq!(SimTime(1 << 63).mul_limited(2), None);
        assert_eq!(SimTime::from_ns_limited(u64::MAX / 1000 + 1), None);
        assert_eq!(SimTime::from_ns_limited(7), Some(SimTime(7_000)));
        assert_eq!(SimTime::from_ps_f64_limited(1e300), None);
        assert_eq!(SimTime::from_ps_f64_limited(f64::NAN), None);
        assert_eq!(SimTime::from_ps_f64_limited(-1.0), None);
        assert_eq!(SimTime::from_ps_f64_limited(2.5e3), Some(SimTime(2_500)));
    }

    #[test]
    fn bytes_time_rounds_up() {
        // 16 KiB at 800 MB/s = 20.48 us
        assert_eq!(
            SimTime::for_bytes(16_384, 800_000_000),
            SimTime::from_ns(20_480)
        );
        // 1 byte at 3 B/s = 333_333_333_333.33 ps -> rounds up
        assert_eq!(SimTime::for_bytes(1, 3).as_ps(), 333_333_333_334);
    }
}
