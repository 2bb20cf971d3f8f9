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
        return Err(format!("{key}={v}: a block size range is fio's `bsrange`, which ssdlab does not model; give one size per direction"));
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
    Ok(())
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
    use crate::fio::parse_job_file;

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
