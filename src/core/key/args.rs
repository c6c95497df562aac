//! What a reader types, as redis-cli reads it: a line split into arguments (redis-cli's
//! `sdssplitargs`). The command table itself is [`crate::core::server::command`].

use super::escape::EscapeError;

/// C's `isspace` in the "C" locale.
pub(crate) fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Splits a line the way redis-cli's interactive mode does (`sdssplitargs`).
///
/// Arguments are separated by blanks. `"double quoted"` arguments understand `\xNN`, `\n`, `\r`,
/// `\t`, `\b`, `\a` and `\` before any other character (which stands for itself, so `\"` is a
/// quote and `\\` a backslash). `'single quoted'` arguments understand only `\'`. Outside quotes
/// a backslash is an ordinary character, and a quote may open in the middle of an argument
/// (`a"b c"` is `ab c`). A closing quote must be followed by a blank or the end of the line.
/// As in C, the line ends at its first NUL character. A line that cannot be split (redis-cli
/// answers `Invalid argument(s)`) gives an [`EscapeError::UnclosedQuote`] or
/// [`EscapeError::TextAfterQuote`] naming its column.
///
/// ```
/// use slotscope::core::key::args::split_args;
/// let args = split_args(r#"SET "a\x00b" 'it\'s' {user1}:x"#).unwrap();
/// assert_eq!(args, vec![b"SET".to_vec(), b"a\x00b".to_vec(), b"it's".to_vec(), b"{user1}:x".to_vec()]);
/// assert_eq!(split_args(r#"GET "foo"#).unwrap_err().column(), 5);
/// ```
pub fn split_args(line: &str) -> Result<Vec<Vec<u8>>, EscapeError> {
    let bytes = line.as_bytes();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let b = bytes.get(..end).unwrap_or(bytes);
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    // Columns count characters, as the key field does.
    let column = |i: usize| match line.get(..i) {
        Some(prefix) => prefix.chars().count() + 1,
        None => i + 1,
    };
    let mut out = Vec::new();
    let mut i = 0usize;
    loop {
        while is_c_space(at(i)) {
            i += 1;
        }
        if at(i) == 0 {
            return Ok(out);
        }
        let mut current = Vec::new();
        let (mut in_double, mut in_single) = (false, false);
        let mut opened_at = 0usize;
        loop {
            let mut done = false;
            let c = at(i);
            if in_double {
                match c {
                    b'\\' if at(i + 1) == b'x' => {
                        match (hex_value(at(i + 2)), hex_value(at(i + 3))) {
                            (Some(hi), Some(lo)) => {
                                current.push(hi << 4 | lo);
                                i += 3;
                            }
                            // `\x` without two hex digits is an `x`, as any other escaped char.
                            _ => {
                                i += 1;
                                current.push(b'x');
                            }
                        }
                    }
                    b'\\' if at(i + 1) != 0 => {
                        i += 1;
                        current.push(match at(i) {
                            b'n' => b'\n',
                            b'r' => b'\r',
                            b't' => b'\t',
                            b'b' => 0x08,
                            b'a' => 0x07,
                            other => other,
                        });
                    }
                    b'"' => {
                        if at(i + 1) != 0 && !is_c_space(at(i + 1)) {
                            return Err(EscapeError::TextAfterQuote {
                                column: column(i + 1),
                            });
                        }
                        done = true;
                    }
                    0 => {
                        return Err(EscapeError::UnclosedQuote {
                            column: column(opened_at),
                            quote: '"',
                        })
                    }
                    other => current.push(other),
                }
            } else if in_single {
                match c {
                    b'\\' if at(i + 1) == b'\'' => {
                        i += 1;
                        current.push(b'\'');
                    }
                    b'\'' => {
                        if at(i + 1) != 0 && !is_c_space(at(i + 1)) {
                            return Err(EscapeError::TextAfterQuote {
                                column: column(i + 1),
                            });
                        }
                        done = true;
                    }
                    0 => {
                        return Err(EscapeError::UnclosedQuote {
                            column: column(opened_at),
                            quote: '\'',
                        })
                    }
                    other => current.push(other),
                }
            } else {
                match c {
                    b' ' | b'\n' | b'\r' | b'\t' | 0 => done = true,
                    b'"' => {
                        in_double = true;
                        opened_at = i;
                    }
                    b'\'' => {
                        in_single = true;
                        opened_at = i;
                    }
                    other => current.push(other),
                }
            }
            if at(i) != 0 {
                i += 1;
            }
            if done {
                break;
            }
        }
        out.push(current);
    }
}
