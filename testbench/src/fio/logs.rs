//! fio's per-job log options (HOWTO "write_bw_log", "write_lat_log", "write_iops_log",
//! "log_avg_msec"); the files are written by `workload/iolog.rs` in fio's log format.

use super::job::JobSpec;
use super::value::parse_int;

/// The logs a job writes: each a file-name prefix ("" = the job's name, as fio's
/// `make_log_name`), and the averaging window (0 = one line per IO).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogSpec {
    pub bw: Option<String>,
    pub iops: Option<String>,
    pub lat: Option<String>,
    pub avg_msec: u64,
}

impl LogSpec {
    pub fn any(&self) -> bool {
        self.bw.is_some() || self.iops.is_some() || self.lat.is_some()
    }
}

/// The options [`apply_log`] takes.
pub(super) const LOG_OPTIONS: &[&str] = &[
    "write_bw_log",
    "write_iops_log",
    "write_lat_log",
    "log_avg_msec",
];

/// Applies one of [`LOG_OPTIONS`]; `v` is `None` for a bare option.
pub(super) fn apply_log(j: &mut JobSpec, key: &str, v: Option<&str>) -> Result<(), String> {
    let prefix = v.map(str::trim).unwrap_or("").to_string();
    match key {
        "write_bw_log" => j.logs.bw = Some(prefix),
        "write_iops_log" => j.logs.iops = Some(prefix),
        "write_lat_log" => j.logs.lat = Some(prefix),
        "log_avg_msec" => {
            let v = v
                .filter(|v| !v.trim().is_empty())
                .ok_or("option `log_avg_msec` needs a value")?;
            j.logs.avg_msec =
                parse_int(v, 0, u32::MAX as u64).map_err(|e| format!("log_avg_msec: {e}"))?;
        }
        _ => unreachable!("apply_log called with `{key}`"),
    }
    Ok(())
}
