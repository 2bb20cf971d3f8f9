//! Errors the model reports to its users: bad configs name the offending field.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum ConfigError {
    /// TOML that does not parse or does not fit the schema; `toml`'s message names line and key.
    #[error("{origin}: {message}")]
    Parse { origin: String, message: String },
    /// A value that parses but is impossible; `field` is the dotted path, e.g. `nand.t_read_us`.
    #[error("invalid config field `{field}`: {reason}")]
    Invalid { field: String, reason: String },
}

impl ConfigError {
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        ConfigError::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// Shorthand for validation code: `check(cond, "nand.planes", "must be 1, 2 or 4")?`.
pub fn check(cond: bool, field: &str, reason: &str) -> Result<(), ConfigError> {
    if cond {
        Ok(())
    } else {
        Err(ConfigError::invalid(field, reason))
    }
}
