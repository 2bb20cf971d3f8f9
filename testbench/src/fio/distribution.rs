//! fio's `random_distribution` (fio HOWTO, "random_distribution"): which blocks of the region
//! random IO picks. `random` (uniform, the default), `zipf:θ` (θ > 0, θ ≠ 1), `pareto:h`
//! (0 < h < 1), `normal:σ` (σ in percent of the region, 0 < σ <= 100),
//! `zoned:A/R:A/R...` (A % of the accesses go to the next R % of the region, in order; both
//! columns add up to 100) and `zoned_abs:A/SIZE:...` (zones given as sizes; the accesses add
//! up to 100). `random_generator` is accepted and ignored (ssdlab has one generator);
//! `randseed` seeds the draw like every other random choice of the job.

use super::value::parse_bytes;

/// A zone of a `zoned` / `zoned_abs` distribution.
#[derive(Clone, Debug, PartialEq)]
pub enum ZoneSize {
    /// Percent of the region.
    Pct(f64),
    /// Bytes.
    Bytes(u64),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Distribution {
    Random,
    Zipf(f64),
    Pareto(f64),
    Normal(f64),
    /// (percent of accesses, zone size), in region order.
    Zoned(Vec<(f64, ZoneSize)>),
}

fn number(what: &str, s: &str) -> Result<f64, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("random_distribution: {what} `{s}` is not a number"))?;
    if !x.is_finite() {
        return Err(format!("random_distribution: {what} `{s}` is not a number"));
    }
    Ok(x)
}

/// `zoned:A/R:...` or `zoned_abs:A/SIZE:...`.
fn zones(v: &str, list: &str, abs: bool, kb_base: u64) -> Result<Distribution, String> {
    let mut out = Vec::new();
    for z in list.split(':') {
        let (a, r) = z
            .split_once('/')
            .ok_or_else(|| format!("random_distribution={v}: zone `{z}` is not ACCESS%/RANGE"))?;
        let a = number("access percentage", a)?;
        if !(0.0..=100.0).contains(&a) {
            return Err(format!(
                "random_distribution={v}: access percentage {a} is outside 0..100"
            ));
        }
        let size = if abs {
            let b = parse_bytes(r, kb_base).map_err(|e| format!("random_distribution: {e}"))?;
            if b == 0 {
                return Err(format!("random_distribution={v}: zone size 0"));
            }
            ZoneSize::Bytes(b)
        } else {
            let p = number("range percentage", r)?;
            if !(p > 0.0 && p <= 100.0) {
                return Err(format!(
                    "random_distribution={v}: range percentage {p} is outside (0, 100]"
                ));
            }
            ZoneSize::Pct(p)
        };
        out.push((a, size));
    }
    let sum_a: f64 = out.iter().map(|z| z.0).sum();
    if (sum_a - 100.0).abs() > 1e-9 {
        return Err(format!(
            "random_distribution={v}: access percentages add up to {sum_a}, not 100"
        ));
    }
    if !abs {
        let sum_r: f64 = out
            .iter()
            .map(|z| match z.1 {
                ZoneSize::Pct(p) => p,
                ZoneSize::Bytes(_) => 0.0,
            })
            .sum();
        if (sum_r - 100.0).abs() > 1e-9 {
            return Err(format!(
                "random_distribution={v}: range percentages add up to {sum_r}, not 100"
            ));
        }
    }
    Ok(Distribution::Zoned(out))
}

/// Parses `random_distribution=` with fio's ranges.
pub(super) fn parse_distribution(v: &str, kb_base: u64) -> Result<Distribution, String> {
    let v = v.trim();
    let (kind, arg) = match v.split_once(':') {
        Some((k, a)) => (k, Some(a)),
        None => (v, None),
    };
    let need =
        || arg.ok_or_else(|| format!("random_distribution={kind} needs a value (`{kind}:X`)"));
    Ok(match kind {
        "random" if arg.is_none() => Distribution::Random,
        "zipf" => {
            let t = number("zipf theta", need()?)?;
            if t <= 0.0 || t == 1.0 {
                return Err(format!("random_distribution=zipf:{t}: theta must be > 0 and not 1"));
            }
            Distribution::Zipf(t)
        }
        "pareto" => {
            let h = number("pareto h", need()?)?;
            if !(h > 0.0 && h < 1.0) {
                return Err(format!("random_distribution=pareto:{h}: h must be in (0, 1)"));
            }
            Distribution::Pareto(h)
        }
        "normal" | "gauss" => {
            let s = number("normal deviation", need()?)?;
            if !(s > 0.0 && s <= 100.0) {
                return Err(format!("random_distribution=normal:{s}: the deviation (percent of the region) must be in (0, 100]"));
            }
            Distribution::Normal(s)
        }
        "zoned" => zones(v, need()?, false, kb_base)?,
        "zoned_abs" => zones(v, need()?, true, kb_base)?,
        _ => {
            return Err(format!(
                "random_distribution={v}: not one of random, zipf:θ, pareto:h, normal:σ, zoned:..., zoned_abs:..."
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fio::parse_job_file;

    fn dist(v: &str) -> Result<Distribution, String> {
        parse_job_file(
            &format!("[a]\nrw=randread\nrandom_distribution={v}\n"),
            "t.fio",
        )
        .map(|j| j[0].distribution.clone())
        .map_err(|e| e.to_string())
    }

    #[test]
    fn forms_and_ranges() {
        assert_eq!(dist("zipf:1.2").unwrap(), Distribution::Zipf(1.2));
        assert_eq!(dist("pareto:0.9").unwrap(), Distribution::Pareto(0.9));
        assert_eq!(dist("random").unwrap(), Distribution::Random);
        assert_eq!(
            dist("zoned:60/10:30/20:10/70").unwrap(),
            Distribution::Zoned(vec![
                (60.0, ZoneSize::Pct(10.0)),
                (30.0, ZoneSize::Pct(20.0)),
                (10.0, ZoneSize::Pct(70.0))
            ])
        );
        assert_eq!(
            dist("zoned_abs:80/1m:20/3m").unwrap(),
            Distribution::Zoned(vec![
                (80.0, ZoneSize::Bytes(1 << 20)),
                (20.0, ZoneSize::Bytes(3 << 20))
            ])
        );
        for (v, want) in [
            ("zipf:0", "t.fio:3: random_distribution=zipf:0: theta must be > 0 and not 1"),
            ("zipf:1", "t.fio:3: random_distribution=zipf:1: theta must be > 0 and not 1"),
            ("zipf", "t.fio:3: random_distribution=zipf needs a value"),
            ("pareto:1", "t.fio:3: random_distribution=pareto:1: h must be in (0, 1)"),
            ("normal:0", "t.fio:3: random_distribution=normal:0: the deviation"),
            ("zoned:60/10:30/90", "t.fio:3: random_distribution=zoned:60/10:30/90: access percentages add up to 90, not 100"),
            ("zoned:60/10:40/20", "t.fio:3: random_distribution=zoned:60/10:40/20: range percentages add up to 30, not 100"),
            ("zoned_abs:50/1m:40/2m", "t.fio:3: random_distribution=zoned_abs:50/1m:40/2m: access percentages add up to 90"),
            ("zipf:nan", "t.fio:3: random_distribution: zipf theta `nan` is not a number"),
            ("lognormal:2", "t.fio:3: random_distribution=lognormal:2: not one of"),
        ] {
            let e = dist(v).unwrap_err();
            assert!(e.starts_with(want), "{v}: {e}");
        }
    }
}
