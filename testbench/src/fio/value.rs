//! Value syntax of fio options: sizes with unit suffixes, times, integers and booleans.
//!
//! Follows fio's HOWTO ("Parameter types"). Sizes: a decimal (or 0x hex) integer with an optional
//! case-insensitive suffix k/m/g/t/p, with or without a trailing `b`. fio's default `kb_base=1024`
//! is a compatibility mode in which `4k` and `4kb` mean 4096 bytes while the IEC spellings
//! (`4KiB`) mean 4000; `kb_base=1000` swaps the two. ssdlab reproduces that so a job file means
//! what it means to fio. Times default to seconds (`runtime`, `ramp_time`) or microseconds
//! (`thinktime`) and accept us/ms/s/m/h/d suffixes.

use ssdlab_model::SimTime;

/// A size option: bytes, or a percentage of the device (`size=50%`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeSpec {
    Bytes(u64),
    /// Percent of the device, 1..=100.
    Percent(u32),
}

/// Unit a bare number of a time option is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    Secs,
    Millis,
    Micros,
}

/// Parses a byte count (`4k`, `1m`, `20g`, `512`, `0x1000`, `4KiB`).
pub fn parse_bytes(s: &str, kb_base: u64) -> Result<u64, String> {
    let s = s.trim();
    let (digits, suffix) = split_number(s);
    if digits.is_empty() {
        return Err(format!(
            "`{s}` is not a size (expected e.g. 4k, 128KiB, 20g)"
        ));
    }
    let n = parse_u64(digits).ok_or_else(|| format!("`{s}` is not a size"))?;
    let suffix = suffix.to_ascii_lowercase();
    let suffix = suffix.strip_suffix('b').unwrap_or(&suffix);
    let (letter, iec) = match suffix.strip_suffix('i') {
        Some(l) => (l, true),
        None => (suffix, false),
    };
    let pow = match letter {
        "" if !iec => 0,
        "k" => 1,
        "m" => 2,
        "g" => 3,
        "t" => 4,
        "p" => 5,
        _ => {
            return Err(format!(
                "`{s}`: unknown size suffix (use k, m, g, t, p, KiB...)"
            ))
        }
    };
    // fio compatibility: with kb_base=1024 the IEC spelling means powers of ten, and vice versa.
    let base: u64 = match (kb_base, iec) {
        (1024, false) | (1000, true) => 1024,
        _ => 1000,
    };
    base.checked_pow(pow)
        .and_then(|m| n.checked_mul(m))
        .ok_or_else(|| format!("`{s}` is too large"))
}

/// Parses a size that may also be a percentage of the device.
pub fn parse_size(s: &str, kb_base: u64) -> Result<SizeSpec, String> {
    let t = s.trim();
    if let Some(p) = t.strip_suffix('%') {
        let v: u32 = p
            .trim()
            .parse()
            .map_err(|_| format!("`{t}` is not a percentage"))?;
        if v == 0 || v > 100 {
            return Err(format!("`{t}`: a percentage must be 1..100"));
        }
        return Ok(SizeSpec::Percent(v));
    }
    parse_bytes(t, kb_base).map(SizeSpec::Bytes)
}

/// Parses a time (`30`, `30s`, `500ms`, `2m`, `1h`); a bare number is in `unit`.
pub fn parse_time(s: &str, unit: TimeUnit) -> Result<SimTime, String> {
    let t = s.trim();
    let (digits, suffix) = split_number(t);
    let n = parse_u64(digits)
        .ok_or_else(|| format!("`{t}` is not a time (expected e.g. 30s, 500ms)"))?;
    let ps_per: u64 = match suffix.to_ascii_lowercase().as_str() {
        "" => match unit {
            TimeUnit::Secs => 1_000_000_000_000,
            TimeUnit::Millis => 1_000_000_000,
            TimeUnit::Micros => 1_000_000,
        },
        "us" | "usec" => 1_000_000,
        "ms" | "msec" => 1_000_000_000,
        "s" | "sec" => 1_000_000_000_000,
        "m" | "min" => 60_000_000_000_000,
        "h" => 3_600_000_000_000_000,
        "d" => 86_400_000_000_000_000,
        other => {
            return Err(format!(
                "`{t}`: unknown time suffix `{other}` (use us, ms, s, m, h)"
            ))
        }
    };
    n.checked_mul(ps_per)
        .map(SimTime::from_ps)
        .and_then(SimTime::limited)
        .ok_or_else(|| {
            format!(
                "`{t}` is longer than the model's {} days of simulated time",
                SimTime::LIMIT_DAYS
            )
        })
}

/// Parses a plain unsigned integer (decimal or 0x hex) within `lo..=hi`.
pub fn parse_int(s: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let t = s.trim();
    let v = parse_u64(t).ok_or_else(|| format!("`{t}` is not an integer"))?;
    if v < lo || v > hi {
        return Err(format!("{v} is out of range {lo}..{hi}"));
    }
    Ok(v)
}

/// fio booleans: 0/1 (and the usual spellings).
pub fn parse_bool(s: &str) -> Result<bool, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        other => Err(format!("`{other}` is not a boolean (use 0 or 1)")),
    }
}

fn split_number(s: &str) -> (&str, &str) {
    let hex = s.len() > 2 && (s.starts_with("0x") || s.starts_with("0X"));
    let end = if hex {
        2 + s[2..]
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(s.len() - 2)
    } else {
        s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len())
    };
    (&s[..end], s[end..].trim())
}

fn parse_u64(d: &str) -> Option<u64> {
    if let Some(h) = d.strip_prefix("0x").or_else(|| d.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) {
        d.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_fio_compat_mode() {
        assert_eq!(parse_bytes("4k", 1024), Ok(4096));
        assert_eq!(parse_bytes("4K", 1024), Ok(4096));
        assert_eq!(parse_bytes("4kb", 1024), Ok(4096));
        assert_eq!(parse_bytes("128KiB", 1024), Ok(128_000));
        assert_eq!(parse_bytes("1m", 1024), Ok(1_048_576));
        assert_eq!(parse_bytes("20g", 1024), Ok(21_474_836_480));
        assert_eq!(parse_bytes("0x1000", 1024), Ok(4096));
        assert_eq!(parse_bytes("512", 1024), Ok(512));
        // kb_base=1000 swaps the meanings.
        assert_eq!(parse_bytes("4k", 1000), Ok(4000));
        assert_eq!(parse_bytes("4KiB", 1000), Ok(4096));
    }

    #[test]
    fn bad_sizes_are_rejected() {
        assert!(parse_bytes("4q", 1024).is_err());
        assert!(parse_bytes("k", 1024).is_err());
        assert!(parse_bytes("99999999999p", 1024).is_err());
        assert!(parse_size("0%", 1024).is_err());
        assert_eq!(parse_size("50%", 1024), Ok(SizeSpec::Percent(50)));
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("30", TimeUnit::Secs), Ok(SimTime::from_secs(30)));
        assert_eq!(
            parse_time("500ms", TimeUnit::Secs),
            Ok(SimTime::from_ms(500))
        );
        assert_eq!(
            parse_time("2m", TimeUnit::Secs),
            Ok(SimTime::from_secs(120))
        );
        assert_eq!(
            parse_time("100", TimeUnit::Micros),
            Ok(SimTime::from_us(100))
        );
        assert!(parse_time("10 parsecs", TimeUnit::Secs).is_err());
    }
}
