//! fio job files: the INI layer ([`ini`]), value syntax ([`value`]), job semantics ([`job`]) and
//! the parser that applies options to jobs ([`parse`]).

pub mod batch;
pub mod bs;
pub mod distribution;
pub mod expand;
pub mod ini;
pub mod job;
pub mod latency;
pub mod logs;
pub mod options;
pub mod parse;
pub mod rate;
pub mod steady;
pub mod value;

pub use job::{JobSpec, RwMode, IGNORED_OPTIONS};
pub use parse::parse_job_file;
pub use value::SizeSpec;

use crate::error::InputError;

/// Decodes a job file's bytes. fio reads bytes, so a byte that is not UTF-8 (a Latin-1 `µ` in a
/// comment, say) is harmless where fio ignores it; it is replaced by U+FFFD here, and an option
/// line it makes invalid is reported with its line like any other bad value.
pub fn decode_job_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Reads and parses the job file at `path`; its warnings go to stderr.
pub fn read_job_file(path: &str) -> Result<Vec<JobSpec>, InputError> {
    let bytes = crate::input_file::read_bytes(std::path::Path::new(path), path)?;
    let jobs = parse_job_file(&decode_job_text(&bytes), path)?;
    for w in warnings(&jobs) {
        eprintln!("ssdlab: warning: {w}");
    }
    Ok(jobs)
}

/// The jobs' warnings, each once (a `[global]` option's warning is in every job), in order.
pub fn warnings(jobs: &[JobSpec]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in jobs.iter().flat_map(|j| &j.warnings) {
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_comment_is_accepted_and_a_latin1_value_names_its_line() {
        // 0xB5 is `µ` in Latin-1 and not valid UTF-8 on its own.
        let ok = decode_job_text(b"; thinktime in \xb5s\n[j]\nrw=read\n");
        assert_eq!(parse_job_file(&ok, "t.fio").unwrap().len(), 1);
        let raw: &[u8] = b"# caf\xe9\n[j]\nrw=read\n";
        assert_eq!(
            parse_job_file(&decode_job_text(raw), "t.fio").unwrap()[0].name,
            "j"
        );
        let bad: &[u8] = b"[j]\nrw=re\xffad\n";
        let e = parse_job_file(&decode_job_text(bad), "t.fio")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.fio:2: rw=re\u{fffd}ad is not supported"),
            "{e}"
        );
    }
}
