//! `docs/config.md`'s key table is generated from the config structs' doc comments, so the
//! reference cannot drift from the code. Each field's `///` doc says what it models and ends with
//! `Unit: ... . Range: ... . Moves: ... .` (bool fields need no unit or range; enum fields give
//! their values as the range). The test fails when a key has no doc, unit or range, when the
//! parsed keys differ from the default preset's, or when the checked-in table is stale;
//! `UPDATE_EXPECT=1 cargo test -p ssdlab-model --test config_reference` rewrites it.

use ssdlab_model::config::DriveConfig;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const BEGIN: &str = "<!-- BEGIN GENERATED: config keys -->";
const END: &str = "<!-- END GENERATED: config keys -->";

/// One field of a config struct as written in the source.
struct Field {
    name: String,
    ty: String,
    doc: String,
    optional: bool,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Structs of `model/src/config/*.rs` by name, with their fields in source order.
fn parse_structs() -> BTreeMap<String, Vec<Field>> {
    let mut out = BTreeMap::new();
    let dir = root().join("model/src/config");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut current: Option<(String, Vec<Field>)> = None;
        let (mut doc, mut optional) = (Vec::<String>::new(), false);
        for line in text.lines() {
            let t = line.trim();
            if let Some(name) = t
                .strip_prefix("pub struct ")
                .and_then(|r| r.strip_suffix(" {"))
            {
                current = Some((name.to_string(), Vec::new()));
                doc.clear();
                continue;
            }
            let Some((_, fields)) = current.as_mut() else {
                continue;
            };
            if t == "}" {
                let (name, fields) = current.take().unwrap();
                out.insert(name, fields);
            } else if let Some(d) = t.strip_prefix("///") {
                doc.push(d.trim().to_string());
            } else if t.starts_with("#[serde(") {
                optional |= t.contains("default");
            } else if let Some(rest) = t.strip_prefix("pub ") {
                let (name, ty) = rest.trim_end_matches(',').split_once(": ").unwrap();
                fields.push(Field {
                    name: name.to_string(),
                    ty: ty.to_string(),
                    doc: doc.join(" "),
                    optional,
                });
                doc.clear();
                optional = false;
            }
        }
    }
    out
}

/// The text after `tag` up to the first `.` that ends a sentence, and the doc without it.
fn take_tag(doc: &str, tag: &str) -> (Option<String>, String) {
    let Some(at) = doc.find(tag) else {
        return (None, doc.to_string());
    };
    let rest = &doc[at + tag.len()..];
    let end = rest
        .char_indices()
        .find(|&(i, c)| c == '.' && rest[i + 1..].chars().next().is_none_or(|n| n == ' '))
        .map_or(rest.len(), |(i, _)| i);
    let value = rest[..end].trim().to_string();
    let after = rest.get(end + 1..).unwrap_or("");
    let rest: Vec<&str> = doc[..at]
        .split_whitespace()
        .chain(after.split_whitespace())
        .collect();
    (Some(value), rest.join(" "))
}

/// A row of the table: key, unit, range, default preset value, optional, description, moves.
struct Row([String; 7]);

