//! Reading user input files (job files, drive configs, protocols, traces) safely: only regular
//! files are opened (a FIFO would block `open` forever, `/dev/zero` never ends), their size is
//! capped, and a UTF-8 byte-order mark at the start of a text file is dropped (editors on Windows
//! write one; fio and TOML parsers would otherwise see it as part of the first line).

use crate::error::InputError;
use std::path::Path;

/// Largest job file, drive config or protocol file read (bytes). Real ones are a few KiB.
pub const MAX_TEXT_BYTES: u64 = 16 << 20;
/// Largest trace file read (bytes): a day of an MSR Cambridge volume is a few hundred MiB.
pub const MAX_TRACE_BYTES: u64 = 16 << 30;

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Checks that `path` is a regular file of at most `cap` bytes, without opening it (stat does
/// not block on a FIFO). `shown` names the file in errors.
pub fn check_regular(path: &Path, shown: &str, cap: u64) -> Result<(), InputError> {
    let meta = std::fs::metadata(path).map_err(|e| InputError::io(shown, &e))?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        return Err(InputError::file(
            shown,
            format!("cannot read: {what}; give a regular file"),
        ));
    }
    if meta.len() > cap {
        return Err(InputError::file(
            shown,
            format!("cannot read: {} bytes, over the limit of {cap}", meta.len()),
        ));
    }
    Ok(())
}

/// The bytes of the regular file at `path` (at most [`MAX_TEXT_BYTES`]), without a leading BOM.
pub fn read_bytes(path: &Path, shown: &str) -> Result<Vec<u8>, InputError> {
    check_regular(path, shown, MAX_TEXT_BYTES)?;
    let mut bytes = std::fs::read(path).map_err(|e| InputError::io(shown, &e))?;
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    Ok(bytes)
}

/// The text of the regular file at `path`, which must be UTF-8 (a leading BOM is dropped).
pub fn read_text(path: &Path, shown: &str) -> Result<String, InputError> {
    let bytes = read_bytes(path, shown)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        InputError::at(shown, line, "not UTF-8 text")
    })
}

/// Drops a leading BOM from text already read (a trace's first line).
pub fn strip_bom(line: &str) -> &str {
    line.strip_prefix('\u{feff}').unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` in a file `name` of `dir`; its path.
    fn temp(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn bom_is_dropped_and_bad_utf8_names_its_line() {
        let dir = tempfile::Builder::new()
            .prefix("ssdlab-input-")
            .tempdir()
            .unwrap();
        let p = temp(&dir, "bom.txt", b"\xEF\xBB\xBF[j]\n");
        assert_eq!(read_text(&p, "bom.txt").unwrap(), "[j]\n");
        let p = temp(&dir, "latin1.txt", b"a\nb\n\xB5\n");
        assert_eq!(
            read_text(&p, "latin1.txt").unwrap_err().to_string(),
            "latin1.txt:3: not UTF-8 text"
        );
    }

    #[test]
    fn devices_and_directories_are_refused_without_reading() {
        let e = read_bytes(Path::new("/dev/zero"), "/dev/zero").unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = read_bytes(Path::new("/tmp"), "/tmp").unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }
}
