//! The INI layer of fio job files: `[section]` headers and `key=value` / bare `key` lines.
//!
//! Lines starting with `;` or `#` are comments, as are `;`/`#` tails preceded by whitespace.
//! `include FILE` inserts another job file at that point, as fio does (a relative path is taken
//! from the including file's directory; nesting is limited to 8 levels, so a cycle is an error);
//! every option and section remembers the file and line it came from. Option lines (not section
//! headers or `include`) go through fio's substitutions first (`expand.rs`: `${VAR}`, `$ncpus`,
//! `$mb_memory`, `$pagesize`).

use std::path::Path;

use super::expand::{expand_line, Machine, Vars};
use crate::error::InputError;

/// One `key[=value]` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniOption {
    pub key: String,
    pub value: Option<String>,
    /// File (the job file or an included one) and line the option is on.
    pub file: String,
    pub line: usize,
    /// `${NAME}` references on the line that were unset (fio substitutes nothing), named in an
    /// error about the option's value.
    pub unset: Vec<String>,
}

/// One `[name]` section with its options in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniSection {
    pub name: String,
    pub file: String,
    pub line: usize,
    pub options: Vec<IniOption>,
}

/// Splits a job file into sections; `file` names it in errors.
pub fn parse_sections(text: &str, file: &str) -> Result<Vec<IniSection>, InputError> {
    static HOST: std::sync::OnceLock<Machine> = std::sync::OnceLock::new();
    let env = |name: &str| std::env::var(name).ok();
    let vars = Vars {
        env: &env,
        machine: *HOST.get_or_init(Machine::this_host),
    };
    parse_sections_with(text, file, &vars)
}

/// [`parse_sections`] with the substitutions' sources given (tests pass a fixed environment).
pub fn parse_sections_with(
    text: &str,
    file: &str,
    vars: &Vars,
) -> Result<Vec<IniSection>, InputError> {
    let mut sections: Vec<IniSection> = Vec::new();
    parse_into(text, file, 0, vars, &mut sections)?;
    Ok(sections)
}

/// Deepest `include` nesting accepted.
const MAX_INCLUDE_DEPTH: usize = 8;

/// `include FILE` on line `line` of `file`: the included file's sections and options go on.
fn include(
    target: &str,
    file: &str,
    line: usize,
    depth: usize,
    vars: &Vars,
    sections: &mut Vec<IniSection>,
) -> Result<(), InputError> {
    if target.is_empty() {
        return Err(InputError::at(file, line, "`include` needs a file name"));
    }
    if depth >= MAX_INCLUDE_DEPTH {
        return Err(InputError::at(
            file,
            line,
            format!(
                "include {target}: nested more than {MAX_INCLUDE_DEPTH} deep (an include cycle?)"
            ),
        ));
    }
    let path = Path::new(file)
        .parent()
        .map_or_else(|| Path::new(target).to_path_buf(), |d| d.join(target));
    let shown = path.display().to_string();
    let bytes = crate::input_file::read_bytes(&path, &shown).map_err(|e| {
        InputError::at(
            file,
            line,
            format!("include {target}: {shown}: {}", e.reason()),
        )
    })?;
    parse_into(
        &super::decode_job_text(&bytes),
        &shown,
        depth + 1,
        vars,
        sections,
    )
}

