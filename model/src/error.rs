//! Errors the model reports to its users: bad configs name the offending field.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum ConfigError {
    /// TOML that does not parse or does not fit the schema; `toml`'s message names line and key.
    #[error("{origin}: {message}")]
    Parse { origin: String, message: String },
    /// A value that parses but is impossible; `field` is the dotted path, e.g. `nand.t_read_us`.
    #[error("invalid config field `{field}`: {reason}")]
    Invalid { field: String, reason: String },
}

impl ConfigError {
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        ConfigError::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// A latency or per-operation time in a config, in nanoseconds: finite, 0 to 1 s. The bound
/// keeps every converted time (and its sums over a command's 4 KiB units) far inside
/// [`crate::SimTime::LIMIT`]; real firmware and bus latencies are micro- to milliseconds.
pub fn check_latency_ns(v: f64, field: &str) -> Result<(), ConfigError> {
    check(
        v.is_finite() && (0.0..=1e9).contains(&v),
        field,
        "must be a time of 0 to 1e9 ns (1 s)",
    )
}

/// An idle threshold in a config, in milliseconds: finite, 0 to one day.
pub fn check_idle_ms(v: f64, field: &str) -> Result<(), ConfigError> {
    check(
        v.is_finite() && (0.0..=86_400_000.0).contains(&v),
        field,
        "must be a time of 0 to 86400000 ms (one day)",
    )
}

/// Shorthand for validation code: `check(cond, "nand.planes", "must be 1, 2 or 4")?`.
pub fn check(cond: bool, field: &str, reason: &str) -> Result<(), ConfigError> {
    if cond {
        Ok(())
    } else {
        Err(ConfigError::invalid(field, reason))
    }
}

/// A request the drive API refuses (`Drive::submit`, `Drive::run_until`, `Drive::idle`, the
/// functional writes): bad values a caller can pass, reported instead of a panic. Each message
/// names the request and the bound it breaks.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DriveError {
    /// A read or write of no bytes (NVMe has no such command).
    #[error("zero-length {op} at byte offset {offset}")]
    ZeroLength { op: &'static str, offset: u64 },
    /// A byte range past the drive's capacity (or past 2^64 bytes).
    #[error(
        "{op} of {len} bytes at byte offset {offset} ends beyond the drive's {capacity} bytes"
    )]
    BeyondCapacity {
        op: &'static str,
        offset: u64,
        len: u64,
        capacity: u64,
    },
    /// One command of 4 GiB or more.
    #[error("{op} of {len} bytes: one command moves less than 4 GiB")]
    TooLong { op: &'static str, len: u64 },
    /// More commands submitted and not completed than the drive tracks.
    #[error("more than {max} commands outstanding")]
    TooManyCommands { max: usize },
    /// A run target before the current simulated time.
    #[error("{call}({target}) is before now ({now})")]
    TimeBeforeNow {
        call: &'static str,
        target: crate::SimTime,
        now: crate::SimTime,
    },
    /// A run target past the simulated-time limit.
    #[error(
        "{call}: now ({now}) plus {span} is beyond the simulated-time limit of {} days",
        crate::SimTime::LIMIT_DAYS
    )]
    TimeBeyondLimit {
        call: &'static str,
        now: crate::SimTime,
        span: crate::SimTime,
    },
}
