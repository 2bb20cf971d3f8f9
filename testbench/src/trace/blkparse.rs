//! blkparse (blktrace) default text output, e.g.
//! `  8,0    3        1     0.000000000  4162  Q  WS 3417048 + 8 [kworker/3:1]`:
//! device, CPU, sequence, time (s.ns), pid, action, RWBS, sector + sectors, [process].
//! Only queue (`Q`) events are replayed: they are when the host asked for the IO. Sectors are
//! 512 bytes. RWBS: R read, W write, D discard (trim), F flush; other flags (S sync, M meta,
//! A ahead, N none) are kept out. blkparse's closing summary (from `CPU0 (8,0):` or
//! `Total (8,0):` on) is skipped.

use super::TraceIo;
use crate::workload::Op;
use ssdlab_model::SimTime;

/// What a line of blkparse output is.
pub enum Line {
    Io(TraceIo),
    /// An event other than Q, or an IO-less Q (e.g. a pure flush with no sectors).
    Other,
    /// The start of the closing summary: nothing after it is an event.
    Summary,
}

fn parse_time(s: &str) -> Option<SimTime> {
    let (sec, frac) = s.split_once('.')?;
    if frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ns: u64 = format!("{frac:0<9}").parse().ok()?;
    let total = sec
        .parse::<u64>()
        .ok()?
        .checked_mul(1_000_000_000)?
        .checked_add(ns)?;
    SimTime::from_ns_limited(total)
}

pub fn parse_line(line: &str) -> Result<Line, String> {
    let t = line.trim_start();
    if t.starts_with("CPU") || t.starts_with("Total (") {
        return Ok(Line::Summary);
    }
    let f: Vec<&str> = t.split_whitespace().collect();
    if f.len() < 6 || !f[0].contains(',') {
        return Err(
            "not a blkparse event line (expected `maj,min cpu seq time pid action ...`)".into(),
        );
    }
    let cpu: u32 = f[1]
        .parse()
        .map_err(|_| format!("CPU `{}` is not an integer", f[1]))?;
    let time = parse_time(f[3]).ok_or_else(|| {
        format!(
            "time `{}` is not seconds.nanoseconds within {} days",
            f[3],
            SimTime::LIMIT_DAYS
        )
    })?;
    if f[5] != "Q" {
        return Ok(Line::Other);
    }
    let rwbs = f.get(6).ok_or("Q event without RWBS field")?;
    let op = if rwbs.contains('D') {
        Op::Trim
    } else if rwbs.contains('W') {
        Op::Write
    } else if rwbs.contains('R') {
        Op::Read
    } else if rwbs.contains('F') {
        Op::Flush
    } else {
        return Err(format!(
            "RWBS `{rwbs}` names no read, write, discard or flush"
        ));
    };
    // `sector + count`; a flush may have none.
    let (sector, count) = match (f.get(7), f.get(8), f.get(9)) {
        (Some(s), Some(&"+"), Some(c)) => (
            s.parse::<u64>()
                .map_err(|_| format!("sector `{s}` is not an integer"))?,
            c.parse::<u64>()
                .map_err(|_| format!("sector count `{c}` is not an integer"))?,
        ),
        _ if op == Op::Flush => {
            return Ok(Line::Io(TraceIo {
                t: time,
                op,
                offset: 0,
                len: 0,
                stream: cpu,
                line: 0,
            }))
        }
        _ => return Err("Q event without `sector + count`".into()),
    };
    if count == 0 {
        return Ok(Line::Other);
    }
    let (Some(offset), Some(len)) = (sector.checked_mul(512), count.checked_mul(512)) else {
        return Err(format!("sector {sector} + {count} lies past 2^64 bytes"));
    };
    Ok(Line::Io(TraceIo {
        t: time,
        op,
        offset,
        len,
        stream: cpu,
        line: 0,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_queue_events_and_skips_others() {
        match parse_line(
            "  8,0    3        1     0.000100000  4162  Q  WS 3417048 + 8 [kworker/3:1]",
        )
        .unwrap()
        {
            Line::Io(io) => {
                assert_eq!(
                    (io.op, io.offset, io.len, io.stream),
                    (Op::Write, 3_417_048 * 512, 4096, 3)
                );
                assert_eq!(io.t, SimTime::from_us(100));
            }
            _ => panic!("expected an IO"),
        }
        assert!(matches!(
            parse_line("  8,0    3        2     0.000100500  4162  G  WS 3417048 + 8 [x]").unwrap(),
            Line::Other
        ));
        assert!(matches!(parse_line("CPU3 (8,0):").unwrap(), Line::Summary));
        assert!(parse_line("  8,0 3 1 0.1x 4162 Q R 1 + 8 [x]").is_err());
    }
}
