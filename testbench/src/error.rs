//! Errors caused by user input: fio job files, protocol files, traces and drive configs.
//!
//! Every error names the file, the line when there is one, and the reason. The command line maps
//! all of them to exit code 2 (bad input); nothing in this crate panics on user input.

use ssdlab_model::ConfigError;
use thiserror::Error;

/// Bad user input; `Display` gives `file:line: reason` (or `file: reason`).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum InputError {
    #[error("{file}:{line}: {reason}")]
    At {
        file: String,
        line: usize,
        reason: String,
    },
    #[error("{file}: {reason}")]
    File { file: String, reason: String },
}

impl InputError {
    pub fn at(file: &str, line: usize, reason: impl Into<String>) -> Self {
        InputError::At {
            file: file.to_string(),
            line,
            reason: reason.into(),
        }
    }
    pub fn file(file: &str, reason: impl Into<String>) -> Self {
        InputError::File {
            file: file.to_string(),
            reason: reason.into(),
        }
    }
    /// A drive config error, attributed to the file it came from.
    pub fn config(file: &str, e: ConfigError) -> Self {
        match e {
            // `toml`'s message starts "TOML parse error at line L, column C" and ends with the reason.
            ConfigError::Parse { message, .. } => match toml_position(&message) {
                Some((line, col)) => {
                    let reason = message
                        .lines()
                        .rfind(|l| !l.trim().is_empty())
                        .unwrap_or("invalid TOML")
                        .trim();
                    InputError::at(file, line, format!("column {col}: {reason}"))
                }
                None => InputError::file(file, one_line(&message)),
            },
            ConfigError::Invalid { .. } => InputError::file(file, e.to_string()),
        }
    }
    /// A TOML (protocol file) error: pulls the line out of `toml`'s span.
    pub fn toml(file: &str, text: &str, e: &toml::de::Error) -> Self {
        let msg = e.message().to_string();
        match e.span() {
            Some(span) => {
                let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
                InputError::at(file, line, msg)
            }
            None => InputError::file(file, msg),
        }
    }
    /// Reading the file failed.
    pub fn io(file: &str, e: &std::io::Error) -> Self {
        InputError::file(file, format!("cannot read: {e}"))
    }
}

/// Line and column from "TOML parse error at line L, column C".
fn toml_position(message: &str) -> Option<(usize, usize)> {
    let rest = message.split("at line ").nth(1)?;
    let (line, rest) = rest.split_once(", column ")?;
    let col: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    Some((line.trim().parse().ok()?, col.parse().ok()?))
}

/// `toml` errors span several lines (a code excerpt); keep the first and the last useful one.
fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message.lines().filter(|l| !l.trim().is_empty()).collect();
    match lines.as_slice() {
        [] => String::from("invalid TOML"),
        [only] => only.to_string(),
        [first, .., last] => format!("{} {}", first.trim_end_matches(':'), last.trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_and_line() {
        assert_eq!(
            InputError::at("a.fio", 3, "bad").to_string(),
            "a.fio:3: bad"
        );
        assert_eq!(InputError::file("a.fio", "bad").to_string(), "a.fio: bad");
    }

    #[test]
    fn config_parse_error_gets_its_line() {
        let e = ConfigError::Parse { origin: "c.toml".into(), message: "TOML parse error at line 52, column 6\n   |\n52 | [pcie\n   |      ^\nexpected `.`, `]`\n".into() };
        assert_eq!(
            InputError::config("c.toml", e).to_string(),
            "c.toml:52: column 6: expected `.`, `]`"
        );
    }

    #[test]
    fn toml_error_line_from_span() {
        let text = "a = 1\nb = \n";
        let e = toml::from_str::<toml::Value>(text).unwrap_err();
        match InputError::toml("p.toml", text, &e) {
            InputError::At { line, .. } => assert_eq!(line, 2),
            other => panic!("expected a line: {other}"),
        }
    }
}
