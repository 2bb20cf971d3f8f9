//! MSR Cambridge block traces (SNIA IOTTA repository, Narayanan et al., FAST'08), CSV lines:
//! `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`, e.g.
//! `128166372003061629,wdev,0,Read,3154132992,4096,1205`. Timestamps are Windows FILETIME
//! (100 ns ticks); offsets and sizes are bytes. The recorded response time is ignored.

use super::TraceIo;
use crate::workload::Op;
use ssdlab_model::SimTime;

/// Parses one non-empty line; `Ok(None)` for a header line.
pub fn parse_line(line: &str) -> Result<Option<(u64, TraceIo)>, String> {
    let f: Vec<&str> = line.split(',').map(str::trim).collect();
    if f.len() != 7 {
        return Err(format!("expected 7 comma-separated fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), found {}", f.len()));
    }
    if f[0].eq_ignore_ascii_case("timestamp") {
        return Ok(None);
    }
    let num = |i: usize, what: &str| {
        f[i].parse::<u64>()
            .map_err(|_| format!("{what} `{}` is not an integer", f[i]))
    };
    let ticks = num(0, "Timestamp")?;
    let disk = num(2, "DiskNumber")?;
    let op = match f[3].to_ascii_lowercase().as_str() {
        "read" => Op::Read,
        "write" => Op::Write,
        _ => return Err(format!("Type `{}` is neither Read nor Write", f[3])),
    };
    let offset = num(4, "Offset")?;
    let len = num(5, "Size")?;
    Ok(Some((
        ticks,
        TraceIo {
            t: SimTime::ZERO,
            op,
            offset,
            len,
            stream: disk as u32,
            line: 0,
        },
    )))
}

/// Converts FILETIME ticks (100 ns) after the earliest record `first` into simulated time;
/// an error when the distance does not fit the model's simulated-time range.
pub fn ticks_to_time(ticks: u64, first: u64) -> Result<SimTime, String> {
    ticks
        .checked_sub(first)
        .and_then(|d| d.checked_mul(100))
        .and_then(SimTime::from_ns_limited)
        .ok_or_else(|| {
            format!(
                "Timestamp {ticks} lies more than {} days after the earliest record ({first})",
                SimTime::LIMIT_DAYS
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_record() {
        let (ticks, io) = parse_line("128166372003061629,wdev,0,Read,3154132992,4096,1205")
            .unwrap()
            .unwrap();
        assert_eq!(ticks, 128_166_372_003_061_629);
        assert_eq!(
            (io.op, io.offset, io.len, io.stream),
            (Op::Read, 3_154_132_992, 4096, 0)
        );
        // 10 ticks of 100 ns = 1 us.
        assert_eq!(ticks_to_time(ticks + 10, ticks), Ok(SimTime::from_us(1)));
        // 2^63 ticks of 100 ns (29 000 years) are far beyond the 200-day limit.
        assert!(ticks_to_time(1 << 63, 0).unwrap_err().contains("200 days"));
    }

    #[test]
    fn rejects_bad_records() {
        assert!(parse_line("1,wdev,0,Read,0,4096")
            .unwrap_err()
            .contains("7 comma-separated"));
        assert!(parse_line("1,wdev,0,Erase,0,4096,1")
            .unwrap_err()
            .contains("Erase"));
        assert!(parse_line("x,wdev,0,Read,0,4096,1")
            .unwrap_err()
            .contains("Timestamp"));
    }
}
