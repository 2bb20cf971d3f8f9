//! Derived and coupled config keys. A value that follows from others is recomputed when one of
//! its inputs was set (by `--set` or by a file over a base) and it was not; when both were set
//! and do not fit together, the error names both keys and a value that would work.
//!
//! - `onfi.core_clock_mhz` from `onfi.transfer_mts`: the sequencer moves 1 to 4 bytes per core
//!   cycle (the HDL's 32-bit DQ path, `hdl/src/nand/`), so the clock is `transfer_mts / b` for
//!   the widest `b` in 4..=1 that gives a whole clock in the 25..=1000 MHz the config accepts.
//! - `ftl.map_cache.dram_table_mb` from the capacity and `controller.dram_mb`: the whole mapping
//!   table (4 B per exported 4 KiB unit, in translation pages) when it fits in the DRAM left
//!   after `controller.write_buffer_kib`, else that room (the table is then partly resident).
//!   It moves only when that changes what is resident: when the given size is below both or
//!   does not fit; a size already holding the whole table stays as it is.

use super::keys::{get_dotted, set_dotted};
use crate::error::InputError;
use ssdlab_model::DriveConfig;
use std::collections::BTreeMap;
use toml::Value;

const TRANSFER: &str = "onfi.transfer_mts";
const CLOCK: &str = "onfi.core_clock_mhz";
const TABLE: &str = "ftl.map_cache.dram_table_mb";
const DRAM: &str = "controller.dram_mb";
const WBUF: &str = "controller.write_buffer_kib";

fn int(v: &Value, key: &str) -> Option<i64> {
    get_dotted(v, key).and_then(Value::as_integer)
}

/// A sequencer clock for `mts`: the widest 1..=4 bytes per cycle giving a whole 25..=1000 MHz.
pub fn clock_for(mts: i64) -> Option<i64> {
    (1..=4)
        .rev()
        .filter(|b| mts % b == 0)
        .map(|b| mts / b)
        .find(|c| (25..=1000).contains(c))
}

fn fits(mts: i64, clock: i64) -> bool {
    clock > 0 && mts % clock == 0 && (1..=4).contains(&(mts / clock))
}

/// Applies the derivations to the merged table `v`. `set` holds the keys the user gave; the
/// derived keys are added to `marks` with the keys they follow from.
pub fn derive(
    v: &mut Value,
    set: &BTreeMap<String, String>,
    marks: &mut BTreeMap<String, String>,
    origin: &str,
) -> Result<(), InputError> {
    derive_clock(v, set, marks, origin)?;
    derive_table(v, set, marks, origin)
}

fn derive_clock(
    v: &mut Value,
    set: &BTreeMap<String, String>,
    marks: &mut BTreeMap<String, String>,
    origin: &str,
) -> Result<(), InputError> {
    let (Some(mts), Some(clock)) = (int(v, TRANSFER), int(v, CLOCK)) else {
        return Ok(());
    };
    // A rate outside the accepted range is left to validation, which names the range.
    if fits(mts, clock) || !set.contains_key(TRANSFER) || !(10..=3600).contains(&mts) {
        return Ok(());
    }
    let suggestion = clock_for(mts);
    if set.contains_key(CLOCK) {
        let hint = match suggestion {
            Some(c) => format!("{CLOCK} = {c} would work"),
            None => format!("{TRANSFER} = {} would work", clock * 4),
        };
        return Err(InputError::file(
            origin,
            format!(
                "{TRANSFER} = {mts} and {CLOCK} = {clock} do not fit (1 to 4 bytes per sequencer \
                 cycle); {hint}"
            ),
        ));
    }
    let Some(c) = suggestion else {
        return Err(InputError::file(
            origin,
            format!(
                "{TRANSFER} = {mts}: no sequencer clock fits (needs {TRANSFER} / b whole and \
                 25..=1000 MHz for b = 1..4 bytes per cycle); {TRANSFER} = {} would work",
                (mts / 4).max(25) * 4
            ),
        ));
    };
    set_dotted(v, CLOCK, Value::Integer(c));
    marks.insert(CLOCK.to_string(), format!("derived from {TRANSFER}"));
    Ok(())
}

/// MiB of the whole mapping table of a config (translation pages of `page_bytes`).
fn full_table_mb(cfg: &DriveConfig) -> Option<i64> {
    let plan = cfg.ftl.capacity_plan(&cfg.geometry).ok()?;
    let bytes = plan
        .table_pages
        .checked_mul(cfg.geometry.page_bytes as u64)?;
    i64::try_from(bytes.div_ceil(1 << 20)).ok()
}

fn derive_table(
    v: &mut Value,
    set: &BTreeMap<String, String>,
    marks: &mut BTreeMap<String, String>,
    origin: &str,
) -> Result<(), InputError> {
    let (Some(table), Some(dram), Some(wbuf)) = (int(v, TABLE), int(v, DRAM), int(v, WBUF)) else {
        return Ok(());
    };
    let room = if dram == 0 {
        0
    } else {
        (dram * 1024 - wbuf).max(0) / 1024
    };
    if set.contains_key(TABLE) {
        if table > room && dram != 0 {
            return Err(InputError::file(
                origin,
                format!(
                    "{TABLE} = {table} does not fit in {DRAM} = {dram} beside {WBUF} = {wbuf}; \
                     {TABLE} = {room} or {DRAM} = {} would work",
                    (table * 1024 + wbuf + 1023) / 1024
                ),
            ));
        }
        return Ok(());
    }
    let inputs = [DRAM, WBUF, "ftl.over_provisioning_pct"];
    let from: Vec<&str> = set
        .keys()
        .map(String::as_str)
        .filter(|k| inputs.contains(k) || k.starts_with("geometry."))
        .collect();
    if from.is_empty() {
        return Ok(());
    }
    // The typed view, unvalidated, for the capacity plan; a config that does not parse is
    // reported by the caller's deserialization.
    let Ok(cfg) = DriveConfig::deserialize(v.clone()) else {
        return Ok(());
    };
    if cfg.geometry.validate().is_err() {
        return Ok(());
    }
    let Some(full) = full_table_mb(&cfg) else {
        return Ok(());
    };
    // Only a value that changes behaviour moves: a table at least as large as the whole table
    // (and fitting) is already all resident, so it is kept as given.
    let derived = full.min(room);
    if table < derived || table > room {
        set_dotted(v, TABLE, Value::Integer(derived));
        marks.insert(
            TABLE.to_string(),
            format!("derived from {}", from.join(", ")),
        );
    }
    Ok(())
}

use serde::Deserialize;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_takes_the_widest_whole_division() {
        // 1066 MT/s: 4 and 3 bytes do not divide, 2 bytes gives 533 MHz.
        assert_eq!(clock_for(1066), Some(533));
        assert_eq!(clock_for(800), Some(200));
        assert_eq!(clock_for(400), Some(100));
        // 4001 is prime-ish for 2..4 and 4001 MHz is above 1000: nothing fits.
        assert_eq!(clock_for(4001), None);
        assert!(fits(800, 200) && fits(400, 200) && !fits(1066, 200) && !fits(1600, 200));
    }
}