fn rows(
    structs: &BTreeMap<String, Vec<Field>>,
    ty: &str,
    prefix: &str,
    dflt: &toml::Value,
    // Inside an optional section (`#[serde(default)]` on it): every key is optional.
    in_optional: bool,
    out: &mut Vec<Row>,
    problems: &mut Vec<String>,
) {
    for f in &structs[ty] {
        let key = format!("{prefix}{}", f.name);
        if structs.contains_key(&f.ty) {
            // An optional section left at its defaults may be absent from the serialization
            // (`onfi.pins`): its keys show "(absent)", like other omitted optional keys.
            let empty = toml::Value::Table(Default::default());
            rows(
                structs,
                &f.ty,
                &format!("{key}."),
                dflt.get(f.name.as_str()).unwrap_or(&empty),
                in_optional || f.optional,
                out,
                problems,
            );
            continue;
        }
        let (unit, doc) = take_tag(&f.doc, "Unit:");
        let (range, doc) = take_tag(&doc, "Range:");
        let (moves, doc) = take_tag(&doc, "Moves:");
        // A flag needs no unit or range; an enum's range is its values and it has no unit.
        let (unit, range) = match f.ty.as_str() {
            "bool" => (
                unit.or(Some("flag".into())),
                range.or(Some("true, false".into())),
            ),
            "u32" | "u64" | "f64" | "String" => (unit, range),
            _ => (unit.or(Some(String::new())), range),
        };
        for (what, v) in [
            ("doc", Some(doc.clone()).filter(|d| !d.is_empty())),
            ("Unit:", unit.clone()),
            ("Range:", range.clone()),
        ] {
            if v.is_none() {
                problems.push(format!("{key}: no {what} in its /// comment"));
            }
        }
        let value = dflt
            .get(f.name.as_str())
            .map_or("(absent)".to_string(), |v| match v {
                toml::Value::String(s) => format!("\"{s}\""),
                v => v.to_string(),
            });
        let cell = |s: Option<String>| s.unwrap_or_default().replace('|', "\\|");
        out.push(Row([
            format!("`{key}`"),
            cell(unit),
            cell(range),
            format!("`{value}`"),
            if f.optional || in_optional {
                "yes".into()
            } else {
                "no".into()
            },
            cell(Some(doc)),
            cell(moves),
        ]));
    }
}

fn leaf_keys(v: &toml::Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                leaf_keys(v, &format!("{prefix}{k}."), out);
            }
        }
        _ => out.push(prefix.trim_end_matches('.').to_string()),
    }
}

fn generated_table() -> String {
    let structs = parse_structs();
    let dflt = toml::Value::try_from(DriveConfig::default_drive()).unwrap();
    let (mut out, mut problems) = (Vec::new(), Vec::new());
    rows(
        &structs,
        "DriveConfig",
        "",
        &dflt,
        false,
        &mut out,
        &mut problems,
    );
    assert!(
        problems.is_empty(),
        "config keys without a complete doc:\n{}",
        problems.join("\n")
    );
    // Keys of a section absent from the default serialization are not among its keys.
    let mut parsed: Vec<String> = out
        .iter()
        .filter(|r| r.0[3] != "`(absent)`")
        .map(|r| r.0[0].trim_matches('`').to_string())
        .collect();
    let mut serialized = Vec::new();
    leaf_keys(&dflt, "", &mut serialized);
    parsed.sort();
    serialized.sort();
    assert_eq!(
        parsed, serialized,
        "keys parsed from the source differ from the config's keys"
    );
    let mut t = String::from(
        "| key | unit | valid range | sm2262-512g | optional | what it models | moves |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in out {
        t.push_str(&format!("| {} |\n", r.0.join(" | ")));
    }
    t
}

#[test]
fn config_reference_is_complete_and_current() {
    let path = root().join("docs/config.md");
    let text = std::fs::read_to_string(&path).expect("docs/config.md");
    let (a, b) = (
        text.find(BEGIN).expect("BEGIN marker"),
        text.find(END).expect("END marker"),
    );
    let want = format!("{BEGIN}\n{}{END}", generated_table());
    let have = &text[a..b + END.len()];
    if have != want {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&path, text.replace(have, &want)).unwrap();
        } else {
            panic!("docs/config.md is stale: run UPDATE_EXPECT=1 cargo test -p ssdlab-model --test config_reference");
        }
    }
}

#[test]
fn tags_are_taken_up_to_the_sentence_end() {
    let (v, rest) = take_tag("A. Unit: MT/s. Range: 0..=1e6. Moves: reads.", "Range:");
    assert_eq!(v.as_deref(), Some("0..=1e6"));
    assert_eq!(rest, "A. Unit: MT/s. Moves: reads.");
    let (v, rest) = take_tag("Queue reach. Range: 0..=ftl.read_ahead_kib.", "Range:");
    assert_eq!(v.as_deref(), Some("0..=ftl.read_ahead_kib"));
    assert_eq!(rest, "Queue reach.");
    assert_eq!(take_tag("No tag here.", "Unit:").0, None);
}