fn parse_into(
    text: &str,
    file: &str,
    depth: usize,
    vars: &Vars,
    sections: &mut Vec<IniSection>,
) -> Result<(), InputError> {
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let l = strip_comment(raw).trim();
        if l.is_empty() {
            continue;
        }
        if let Some(rest) = l.strip_prefix('[') {
            let name = rest
                .strip_suffix(']')
                .ok_or_else(|| {
                    InputError::at(
                        file,
                        line,
                        format!("section header `{l}` lacks a closing `]`"),
                    )
                })?
                .trim();
            if name.is_empty() || name.contains(['[', ']']) {
                return Err(InputError::at(
                    file,
                    line,
                    format!("bad section name in `{l}`"),
                ));
            }
            sections.push(IniSection {
                name: name.to_string(),
                file: file.to_string(),
                line,
                options: Vec::new(),
            });
            continue;
        }
        if let Some(target) = l
            .strip_prefix("include")
            .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace))
        {
            include(target.trim(), file, line, depth, vars, sections)?;
            continue;
        }
        let expanded = expand_line(l, vars).map_err(|r| InputError::at(file, line, r))?;
        let l = expanded.text.trim();
        let (key, value) = match l.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim().to_string())),
            None => (l, None),
        };
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(InputError::at(
                file,
                line,
                format!("`{l}` is not an option line (expected key=value)"),
            ));
        }
        let Some(section) = sections.last_mut() else {
            return Err(InputError::at(
                file,
                line,
                format!("option `{key}` appears before any [section]"),
            ));
        };
        section.options.push(IniOption {
            key: key.to_ascii_lowercase(),
            value,
            file: file.to_string(),
            line,
            unset: expanded.unset,
        });
    }
    Ok(())
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
        assert_eq!(
            s[0].options[0],
            IniOption {
                key: "bs".into(),
                value: Some("4k".into()),
                file: "t.fio".into(),
                line: 3,
                unset: Vec::new(),
            }
        );
        assert_eq!(s[0].options[1].line, 5);
        assert_eq!(
            s[1].options[0],
            IniOption {
                key: "time_based".into(),
                value: None,
                file: "t.fio".into(),
                line: 7,
                unset: Vec::new(),
            }
        );
    }

    #[test]
    fn errors_carry_lines() {
        let e = parse_sections("bs=4k\n", "t.fio").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.fio:1: option `bs` appears before any [section]"
        );
        let e = parse_sections("[a\n", "t.fio").unwrap_err();
        assert!(e.to_string().starts_with("t.fio:1: "), "{e}");
        let e = parse_sections("[a]\nsize=$ncpus*x\n", "t.fio").unwrap_err();
        assert!(e.to_string().starts_with("t.fio:2: `"), "{e}");
    }
}

#[cfg(test)]
mod include_tests {
    use super::*;

    /// A scratch directory, removed when the returned guard drops.
    fn dir(tag: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("ssdlab-include-{tag}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn include_inserts_the_file_and_errors_name_it() {
        let tmp = dir("ok");
        let d = tmp.path();
        std::fs::write(
            d.join("common.fio"),
            "[global]\nbs=128k\n# line 3\nexec_prerun=ls\n",
        )
        .unwrap();
        let main = d.join("main.fio");
        let m = main.display().to_string();
        let s = parse_sections("include common.fio\n[j]\nrw=read\n", &m).unwrap();
        assert_eq!((s[0].name.as_str(), s[1].name.as_str()), ("global", "j"));
        let inc = d.join("common.fio").display().to_string();
        assert_eq!(
            (s[0].options[0].file.as_str(), s[0].options[0].line),
            (inc.as_str(), 2)
        );
        assert_eq!(
            (s[1].options[0].file.as_str(), s[1].options[0].line),
            (m.as_str(), 3)
        );
        // An unsupported option in the included file is reported at its own file and line.
        let e = crate::fio::parse_job_file("include common.fio\n[j]\n", &m)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!("{inc}:4: unsupported option `exec_prerun`")),
            "{e}"
        );
    }

    #[test]
    fn include_cycle_and_missing_file_are_errors() {
        let tmp = dir("cycle");
        let d = tmp.path();
        let a = d.join("a.fio");
        std::fs::write(&a, "include a.fio\n").unwrap();
        let e = parse_sections("include a.fio\n", &a.display().to_string())
            .unwrap_err()
            .to_string();
        assert!(e.contains("nested more than 8 deep"), "{e}");
        let e = parse_sections("[j]\ninclude nope.fio\n", "t.fio")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.fio:2: include nope.fio: nope.fio: cannot read: "),
            "{e}"
        );
    }
}
