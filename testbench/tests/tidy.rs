//! Tidy checks of the tree, as rust-analyzer's: docs, presets and comments are manuals of what
//! is true now, and the history stays in git. Fails on run-log wording (numbered findings,
//! sessions, helpers, rounds of fitting, commit hashes, dates and clock times of runs, load
//! averages, who checked what) and on links to Markdown files that do not exist.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Files under `dir` (recursively) whose name ends with one of `exts`, skipping `target/` and
/// this file (which names what it looks for).
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                files(&p, exts, out);
            }
        } else if exts.iter().any(|x| name.ends_with(x)) && !p.ends_with("tests/tidy.rs") {
            out.push(p);
        }
    }
}

/// The text the checks read: a source file's comments, a TOML file's comments, a whole
/// Markdown or shell file.
fn checked_text(path: &Path, text: &str) -> Vec<(usize, String)> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let part = match ext {
                "rs" => l.find("//").map(|at| &l[at..]),
                "toml" | "sh" | "py" | "" => l.find('#').map(|at| &l[at..]),
                _ => Some(l),
            };
            part.map(|p| (i + 1, p.to_string()))
        })
        .collect()
}

/// What a run log says and a manual does not; `None` when `line` is clean.
fn run_log_wording(line: &str) -> Option<&'static str> {
    let l = line.to_ascii_lowercase();
    let words: Vec<&str> = l
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        if matches!(*w, "finding" | "findings")
            && next.chars().all(|c| c.is_ascii_digit())
            && !next.is_empty()
        {
            return Some("a numbered finding");
        }
        if matches!(*w, "session" | "sessions" | "session's") {
            return Some("a work session");
        }
        if matches!(*w, "helper's" | "helpers'" | "lead's") {
            return Some("who ran what");
        }
        if *w == "round" && next == "of" && words.get(i + 2) == Some(&"fitting") {
            return Some("a round of fitting");
        }
        if matches!(*w, "was" | "were") && next == "fitted" {
            return Some("a fitting history");
        }
        if *w == "load" && next == "average" {
            return Some("a load average of a run");
        }
        if is_commit_hash(w) {
            return Some("a commit hash");
        }
    }
    if has_project_date(&l) {
        return Some("a date of a run");
    }
    if l.contains(" utc") && l.chars().filter(|c| *c == ':').count() >= 1 && has_clock_time(&l) {
        return Some("a clock time of a run");
    }
    None
}

/// 7 to 40 hex digits with both a digit and a letter: how git abbreviates a commit. A number
/// with an exponent or a byte unit (`8447e19`, `5242880b`) is a figure, not a hash.
fn is_commit_hash(w: &str) -> bool {
    let figure = w
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .strip_suffix('e')
        .or_else(|| w.strip_suffix('b'))
        .is_some_and(|m| !m.is_empty() && m.chars().all(|c| c.is_ascii_digit()));
    !figure
        && (7..=40).contains(&w.len())
        && w.chars().all(|c| c.is_ascii_hexdigit())
        && w.chars().any(|c| c.is_ascii_digit())
        && w.chars().any(|c| c.is_ascii_alphabetic())
}

/// An ISO date from 2024 on: the project's runs (the sources it cites are older).
fn has_project_date(l: &str) -> bool {
    let b = l.as_bytes();
    (0..b.len().saturating_sub(9)).any(|i| {
        let d = |k: usize| b[i + k].is_ascii_digit();
        b[i] == b'2'
            && b[i + 1] == b'0'
            && d(2)
            && d(3)
            && b[i + 4] == b'-'
            && d(5)
            && d(6)
            && b[i + 7] == b'-'
            && (b[i + 2] - b'0') * 10 + (b[i + 3] - b'0') >= 24
    })
}

fn has_clock_time(l: &str) -> bool {
    let b = l.as_bytes();
    (0..b.len().saturating_sub(4)).any(|i| {
        b[i].is_ascii_digit()
            && b[i + 1].is_ascii_digit()
            && b[i + 2] == b':'
            && b[i + 3].is_ascii_digit()
    })
}

/// `NAME.md` words of `line` (upper-case file names, as the tree's top-level docs are).
fn md_links(line: &str) -> Vec<String> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || "_-./".contains(c)))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| w.ends_with(".md") && w.len() > 3)
        .map(|w| w.trim_start_matches("./").to_string())
        .collect()
}

#[test]
fn no_run_log_wording_in_docs_presets_and_comments() {
    let root = root();
    let mut paths = Vec::new();
    // constraints/ is left out: its headers cite third-party pin sources at their commits.
    for dir in [
        "model",
        "hdl",
        "testbench",
        "presets",
        "calibration",
        "docs",
        "scripts",
    ] {
        files(
            &root.join(dir),
            &[".rs", ".toml", ".md", ".sh", ".py"],
            &mut paths,
        );
    }
    for f in ["README.md", "ARCHITECTURE.md", "Makefile", "Cargo.toml"] {
        paths.push(root.join(f));
    }
    let mut bad = Vec::new();
    for p in &paths {
        let text = std::fs::read_to_string(p).unwrap();
        for (n, line) in checked_text(p, &text) {
            if let Some(why) = run_log_wording(&line) {
                let rel = p.strip_prefix(&root).unwrap_or(p).display();
                bad.push(format!("{rel}:{n}: {why}: {}", line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "history belongs in git, not in the tree:\n{}",
        bad.join("\n")
    );
}

#[test]
fn markdown_files_named_in_the_tree_exist() {
    let root = root();
    let mut paths = Vec::new();
    for dir in ["model", "hdl", "testbench", "presets", "docs", "scripts"] {
        files(&root.join(dir), &[".rs", ".toml", ".md", ".sh"], &mut paths);
    }
    paths.extend(["README.md", "ARCHITECTURE.md", "Makefile"].map(|f| root.join(f)));
    let mut bad = Vec::new();
    for p in &paths {
        let text = std::fs::read_to_string(p).unwrap();
        for (n, line) in text.lines().enumerate() {
            for m in md_links(line) {
                // Files the build writes (`make bench` → `$(OUT)/bench.md`) are not in the tree.
                let out = format!("$(OUT)/{}", m.trim_start_matches('/'));
                if m.starts_with("out/") || line.contains(&out) {
                    continue;
                }
                let here = p.parent().unwrap().join(&m);
                let found = [root.join(&m), root.join("docs").join(&m), here]
                    .iter()
                    .any(|c| c.exists());
                if !found {
                    bad.push(format!(
                        "{}:{}: {m}",
                        p.strip_prefix(&root).unwrap().display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "links to Markdown files that do not exist:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checks_catch_what_they_name() {
    for (line, caught) in [
        ("CALIBRATION finding 14: the cycle", true),
        ("the eighth session's make run", true),
        ("with five helpers' builds", true),
        ("a fresh clone of 0aad597 after its make test", true),
        ("Measured 2026-11-30 09:28-09:40 UTC", true),
        ("at load average ~13", true),
        ("1600 was fitted with whole-victim GC", true),
        ("SSDFans measured the board in 2018-03-26", false),
        ("tag 0x1f, the 4096 B page, 16 KiB", false),
        ("[fitted: 45-90] tR by page type", false),
        ("below u64::MAX = 1.8447e19 ps", false),
        ("rate_min=5242880B/s not met", false),
        ("merged at 5caae89e", true),
    ] {
        assert_eq!(run_log_wording(line).is_some(), caught, "{line}");
    }
    assert_eq!(
        md_links("see docs/fio.md and CONTRACTS.md."),
        ["docs/fio.md", "CONTRACTS.md"]
    );
}
