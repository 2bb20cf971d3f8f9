//! Block sizes of a fio job: `bs` (one size per direction) and `bssplit` (a mix of sizes by
//! percent of IOs), with fio's rules from its HOWTO ("bs", "bssplit") and a sector-multiple
//! check (the device addresses 512-byte sectors).

use super::job::JobSpec;
use super::value::{parse_bytes, parse_int};

/// A block size: a multiple of the 512-byte sector, at most 16 MiB.
pub(super) fn block_size(v: &str, kb_base: u64) -> Result<u64, String> {
    let b = parse_bytes(v, kb_base)?;
    if b == 0 || b % 512 != 0 || b > 16 << 20 {
        return Err(format!(
            "block size {b} must be a multiple of 512 bytes, at most 16 MiB"
        ));
    }
    Ok(b)
}

/// `bs=READ[,WRITE[,TRIM]]` (or `blocksize=`, the `key`), fio HOWTO "bs": a value not ended by a
/// comma applies to the directions after it, an empty value is the default (4096): `bs=8k,32k`
/// = 8k reads, 32k writes; `bs=8k,` = 8k reads, 4k writes; `bs=,8k` = 4k reads, 8k writes. The
/// trim size is checked and unused (ssdlab's `rw` modes issue no trims).
pub(super) fn apply_bs(j: &mut JobSpec, key: &str, v: &str) -> Result<(), String> {
    if v.contains('-') {
        return Err(format!(
            "{key}={v}: a block size range is written `bsrange={v}`"
        ));
    }
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(format!(
            "{key}={v}: at most three sizes (reads, writes, trims)"
        ));
    }
    let size = |b: &str| {
        if b.is_empty() {
            Ok(4096)
        } else {
            block_size(b, j.kb_base).map_err(|e| format!("{key}: {e}"))
        }
    };
    let read = size(parts[0])?;
    let write = match parts.get(1) {
        Some(w) => size(w)?,
        None => read,
    };
    if let Some(t) = parts.get(2) {
        size(t)?;
    }
    (j.bs_read, j.bs_write) = (read, write);
    // fio: `bs` sets min = max block size, so an earlier range or split no longer applies.
    (j.bsrange_read, j.bsrange_write) = (None, None);
    (j.bssplit_read, j.bssplit_write) = (Vec::new(), Vec::new());
    Ok(())
}

/// `bsrange=MIN-MAX[,MIN-MAX[,MIN-MAX]]` (or `blocksize_range`; `:` also separates, fio's
/// `FIO_OPT_RANGE`): per direction with `bs`'s comma rules, a reversed range swapped as fio
/// swaps it. The last of `bs`, `bsrange` and `bssplit` decides a job's sizes.
pub(super) fn apply_bsrange(j: &mut JobSpec, key: &str, v: &str) -> Result<(), String> {
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(format!(
            "{key}={v}: at most three ranges (reads, writes, trims)"
        ));
    }
    let range = |r: &str| -> Result<(u64, u64), String> {
        let (a, b) = r
            .split_once(['-', ':'])
            .ok_or_else(|| format!("{key}: `{r}` is not a range MIN-MAX"))?;
        let a = block_size(a.trim(), j.kb_base).map_err(|e| format!("{key}: {e}"))?;
        let b = block_size(b.trim(), j.kb_base).map_err(|e| format!("{key}: {e}"))?;
        Ok((a.min(b), a.max(b)))
    };
    let read = range(parts[0])?;
    let write = match parts.get(1) {
        Some(w) => range(w)?,
        None => read,
    };
    if let Some(t) = parts.get(2) {
        range(t)?;
    }
    (j.bsrange_read, j.bsrange_write) = (Some(read), Some(write));
    (j.bs_read, j.bs_write) = (read.0, write.0);
    (j.bssplit_read, j.bssplit_write) = (Vec::new(), Vec::new());
    Ok(())
}

