//! The byte regions of fio jobs and their clones on the device (fio's `setup_files` and
//! `get_start_offset`), the checks of every job against the device before a run, and the
//! stonewall groups.

use crate::error::InputError;
use crate::fio::{JobSpec, SizeSpec};
use crate::workload::device::Device;

/// Byte region `[start, start+len)` given fio-style offset and size on a device of `cap` bytes,
/// as fio's `setup_files`/`get_start_offset` compute them: `offset=N%` is N % of the device
/// rounded up to a block (`min_len`, the job's largest block size); `size=N%` is N % of the space
/// from the offset to the end; `size` absent or 0 is everything from the offset to the end.
pub fn region(
    offset: SizeSpec,
    size: Option<SizeSpec>,
    min_len: u64,
    cap: u64,
) -> Result<(u64, u64), String> {
    assert!(min_len > 0, "block size 0");
    let start = offset_bytes(offset, min_len, cap);
    if !start.is_multiple_of(512) || start >= cap {
        return Err(format!(
            "offset {start} must be 512-aligned and inside the {cap}-byte device"
        ));
    }
    let len = match size {
        None | Some(SizeSpec::Bytes(0)) => cap - start,
        Some(SizeSpec::Bytes(b)) => b,
        Some(SizeSpec::Percent(p)) => pct_of(cap - start, p),
    };
    if start.checked_add(len).is_none_or(|end| end > cap) {
        return Err(format!(
            "offset {start} + size {len} exceed the device's {cap} bytes"
        ));
    }
    if len < min_len {
        return Err(format!(
            "size {len} is smaller than one {min_len}-byte block"
        ));
    }
    Ok((start, len))
}

/// `p` % of `v` bytes, rounded down.
fn pct_of(v: u64, p: u32) -> u64 {
    (v as u128 * p as u128 / 100) as u64
}

/// An offset (or offset increment) in bytes: `N%` is N % of the `cap`-byte device rounded up to a
/// block of `block` bytes, as fio's `get_start_offset` computes it.
fn offset_bytes(s: SizeSpec, block: u64, cap: u64) -> u64 {
    match s {
        SizeSpec::Bytes(b) => b,
        SizeSpec::Percent(p) => pct_of(cap, p).div_ceil(block).saturating_mul(block),
    }
}

/// The files of a clone's region `(start, len)`: `nrfiles` regions back to back, each
/// `filesize` or the region split evenly (rounded down to the job's largest block); one file
/// when `filename` names the device, as fio caps `nrfiles` at the files named.
pub fn file_regions(j: &JobSpec, region: (u64, u64)) -> Result<Vec<(u64, u64)>, String> {
    let n = if j.filename_given {
        1
    } else {
        j.nrfiles as u64
    };
    let bs = j.max_bs();
    let fs = match j.filesize {
        Some(fs) if n > 1 => fs / 512 * 512,
        Some(fs) => fs.min(region.1),
        None => region.1 / n / bs * bs,
    };
    if fs < bs {
        return Err(format!(
            "nrfiles {n}: each file of {fs} bytes is smaller than one {bs}-byte block"
        ));
    }
    Ok((0..n).map(|i| (region.0 + i * fs, fs)).collect())
}

/// Region of a job (its first clone) on a device of `cap` bytes.
pub fn job_region(j: &JobSpec, cap: u64) -> Result<(u64, u64), String> {
    clone_region(j, 0, cap)
}

/// Region of clone `k` of a job: fio's `get_start_offset` adds k x `offset_increment` to the
/// offset (a percentage is of the device, rounded up to a block); the size is then taken from
/// that start as for any offset.
pub fn clone_region(j: &JobSpec, k: u32, cap: u64) -> Result<(u64, u64), String> {
    let bs = j.max_bs();
    let start = offset_bytes(j.offset, bs, cap)
        .saturating_add(offset_bytes(j.offset_increment, bs, cap).saturating_mul(k as u64));
    let clone = if k > 0 {
        format!("clone {k}: ")
    } else {
        String::new()
    };
    // With `filesize` the files make the region: nrfiles x filesize from the start.
    let files = if j.filename_given {
        1
    } else {
        j.nrfiles as u64
    };
    let size = match j.filesize {
        Some(fs) => Some(SizeSpec::Bytes(
            (fs / 512 * 512)
                .checked_mul(files)
                .ok_or_else(|| format!("{clone}nrfiles x filesize overflows"))?,
        )),
        None => j.size,
    };
    let r = region(SizeSpec::Bytes(start), size, bs, cap).map_err(|e| format!("{clone}{e}"))?;
    file_regions(j, r).map_err(|e| format!("{clone}{e}"))?;
    Ok(r)
}

/// Checks every job against the device (region, queue depth) before anything runs.
pub fn check_jobs(dev: &dyn Device, jobs: &[JobSpec]) -> Result<(), InputError> {
    for j in jobs {
        for k in 0..j.numjobs {
            clone_region(j, k, dev.capacity_bytes())
                .map_err(|r| InputError::at(&j.file, j.line, format!("job `{}`: {r}", j.name)))?;
        }
        if let crate::fio::distribution::Distribution::Zoned(z) = &j.distribution {
            let (_, len) = clone_region(j, 0, dev.capacity_bytes()).expect("checked above");
            let granule = j
                .bssplit_read
                .iter()
                .chain(&j.bssplit_write)
                .map(|e| e.0)
                .min();
            let bs = granule.unwrap_or(j.bs_read.min(j.bs_write));
            crate::workload::skew::zone_blocks(z, len / bs, bs)
                .map_err(|r| InputError::at(&j.file, j.line, format!("job `{}`: {r}", j.name)))?;
        }
        if j.iodepth >= dev.queue_entries() {
            let r = format!(
                "job `{}`: iodepth {} exceeds the NVMe queue ({} entries)",
                j.name,
                j.iodepth,
                dev.queue_entries()
            );
            return Err(InputError::at(&j.file, j.line, r));
        }
    }
    Ok(())
}

/// Splits jobs into stonewall groups (a job with `stonewall` starts a new group).
pub fn groups(jobs: &[JobSpec]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        if out.is_empty() || j.stonewall {
            out.push(Vec::new());
        }
        out.last_mut().expect("pushed above").push(i);
    }
    out
}
