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
    /// The reason alone, without the file and line.
    pub fn reason(&self) -> &str {
        match self {
            InputError::At { reason, .. } | InputError::File { reason, .. } => reason,
        }
    }
    /// Reading the file failed.
    pub fn io(file: &str, e: &std::io::Error) -> Self {
        InputError::file(file, format!("cannot read: {e}"))
    }
}

/// Longest error line printed, in characters; longer messages keep their start and end.
pub const MAX_LINE_CHARS: usize = 400;

/// An error message as one terminal line: control characters (NUL, CR, escape sequences, a
/// newline inside echoed input) are shown escaped (`\u{0}`, `\r`), and a message over
/// [`MAX_LINE_CHARS`] (a 1 MB key echoed back) keeps its first 300 and last 80 characters.
pub fn for_terminal(msg: &str) -> String {
    let escaped: String = msg
        .chars()
        .flat_map(|c| {
            let e: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            e
        })
        .collect();
    let n = escaped.chars().count();
    if n <= MAX_LINE_CHARS {
        return escaped;
    }
    let head: String = escaped.chars().take(300).collect();
    let tail: String = escaped.chars().skip(n - 80).collect();
    format!("{head} [... {} characters left out ...] {tail}", n - 380)
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
    fn terminal_line_is_escaped_and_bounded() {
        assert_eq!(for_terminal("a\0b\rc\u{1b}[2J"), "a\\u{0}b\\rc\\u{1b}[2J");
        let long = format!("f.fio:1: `{}` is not an option", "k".repeat(1 << 20));
        let line = for_terminal(&long);
        // 10 + 2^20 + 18 characters; 300 + 80 kept, the rest counted.
        let cut = format!(
            " [... {} characters left out ...] ",
            10 + (1 << 20) + 18 - 380
        );
        assert_eq!(line.chars().count(), 380 + cut.len());
        assert!(line.contains(&cut));
        assert!(line.starts_with("f.fio:1: `kkk") && line.ends_with("kkk` is not an option"));
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