/// One block size of a `bsrange` (min, max) from `r`, uniform in [0, 1), as fio's
/// `get_next_buflen`: `min + max x r`, rounded down to a multiple of `min` (with
/// `bs_unaligned`: to a 512-byte sector, as direct IO needs), then capped at `max`.
pub fn range_len(range: (u64, u64), unaligned: bool, r: f64) -> u64 {
    let (min, max) = range;
    let raw = min + (max as f64 * r) as u64;
    let unit = if unaligned { 512 } else { min };
    (raw - raw % unit).min(max)
}

/// `bssplit=SIZE/PCT:SIZE/PCT...[,WRITES[,TRIMS]]` (fio HOWTO "bssplit"): one list applies to
/// reads and writes; with commas the lists are reads, writes (trims checked and unused). A blank
/// percent shares what the others leave (the last blank takes the rounding); the percents must
/// come to 100.
pub(super) fn apply_bssplit(j: &mut JobSpec, v: &str) -> Result<(), String> {
    let lists: Vec<&str> = v.split(',').map(str::trim).collect();
    if lists.len() > 3 {
        return Err(format!(
            "bssplit={v}: at most three lists (reads, writes, trims)"
        ));
    }
    let parsed: Vec<Vec<(u64, u32)>> = lists
        .iter()
        .map(|l| parse_split(l, j.kb_base))
        .collect::<Result<_, _>>()?;
    let read = parsed[0].clone();
    let write = parsed.get(1).cloned().unwrap_or_else(|| read.clone());
    for (split, bs) in [(&read, &mut j.bs_read), (&write, &mut j.bs_write)] {
        if let Some(min) = split.iter().map(|e| e.0).min() {
            *bs = min;
        }
    }
    (j.bssplit_read, j.bssplit_write) = (read, write);
    (j.bsrange_read, j.bsrange_write) = (None, None);
    Ok(())
}

