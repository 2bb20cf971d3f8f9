//! `ssdlab presets show`: a resolved config as TOML. Lines of the root preset or file keep
//! their source comments while their key is unchanged; a key given by a file, `--set` or
//! derived is written with its value and `# from FILE` / `# set by --set` / `# derived from
//! ...` in place of the comment it inherited (and that comment's continuation lines); keys the
//! root left to their defaults are written out with `# [default]`.

use super::keys::{get_dotted, leaves_of};
use super::{config_hash, ResolvedDrive};
use std::collections::BTreeSet;
use std::fmt::Write;
use toml::Value;

fn key_of(line: &str) -> Option<&str> {
    let l = line.trim_start();
    if l.starts_with('#') || l.starts_with('[') {
        return None;
    }
    let (k, _) = l.split_once('=')?;
    Some(k.trim())
}

fn section_of(line: &str) -> Option<String> {
    let l = line.trim();
    let l = l.split('#').next()?.trim();
    (l.starts_with('[') && l.ends_with(']')).then(|| l.trim_matches(['[', ']']).trim().to_string())
}

fn dotted(section: &str, key: &str) -> String {
    if section.is_empty() {
        key.to_string()
    } else {
        format!("{section}.{key}")
    }
}

fn parent(key: &str) -> &str {
    key.rsplit_once('.').map_or("", |(p, _)| p)
}

fn assignment(key: &str, v: &Value, note: &str) -> String {
    let last = key.rsplit('.').next().unwrap_or(key);
    let text = format!("{last} = {v}");
    format!("{text:<28} # {note}")
}

/// Keys of `section` not yet written, with their marks or `[default]`.
fn missing_in(
    section: &str,
    leaves: &[(String, Value)],
    written: &mut BTreeSet<String>,
    r: &ResolvedDrive,
    out: &mut String,
) {
    for (k, v) in leaves.iter().filter(|(k, _)| parent(k) == section) {
        if written.insert(k.clone()) {
            let note = r.marks.get(k).map_or("[default]", String::as_str);
            let _ = writeln!(out, "{}", assignment(k, v, note));
        }
    }
}

/// The resolved TOML of `r`; `command` is echoed in the header.
pub fn render(r: &ResolvedDrive, command: &str) -> String {
    let value = Value::try_from(&r.cfg).expect("configs serialize");
    let leaves = leaves_of(&value);
    let mut out = String::new();
    let _ = writeln!(out, "# {command}");
    let _ = writeln!(out, "# resolved config {}", config_hash(&r.cfg));
    let mut written = BTreeSet::new();
    let mut section = String::new();
    let mut skipping_continuation = false;
    // Blank lines are held back so that a section's missing keys go before them.
    let mut blanks = 0;
    for line in r.root_text.lines() {
        if line.trim().is_empty() {
            blanks += 1;
            continue;
        }
        if let Some(s) = section_of(line) {
            missing_in(&section, &leaves, &mut written, r, &mut out);
            section = s;
            skipping_continuation = false;
        }
        out.push_str(&"\n".repeat(blanks));
        blanks = 0;
        if section_of(line).is_some() {
            let _ = writeln!(out, "{line}");
            continue;
        }
        let Some(k) = key_of(line) else {
            // A comment line indented under a changed key continues that key's comment.
            let continuation = line.starts_with(' ') && line.trim_start().starts_with('#');
            if !(skipping_continuation && continuation) {
                skipping_continuation = false;
                let _ = writeln!(out, "{line}");
            }
            continue;
        };
        let key = dotted(&section, k);
        skipping_continuation = false;
        match (r.marks.get(&key), get_dotted(&value, &key)) {
            (Some(mark), Some(v)) => {
                let _ = writeln!(out, "{}", assignment(&key, v, mark));
                skipping_continuation = true;
            }
            _ => {
                let _ = writeln!(out, "{line}");
            }
        }
        written.insert(key);
    }
    missing_in(&section, &leaves, &mut written, r, &mut out);
    // Whole sections the root did not have.
    let mut sections: Vec<&str> = leaves
        .iter()
        .filter(|(k, _)| !written.contains(k))
        .map(|(k, _)| parent(k))
        .collect();
    sections.dedup();
    for s in sections {
        let _ = writeln!(out, "\n[{s}]");
        missing_in(s, &leaves, &mut written, r, &mut out);
    }
    out
}
