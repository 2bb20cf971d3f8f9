//! The config schema as a tree of dotted keys, taken from a serialized default drive (so the key
//! list follows `DriveConfig`'s serde definitions, renames and all), and `KEY=VALUE` overrides
//! parsed by the type the schema gives each key.

use crate::error::InputError;
use ssdlab_model::DriveConfig;
use toml::Value;

/// Every leaf key of the schema with its default value (the built-in preset's), in schema order.
pub fn schema_leaves() -> Vec<(String, Value)> {
    let v = Value::try_from(DriveConfig::default_drive()).expect("the default config serializes");
    let mut out = Vec::new();
    walk(&v, "", &mut out);
    out
}

fn walk(v: &Value, prefix: &str, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Table(t) => {
            for (k, child) in t {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                walk(child, &key, out);
            }
        }
        leaf => out.push((prefix.to_string(), leaf.clone())),
    }
}

/// The leaf keys of any TOML table, dotted, in table order.
pub fn leaves_of(v: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    walk(v, "", &mut out);
    out
}

/// Levenshtein distance (for "did you mean").
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// Up to three schema keys close to `key`: same last segment anywhere, or a small edit distance
/// on the whole key or on its last segment.
pub fn close_matches(key: &str, leaves: &[(String, Value)]) -> Vec<String> {
    let last = key.rsplit('.').next().unwrap_or(key);
    let mut scored: Vec<(usize, &str)> = leaves
        .iter()
        .map(|(k, _)| {
            let k_last = k.rsplit('.').next().unwrap_or(k);
            let d = distance(key, k).min(distance(last, k_last) + 1);
            (d, k.as_str())
        })
        .filter(|(d, _)| *d <= 3.max(last.len() / 3))
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(3)
        .map(|(_, k)| k.to_string())
        .collect()
}

/// The error for a key that is not in the schema.
pub fn unknown_key(origin: &str, key: &str, leaves: &[(String, Value)]) -> InputError {
    let near = close_matches(key, leaves);
    let hint = if near.is_empty() {
        "see `ssdlab presets show sm2262-512g` for every key".to_string()
    } else {
        format!("did you mean {}?", near.join(", "))
    };
    InputError::file(origin, format!("unknown config key `{key}`; {hint}"))
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a number",
        Value::Boolean(_) => "true or false",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Table(_) => "a table",
        Value::Datetime(_) => "a date",
    }
}

/// Parses `text` as a value of the same type as `like` (the schema's default for the key).
pub fn parse_as(key: &str, text: &str, like: &Value, origin: &str) -> Result<Value, InputError> {
    let t = text.trim();
    let bad = || {
        InputError::file(
            origin,
            format!("`{key}` expects {}, got `{t}`", type_name(like)),
        )
    };
    Ok(match like {
        Value::Integer(_) => Value::Integer(t.replace('_', "").parse().map_err(|_| bad())?),
        Value::Float(_) => {
            let f: f64 = t.replace('_', "").parse().map_err(|_| bad())?;
            if !f.is_finite() {
                return Err(bad());
            }
            Value::Float(f)
        }
        Value::Boolean(_) => match t {
            "true" | "on" | "yes" => Value::Boolean(true),
            "false" | "off" | "no" => Value::Boolean(false),
            _ => return Err(bad()),
        },
        Value::String(_) => Value::String(t.trim_matches('"').to_string()),
        _ => return Err(bad()),
    })
}

/// Checks that a value given in a file has the schema's type (an integer is accepted where a
/// number is expected, as TOML readers do).
pub fn check_type(key: &str, v: &Value, like: &Value, origin: &str) -> Result<Value, InputError> {
    match (like, v) {
        (Value::Float(_), Value::Integer(i)) => Ok(Value::Float(*i as f64)),
        (a, b) if std::mem::discriminant(a) == std::mem::discriminant(b) => Ok(v.clone()),
        _ => Err(InputError::file(
            origin,
            format!("`{key}` expects {}, got {}", type_name(like), type_name(v)),
        )),
    }
}

/// Sets dotted `key` in `root` (a table), creating tables on the way.
pub fn set_dotted(root: &mut Value, key: &str, v: Value) {
    let mut cur = root;
    let parts: Vec<&str> = key.split('.').collect();
    for p in &parts[..parts.len() - 1] {
        let t = cur.as_table_mut().expect("schema keys run through tables");
        cur = t
            .entry(p.to_string())
            .or_insert_with(|| Value::Table(Default::default()));
    }
    cur.as_table_mut()
        .expect("schema keys run through tables")
        .insert(parts[parts.len() - 1].to_string(), v);
}

/// The value at dotted `key`, if present.
pub fn get_dotted<'a>(root: &'a Value, key: &str) -> Option<&'a Value> {
    key.split('.').try_fold(root, |cur, p| cur.get(p))
}

/// Splits a `KEY=VALUE` override.
pub fn split_assignment(s: &str) -> Result<(&str, &str), InputError> {
    s.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| InputError::file("--set", format!("`{s}` is not KEY=VALUE")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_has_nested_keys() {
        let l = schema_leaves();
        let keys: Vec<&str> = l.iter().map(|(k, _)| k.as_str()).collect();
        assert!(keys.contains(&"geometry.channels"));
        assert!(keys.contains(&"ftl.slc_cache.dynamic_fraction"));
        assert!(
            keys.contains(&"onfi.t_rcbsy_us"),
            "serde defaults are in the tree"
        );
    }

    #[test]
    fn misspelt_key_finds_the_real_one() {
        let l = schema_leaves();
        assert_eq!(
            close_matches("geometry.chanels", &l)[0],
            "geometry.channels"
        );
        // Right name, wrong table.
        assert!(close_matches("nand.transfer_mts", &l).contains(&"onfi.transfer_mts".into()));
    }

    #[test]
    fn values_parse_by_type() {
        let i = Value::Integer(0);
        assert_eq!(parse_as("k", "4", &i, "--set").unwrap(), Value::Integer(4));
        let e = parse_as("geometry.channels", "four", &i, "--set").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--set: `geometry.channels` expects an integer, got `four`"
        );
        let f = Value::Float(0.0);
        assert_eq!(parse_as("k", "1", &f, "--set").unwrap(), Value::Float(1.0));
        assert!(parse_as("k", "nan", &f, "--set").is_err());
        let b = Value::Boolean(true);
        assert_eq!(
            parse_as("k", "off", &b, "--set").unwrap(),
            Value::Boolean(false)
        );
    }

    #[test]
    fn distance_is_levenshtein() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("same", "same"), 0);
    }
}