/// One direction's `SIZE/PCT:...` list (empty string: no split).
fn parse_split(list: &str, kb_base: u64) -> Result<Vec<(u64, u32)>, String> {
    if list.is_empty() {
        return Ok(Vec::new());
    }
    let mut out: Vec<(u64, Option<u32>)> = Vec::new();
    for e in list.split(':') {
        let (size, pct) = e.split_once('/').unwrap_or((e, ""));
        let b = block_size(size.trim(), kb_base).map_err(|x| format!("bssplit: {x}"))?;
        let p = match pct.trim() {
            "" => None,
            p => Some(parse_int(p, 0, 100).map_err(|x| format!("bssplit: {e}: {x}"))? as u32),
        };
        out.push((b, p));
    }
    let given: u32 = out.iter().filter_map(|e| e.1).sum();
    let blanks = out.iter().filter(|e| e.1.is_none()).count() as u32;
    if given > 100 || (blanks == 0 && given != 100) {
        return Err(format!(
            "bssplit: `{list}`: the percentages come to {given}, not 100"
        ));
    }
    let share = (100 - given).checked_div(blanks).unwrap_or(0);
    let last_blank = out.iter().rposition(|e| e.1.is_none());
    Ok(out
        .iter()
        .enumerate()
        .map(|(i, (b, p))| {
            (
                *b,
                p.unwrap_or(if Some(i) == last_blank {
                    100 - given - share * (blanks - 1)
                } else {
                    share
                }),
            )
        })
        .filter(|e| e.1 > 0)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::range_len;
    use crate::fio::parse_job_file;

    #[test]
    fn bsrange_parses_with_fios_comma_rules() {
        let j = &parse_job_file("[a]\nbsrange=16k-4k\n", "x").unwrap()[0];
        assert_eq!(
            (j.bsrange_read, j.bsrange_write),
            (Some((4096, 16_384)), Some((4096, 16_384)))
        );
        assert_eq!((j.bs_read, j.max_bs()), (4096, 16_384));
        let j = &parse_job_file("[a]\nbsrange=1k:4k,8k-32k\n", "x").unwrap()[0];
        assert_eq!(
            (j.bsrange_read, j.bsrange_write),
            (Some((1024, 4096)), Some((8192, 32_768)))
        );
        // The last of bs / bsrange / bssplit decides.
        let j = &parse_job_file("[a]\nbsrange=4k-16k\nbs=8k\n", "x").unwrap()[0];
        assert_eq!((j.bsrange_read, j.bs_read), (None, 8192));
        let e = parse_job_file("[a]\nbsrange=4k\n", "x")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("x:2: bsrange: `4k` is not a range MIN-MAX"),
            "{e}"
        );
        assert!(parse_job_file("[a]\nbsrange=4k-1000\n", "x").is_err());
    }

    #[test]
    fn range_lengths_follow_fios_formula() {
        // 4k-16k: min + 16k x r spans [4k, 20k); multiples of 4k: 4k, 8k, 12k, then 16k for
        // [16k, 20k): a quarter each.
        let at = |r: f64| range_len((4096, 16_384), false, r);
        assert_eq!(
            (at(0.0), at(0.249), at(0.25), at(0.5), at(0.75), at(0.999)),
            (4096, 4096, 8192, 12_288, 16_384, 16_384)
        );
        // 4k-10k: [4k, 14k); 4k for r < 0.4, 8k for r < 0.8, then 12k capped at 10k.
        let at = |r: f64| range_len((4096, 10_240), false, r);
        assert_eq!(
            (at(0.39), at(0.41), at(0.79), at(0.81)),
            (4096, 8192, 8192, 10_240)
        );
        // bs_unaligned: sector steps; 4k-6k spans [4k, 10k), two thirds capped at 6k.
        let at = |r: f64| range_len((4096, 6144), true, r);
        assert_eq!(
            (at(0.0), at(512.0 / 6144.0), at(0.3), at(0.34)),
            (4096, 4608, 5632, 6144)
        );
    }

    #[test]
    fn bs_lists_follow_the_howto_examples() {
        // fio HOWTO "bs": each example's (read, write) sizes.
        for (v, want) in [
            ("256k", (262_144, 262_144)),
            ("8k,32k", (8192, 32_768)),
            ("8k,32k,", (8192, 32_768)),
            ("8k,", (8192, 4096)),
            (",8k", (4096, 8192)),
            (",8k,", (4096, 8192)),
            ("4k,8k,16k", (4096, 8192)),
        ] {
            let j = &parse_job_file(&format!("[a]\nbs={v}\n"), "x").unwrap()[0];
            assert_eq!((j.bs_read, j.bs_write), want, "bs={v}");
        }
        assert!(parse_job_file("[a]\nbs=4k,4k,4k,4k\n", "x").is_err());
        assert!(parse_job_file("[a]\nbs=4k,4k,1000\n", "x").is_err());
    }

    #[test]
    fn bssplit_follows_the_howto() {
        // fio HOWTO "bssplit" examples.
        let j = &parse_job_file("[a]\nbssplit=4k/10:64k/50:32k/40\n", "x").unwrap()[0];
        assert_eq!(j.bssplit_read, [(4096, 10), (65_536, 50), (32_768, 40)]);
        assert_eq!(
            (j.bssplit_write.clone(), j.bs_read, j.bs_write),
            (j.bssplit_read.clone(), 4096, 4096)
        );
        let j = &parse_job_file("[a]\nbssplit=2k/50:4k/50,4k/90:8k/10\n", "x").unwrap()[0];
        assert_eq!(
            (j.bssplit_read.clone(), j.bssplit_write.clone()),
            (vec![(2048, 50), (4096, 50)], vec![(4096, 90), (8192, 10)])
        );
        assert_eq!((j.bs_read, j.bs_write), (2048, 4096));
        // Blank percents share the rest: 4k/:8k/:16k/ = 33 + 33 + 34.
        let j = &parse_job_file("[a]\nbssplit=4k/:8k/:16k/\n", "x").unwrap()[0];
        assert_eq!(j.bssplit_read, [(4096, 33), (8192, 33), (16_384, 34)]);
        let e = parse_job_file("[a]\nbssplit=4k/50:8k/40\n", "x")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("x:2: bssplit: `4k/50:8k/40`: the percentages come to 90"),
            "{e}"
        );
    }
}
