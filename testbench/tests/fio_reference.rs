//! `docs/fio.md`'s option table is generated from the parser's option lists
//! (`fio::options::{SUPPORTED_OPTIONS, REFUSED_OPTIONS}`, `fio::IGNORED_OPTIONS`), and the lists
//! are checked against the parser: a supported or ignored option parses, a refused one is an
//! error naming it. `UPDATE_EXPECT=1 cargo test -p ssdlab-testbench --test fio_reference`
//! rewrites the table.

use ssdlab_testbench::fio::options::{REFUSED_OPTIONS, SUPPORTED_OPTIONS};
use ssdlab_testbench::fio::{parse_job_file, IGNORED_OPTIONS};
use std::path::Path;

const BEGIN: &str = "<!-- BEGIN GENERATED: fio options -->";
const END: &str = "<!-- END GENERATED: fio options -->";

fn job_with(line: &str) -> Result<(), String> {
    // `runtime` keeps `time_based` valid; every other option is independent of it.
    parse_job_file(&format!("[j]\nrw=read\nruntime=1\n{line}\n"), "t.fio")
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn supported_and_ignored_options_parse_and_refused_ones_are_named() {
    for o in SUPPORTED_OPTIONS {
        for name in o.names {
            let line = if o.example.is_empty() {
                name.to_string()
            } else {
                format!("{name}={}", o.example)
            };
            job_with(&line).unwrap_or_else(|e| panic!("`{line}`: {e}"));
        }
    }
    for name in IGNORED_OPTIONS {
        job_with(&format!("{name}=1")).unwrap_or_else(|e| panic!("`{name}`: {e}"));
    }
    for (name, _) in REFUSED_OPTIONS {
        let e = job_with(&format!("{name}=1")).unwrap_err();
        assert!(
            e.contains(&format!("t.fio:4: unsupported option `{name}`")),
            "{e}"
        );
    }
}

fn table() -> String {
    let mut t = String::from("| option | status | meaning here |\n|---|---|---|\n");
    for o in SUPPORTED_OPTIONS {
        let names: Vec<String> = o.names.iter().map(|n| format!("`{n}`")).collect();
        t.push_str(&format!(
            "| {} | supported | {} |\n",
            names.join(", "),
            o.meaning
        ));
    }
    for name in IGNORED_OPTIONS {
        t.push_str(&format!(
            "| `{name}` | accepted, ignored | host-side; no effect on the device |\n"
        ));
    }
    for (name, why) in REFUSED_OPTIONS {
        t.push_str(&format!("| `{name}` | refused | {why} |\n"));
    }
    t
}

#[test]
fn fio_reference_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/fio.md");
    let text = std::fs::read_to_string(&path).expect("docs/fio.md");
    let (a, b) = (
        text.find(BEGIN).expect("BEGIN marker"),
        text.find(END).expect("END marker"),
    );
    let want = format!("{BEGIN}\n{}{END}", table());
    let have = &text[a..b + END.len()];
    if have != want {
        assert!(
            std::env::var_os("UPDATE_EXPECT").is_some(),
            "docs/fio.md is stale: run UPDATE_EXPECT=1 cargo test -p ssdlab-testbench --test fio_reference"
        );
        std::fs::write(&path, text.replace(have, &want)).unwrap();
    }
}
