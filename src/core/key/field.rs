//! The key field's text read as a key: the redis-cli escapes parsed, and the length the page
//! will explain, or why it will not (as data; the page words it).

use super::escape::{is_own_bytes, parse_key, EscapeError};

/// The longest key the page explains, in bytes. Redis takes keys up to 512 MB, but showing a
/// longer one would freeze the tab; 1 MiB is sixteen times the longest fixture key.
pub const MAX_KEY_BYTES: usize = 1 << 20;

/// Why the text in the key field is not explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyProblem {
    /// It is not valid redis-cli escape syntax.
    Escape(EscapeError),
    /// It is longer than [`MAX_KEY_BYTES`].
    TooLong {
        /// How many bytes the key has, or at least has when `at_least`.
        bytes: usize,
        /// `bytes` is a lower bound: text with escapes too long to be worth parsing.
        at_least: bool,
    },
}

impl KeyProblem {
    /// Whether the field holds the text at fault (an escape error), rather than the key before
    /// it (a key too long is refused and the field put back).
    pub fn is_in_field(&self) -> bool {
        matches!(self, KeyProblem::Escape(_))
    }

    /// The column the problem points at, if any.
    pub fn column(&self) -> Option<usize> {
        match self {
            KeyProblem::Escape(e) => Some(e.column()),
            KeyProblem::TooLong { .. } => None,
        }
    }
}

/// Reads the key field: its bytes, or why the page will not explain it.
pub fn read_key(input: &str) -> Result<Vec<u8>, KeyProblem> {
    // Each byte takes at most four characters (\xNN), so longer text cannot be a short key:
    // refuse it before parsing, so a 10 MB paste costs nothing. Text that is its own bytes
    // has an exact length; else the key has at least a quarter as many bytes as the text.
    if input.len() > 4 * MAX_KEY_BYTES + 2 {
        let plain = is_own_bytes(input);
        return Err(KeyProblem::TooLong {
            bytes: if plain { input.len() } else { input.len() / 4 },
            at_least: !plain,
        });
    }
    let bytes = parse_key(input).map_err(KeyProblem::Escape)?;
    if bytes.len() > MAX_KEY_BYTES {
        return Err(KeyProblem::TooLong {
            bytes: bytes.len(),
            at_least: false,
        });
    }
    Ok(bytes)
}
