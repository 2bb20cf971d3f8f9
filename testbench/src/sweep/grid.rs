//! The sweep grid: config keys with lists of values, combined as a product (the default) or
//! zipped, numbered in a fixed order (the last key varies fastest), sliced into shards, and the
//! seed of each point derived from the root seed and the point's own assignments (so a point
//! has the same seed whatever grid, shard or resume it runs in).

use crate::drive_cfg::keys::{check_type, parse_as, schema_leaves, unknown_key};
use crate::error::InputError;
use serde::{Deserialize, Serialize};
use toml::Value;

/// Keys and their values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    pub keys: Vec<String>,
    /// Per key, its values in canonical text (`4`, `0.5`, `true`, `"greedy"`).
    pub values: Vec<Vec<String>>,
    pub zip: bool,
}

/// One point of a grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub index: usize,
    /// `(key, canonical value)` in grid key order.
    pub set: Vec<(String, String)>,
}

impl Point {
    /// `geometry.channels=4 onfi.transfer_mts=800`.
    pub fn label(&self) -> String {
        let parts: Vec<String> = self.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        parts.join(" ")
    }
    /// The `--set` overrides of this point.
    pub fn sets(&self) -> Vec<String> {
        self.set.iter().map(|(k, v)| format!("{k}={v}")).collect()
    }
    /// The point's seed: FNV-1a of its assignments mixed with the root seed.
    pub fn seed(&self, root: u64) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ root;
        for b in self.label().bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

fn schema_type(key: &str, origin: &str) -> Result<Value, InputError> {
    let schema = schema_leaves();
    schema
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .ok_or_else(|| unknown_key(origin, key, &schema))
}

impl Grid {
    /// From `--grid KEY=V1,V2,...` arguments, each value parsed by the key's type.
    pub fn from_args(args: &[String], zip: bool) -> Result<Self, InputError> {
        let mut g = Grid {
            keys: Vec::new(),
            values: Vec::new(),
            zip,
        };
        for a in args {
            let (key, list) = a
                .split_once('=')
                .ok_or_else(|| InputError::file("--grid", format!("`{a}` is not KEY=V1,V2,...")))?;
            let key = key.trim();
            let like = schema_type(key, "--grid")?;
            let mut vals = Vec::new();
            for t in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                vals.push(parse_as(key, t, &like, "--grid")?.to_string());
            }
            g.push(key, vals, "--grid")?;
        }
        g.check("--grid")?;
        Ok(g)
    }

    /// From a sweep TOML's `[grid]` table (`"geometry.channels" = [4, 8]`).
    pub fn from_table(t: &toml::Table, zip: bool, origin: &str) -> Result<Self, InputError> {
        let mut g = Grid {
            keys: Vec::new(),
            values: Vec::new(),
            zip,
        };
        for (key, list) in t {
            let like = schema_type(key, origin)?;
            let Value::Array(items) = list else {
                return Err(InputError::file(
                    origin,
                    format!("grid `{key}` must be a list of values"),
                ));
            };
            let mut vals = Vec::new();
            for v in items {
                vals.push(check_type(key, v, &like, origin)?.to_string());
            }
            g.push(key, vals, origin)?;
        }
        g.check(origin)?;
        Ok(g)
    }

    fn push(&mut self, key: &str, vals: Vec<String>, origin: &str) -> Result<(), InputError> {
        if vals.is_empty() {
            return Err(InputError::file(
                origin,
                format!("grid `{key}` has an empty list of values"),
            ));
        }
        if self.keys.iter().any(|k| k == key) {
            return Err(InputError::file(
                origin,
                format!("grid `{key}` is given twice"),
            ));
        }
        self.keys.push(key.to_string());
        self.values.push(vals);
        Ok(())
    }

