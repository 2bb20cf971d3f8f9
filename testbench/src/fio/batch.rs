//! fio's submission and reaping batches (HOWTO "iodepth_batch_submit" ..."iodepth_low"; fio
//! `backend.c` `wait_for_completions`, `ioengines.c` `td_io_queue` / `td_io_getevents`).
//!
//! `iodepth_batch_submit` only changes how many IOs fio hands the kernel per system call: fio
//! commits a partial batch whenever it stops to wait (a full queue: `td_io_getevents` commits
//! first; a rate or thinktime sleep: `io_u_quiesce`; the end of the job), and the model charges
//! the host no time, so every IO reaches the device at the instant it is drawn, with or without
//! batching. It is checked and kept for the JSON options. The reaping options do change when
//! slots free: with the queue full, fio waits for `iodepth_batch_complete_min` completions,
//! takes up to `iodepth_batch_complete_max`, and keeps reaping until at most `iodepth_low`
//! remain in flight (`workload/runner/reap.rs`).

use super::job::JobSpec;
use super::value::parse_int;

/// A job's batching options after fio's `fixup_options`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchSpec {
    /// `iodepth_batch_submit` (0 or above `iodepth` = `iodepth`).
    pub submit: u32,
    /// `iodepth_batch_complete_min` (0 = poll: with the queue full, wait for one).
    pub complete_min: u32,
    /// `iodepth_batch_complete_max` (at least `complete_min`).
    pub complete_max: u32,
    /// `iodepth_low` (0 or above `iodepth` = `iodepth`).
    pub low: u32,
}

impl Default for BatchSpec {
    /// fio's defaults before fix-up: submit 1, complete_min 1, complete_max and low unset.
    fn default() -> Self {
        BatchSpec {
            submit: 1,
            complete_min: 1,
            complete_max: 0,
            low: 0,
        }
    }
}

/// The options [`apply_batch`] takes.
pub(super) const BATCH_OPTIONS: &[&str] = &[
    "iodepth_batch",
    "iodepth_batch_submit",
    "iodepth_batch_complete",
    "iodepth_batch_complete_min",
    "iodepth_batch_complete_max",
    "iodepth_low",
];

/// Applies one of [`BATCH_OPTIONS`] (fio's range: 0 .. 65536, as `iodepth`).
pub(super) fn apply_batch(j: &mut JobSpec, key: &str, v: &str) -> Result<(), String> {
    let n = parse_int(v, 0, 65_536).map_err(|e| format!("{key}: {e}"))? as u32;
    match key {
        "iodepth_batch" | "iodepth_batch_submit" => j.batch.submit = n,
        "iodepth_batch_complete" | "iodepth_batch_complete_min" => j.batch.complete_min = n,
        "iodepth_batch_complete_max" => j.batch.complete_max = n,
        "iodepth_low" => j.batch.low = n,
        _ => unreachable!("apply_batch called with `{key}`"),
    }
    Ok(())
}

/// fio's `fixup_options` for the batch options, once `iodepth` is known.
pub(super) fn fixup(j: &mut JobSpec) {
    let b = &mut j.batch;
    if b.low == 0 || b.low > j.iodepth {
        b.low = j.iodepth;
    }
    if b.submit == 0 || b.submit > j.iodepth {
        b.submit = j.iodepth;
    }
    if b.complete_min > b.complete_max {
        b.complete_max = b.complete_min;
    }
}

#[cfg(test)]
mod tests {
    use crate::fio::parse_job_file;

    #[test]
    fn fixups_follow_fio() {
        let j = &parse_job_file("[a]\niodepth=16\n", "x").unwrap()[0];
        assert_eq!(
            (
                j.batch.submit,
                j.batch.complete_min,
                j.batch.complete_max,
                j.batch.low
            ),
            (1, 1, 1, 16)
        );
        let j = &parse_job_file(
            "[a]\niodepth=16\niodepth_batch=0\niodepth_batch_complete=4\niodepth_low=99\n",
            "x",
        )
        .unwrap()[0];
        assert_eq!(
            (
                j.batch.submit,
                j.batch.complete_min,
                j.batch.complete_max,
                j.batch.low
            ),
            (16, 4, 4, 16)
        );
        let j = &parse_job_file(
            "[a]\niodepth=16\niodepth_batch_complete_min=2\niodepth_batch_complete_max=8\n",
            "x",
        )
        .unwrap()[0];
        assert_eq!((j.batch.complete_min, j.batch.complete_max), (2, 8));
        let e = parse_job_file("[a]\niodepth_low=-1\n", "x")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("x:2: iodepth_low: `-1` is not an integer"),
            "{e}"
        );
    }
}
