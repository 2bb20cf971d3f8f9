//! The INI layer of fio job files: `[section]` headers and `key=value` / bare `key` lines.
//!
//! Lines starting with `;` or `#` are comments, as are `;`/`#` tails preceded by whitespace.
//! fio's `include` directive and `${VAR}` / `$ncpus` expansion are not supported and are reported
//! as such, with their line, rather than silently taken literally.

use crate::error::InputError;

/// One `key[=value]` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniOption {
    pub key: String,
    pub value: Option<String>,
    pub line: usize,
}

/// One `[name]` section with its options in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniSection {
    pub name: String,
    pub line: usize,
    pub options: Vec<IniOption>,
}

/// Splits a job file into sections; `file` names it in errors.
pub fn parse_sections(text: &str, file: &str) -> Result<Vec<IniSection>, InputError> {
    let mut sections: Vec<IniSection> = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let l = strip_comment(raw).trim();
        if l.is_empty() {
            continue;
        }
        if let Some(rest) = l.strip_prefix('[') {
            let name = rest
                .strip_suffix(']')
                .ok_or_else(|| InputError::at(file, line, format!("section header `{l}` lacks a closing `]`")))?
                .trim();
            if name.is_empty() || name.contains(['[', ']']) {
                return Err(InputError::at(file, line, format!("bad section name in `{l}`")));
            }
            sections.push(IniSection { name: name.to_string(), line, options: Vec::new() });
            continue;
        }
        if l.starts_with("include ") || l == "include" {
            return Err(InputError::at(file, line, "`include` directives are not supported; inline the included job file"));
        }
        if l.contains('$') {
            return Err(InputError::at(file, line, "variable expansion (`$VAR`, `$ncpus`, ...) is not supported; write the value"));
        }
        let (key, value) = match l.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim().to_string())),
            None => (l, None),
        };
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(InputError::at(file, line, format!("`{l}` is not an option line (expected key=value)")));
        }
        let Some(section) = sections.last_mut() else {
            return Err(InputError::at(file, line, format!("option `{key}` appears before any [section]")));
        };
        section.options.push(IniOption { key: key.to_ascii_lowercase(), value, line });
    }
    Ok(sections)
}

fn strip_comment(raw: &str) -> &str {
    let t = raw.trim_start();
    if t.starts_with(';') || t.starts_with('#') {
        return "";
    }
    let bytes = raw.as_bytes();
    for i in 1..bytes.len() {
        if (bytes[i] == b';' || bytes[i] == b'#') && bytes[i - 1].is_ascii_whitespace() {
            return &raw[..i];
        }
    }
    raw
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_options_and_comments() {
        let text = "; top comment\n[global]\nbs=4k ; inline\n# c\ndirect=1\n[job1]\ntime_based\n";
        let s = parse_sections(text, "t.fio").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].name, "global");
        assert_eq!(s[0].options[0], IniOption { key: "bs".into(), value: Some("4k".into()), line: 3 });
        assert_eq!(s[0].options[1].line, 5);
        assert_eq!(s[1].options[0], IniOption { key: "time_based".into(), value: None, line: 7 });
    }

    #[test]
    fn errors_carry_lines() {
        let e = parse_sections("bs=4k\n", "t.fio").unwrap_err();
        assert_eq!(e.to_string(), "t.fio:1: option `bs` appears before any [section]");
        let e = parse_sections("[a\n", "t.fio").unwrap_err();
        assert!(e.to_string().starts_with("t.fio:1: "), "{e}");
        let e = parse_sections("[a]\nsize=$SIZE\n", "t.fio").unwrap_err();
        assert!(e.to_string().starts_with("t.fio:2: variable"), "{e}");
    }
}