    fn check(&self, origin: &str) -> Result<(), InputError> {
        if self.keys.is_empty() {
            return Err(InputError::file(
                origin,
                "the grid has no keys (give --grid KEY=V1,V2)",
            ));
        }
        if self.zip {
            let n = self.values[0].len();
            if let Some(i) = self.values.iter().position(|v| v.len() != n) {
                return Err(InputError::file(
                    origin,
                    format!(
                        "--zip pairs lists of one length: `{}` has {n} values, `{}` has {}",
                        self.keys[0],
                        self.keys[i],
                        self.values[i].len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every point, numbered from 0; in a product the last key varies fastest.
    pub fn points(&self) -> Vec<Point> {
        let count = if self.zip {
            self.values[0].len()
        } else {
            self.values.iter().map(Vec::len).product()
        };
        (0..count)
            .map(|index| {
                let mut rest = index;
                let mut set = vec![(String::new(), String::new()); self.keys.len()];
                for (i, vals) in self.values.iter().enumerate().rev() {
                    let pick = if self.zip {
                        index
                    } else {
                        let p = rest % vals.len();
                        rest /= vals.len();
                        p
                    };
                    set[i] = (self.keys[i].clone(), vals[pick].clone());
                }
                Point { index, set }
            })
            .collect()
    }
}

/// `--shard I/N`: the points whose index is I modulo N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
        let index: usize = i.trim().parse().map_err(|_| "I must be a whole number")?;
        let count: usize = n.trim().parse().map_err(|_| "N must be a whole number")?;
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: need 0 <= I < N"));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    pub fn contains(&self, p: &Point) -> bool {
        p.index % self.count == self.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn product_numbers_last_key_fastest() {
        let g = Grid::from_args(
            &args(&["geometry.channels=4,8", "onfi.transfer_mts=400,800,1200"]),
            false,
        )
        .unwrap();
        let p = g.points();
        assert_eq!(p.len(), 6);
        assert_eq!(p[0].label(), "geometry.channels=4 onfi.transfer_mts=400");
        assert_eq!(p[1].label(), "geometry.channels=4 onfi.transfer_mts=800");
        assert_eq!(p[3].label(), "geometry.channels=8 onfi.transfer_mts=400");
        assert_eq!(p[5].index, 5);
    }

    #[test]
    fn zip_pairs_lists() {
        let g = Grid::from_args(
            &args(&["geometry.channels=4,8", "controller.dram_mb=256,512"]),
            true,
        )
        .unwrap();
        let p = g.points();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].label(), "geometry.channels=8 controller.dram_mb=512");
        let e = Grid::from_args(
            &args(&["geometry.channels=4,8", "controller.dram_mb=256"]),
            true,
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("has 2 values") && e.to_string().contains("has 1"),
            "{e}"
        );
    }

    #[test]
    fn bad_grids_name_the_key() {
        let e = Grid::from_args(&args(&["geometry.chanels=4,8"]), false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("geometry.chanels") && e.contains("geometry.channels"),
            "{e}"
        );
        let e = Grid::from_args(&args(&["geometry.channels="]), false)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "--grid: grid `geometry.channels` has an empty list of values"
        );
        let e = Grid::from_args(&args(&["geometry.channels=4,x"]), false)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "--grid: `geometry.channels` expects an integer, got `x`");
    }

    #[test]
    fn point_seed_depends_on_assignments_only() {
        let a = Grid::from_args(&args(&["geometry.channels=4,8"]), false)
            .unwrap()
            .points();
        let b = Grid::from_args(&args(&["geometry.channels=8,4"]), false)
            .unwrap()
            .points();
        assert_eq!(a[0].seed(1), b[1].seed(1));
        assert_ne!(a[0].seed(1), a[1].seed(1));
        assert_ne!(a[0].seed(1), a[0].seed(2));
    }

    #[test]
    fn shards_partition_the_points() {
        let g = Grid::from_args(
            &args(&["geometry.channels=1,2,4,8", "geometry.ways_per_channel=1,2"]),
            false,
        )
        .unwrap();
        let all = g.points();
        let mut seen: Vec<usize> = Vec::new();
        for i in 0..3 {
            let s: Shard = format!("{i}/3").parse().unwrap();
            seen.extend(all.iter().filter(|p| s.contains(p)).map(|p| p.index));
        }
        seen.sort();
        assert_eq!(seen, (0..8).collect::<Vec<_>>());
        assert!("3/3".parse::<Shard>().is_err() && "1".parse::<Shard>().is_err());
    }
}
