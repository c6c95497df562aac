//! redis-cli's escape syntax, both ways: what a reader types → bytes, and bytes → what
//! redis-cli prints.
//!
//! Printing follows `sdscatrepr` (the `key_display` column of the fixtures, without the outer
//! quotes): `\\` and `\"` for backslash and double quote; `\n \r \t \a \b`; every other byte
//! outside 0x20..=0x7e as `\xNN` in lower case, UTF-8 included, byte by byte.
//!
//! Parsing accepts exactly those escapes (hex digits in either case), with or without
//! surrounding double quotes, and text typed as-is (non-ASCII as its UTF-8 bytes). Anything
//! else after a backslash is an error naming its column: a page that guessed would show a
//! slot for a key nobody meant.

/// Why text in one of redis-cli's syntaxes could not be read: a key in its escape syntax
/// ([`parse_key`]), a command line as redis-cli splits it
/// ([`split_args`](super::command::split_args)), or a line of hex ([`from_hex`]). One family
/// for all three, so the page words them one way. Columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EscapeError {
    /// `\x` followed by fewer than two hex digits, or by something that is not hex (a key).
    BadHex {
        /// Column of the backslash.
        column: usize,
        /// What followed `\x` (up to two characters; empty when the key ends there).
        found: String,
    },
    /// A backslash followed by a character that is not one of `x n r t a b \ "` (a key).
    UnknownEscape {
        /// Column of the backslash.
        column: usize,
        /// The character after it.
        found: char,
    },
    /// The key ends with a single backslash.
    TrailingBackslash {
        /// Column of the backslash.
        column: usize,
    },
    /// A quote is opened and never closed (a key: its opening `"`; a command line: `"` or `'`).
    UnclosedQuote {
        /// Column of the opening quote.
        column: usize,
        /// The quote character, `"` or `'`.
        quote: char,
    },
    /// Text follows a closing quote (a key ends at its closing quote; an argument's closing
    /// quote must be followed by a blank or the end of the line).
    TextAfterQuote {
        /// Column of the first character after the closing quote.
        column: usize,
    },
    /// A character that is not a hex digit (a line of hex).
    NotHex {
        /// Its column.
        column: usize,
        /// The character found.
        found: char,
    },
    /// An odd number of hex digits: the last one has no pair (a line of hex).
    UnpairedHexDigit {
        /// Column of the last digit.
        column: usize,
    },
}

impl EscapeError {
    /// The column (1-based, in characters) the error points at.
    pub fn column(&self) -> usize {
        match self {
            EscapeError::BadHex { column, .. }
            | EscapeError::UnknownEscape { column, .. }
            | EscapeError::TrailingBackslash { column }
            | EscapeError::UnclosedQuote { column, .. }
            | EscapeError::TextAfterQuote { column }
            | EscapeError::NotHex { column, .. }
            | EscapeError::UnpairedHexDigit { column } => *column,
        }
    }
}

/// Reads a key typed in redis-cli escape syntax into its bytes.
///
/// ```
/// use slotscope::core::key::escape::parse_key;
/// assert_eq!(parse_key(r"\xff\x00{a}").unwrap(), b"\xff\x00{a}");
/// assert_eq!(parse_key(r#""hello world""#).unwrap(), b"hello world");
/// assert_eq!(parse_key("用户").unwrap(), "用户".as_bytes());
/// assert_eq!(parse_key(r"\x4").unwrap_err().column(), 1);
/// ```
pub fn parse_key(input: &str) -> Result<Vec<u8>, EscapeError> {
    // A 64 KB paste with no escape is copied, not read a character at a time.
    if is_own_bytes(input) {
        return Ok(input.as_bytes().to_vec());
    }
    parse_escaped(input)
}

/// Whether the key typed as `input` is the text's own UTF-8 bytes: no escape and no opening
/// quote, so every character stands for itself.
pub fn is_own_bytes(input: &str) -> bool {
    !input.starts_with('"') && !input.contains('\\')
}

/// [`parse_key`] a character at a time, escapes and quotes read.
fn parse_escaped(input: &str) -> Result<Vec<u8>, EscapeError> {
    let mut out = Vec::with_capacity(input.len());
    let mut chars = input.chars().enumerate().peekable();
    let quoted = input.starts_with('"');
    if quoted {
        chars.next();
    }
    let mut closed = false;
    while let Some((idx, c)) = chars.next() {
        let column = idx + 1;
        match c {
            '"' if quoted => {
                if let Some(&(next, _)) = chars.peek() {
                    return Err(EscapeError::TextAfterQuote { column: next + 1 });
                }
                closed = true;
            }
            '\\' => {
                let Some((_, e)) = chars.next() else {
                    return Err(EscapeError::TrailingBackslash { column });
                };
                match e {
                    'x' => {
                        let mut found = String::new();
                        let mut value = 0u8;
                        for _ in 0..2 {
                            match chars.peek() {
                                Some(&(_, h)) if h.is_ascii_hexdigit() => {
                                    found.push(h);
                                    value = value << 4 | h.to_digit(16).unwrap_or(0) as u8;
                                    chars.next();
                                }
                                Some(&(_, h)) => {
                                    found.push(h);
                                    return Err(EscapeError::BadHex { column, found });
                                }
                                None => return Err(EscapeError::BadHex { column, found }),
                            }
                        }
                        out.push(value);
                    }
                    'n' => out.push(b'\n'),
                    'r' => out.push(b'\r'),
                    't' => out.push(b'\t'),
                    'a' => out.push(0x07),
                    'b' => out.push(0x08),
                    '\\' => out.push(b'\\'),
                    '"' => out.push(b'"'),
                    found => return Err(EscapeError::UnknownEscape { column, found }),
                }
            }
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    if quoted && !closed {
        return Err(EscapeError::UnclosedQuote {
            column: 1,
            quote: '"',
        });
    }
    Ok(out)
}

/// Writes `bytes` as redis-cli prints them, without the outer quotes.
///
/// ```
/// use slotscope::core::key::escape::format_key;
/// assert_eq!(format_key(b"a\"b\\c\n"), r#"a\"b\\c\n"#);
/// assert_eq!(format_key("é".as_bytes()), r"\xc3\xa9");
/// ```
pub fn format_key(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    push_formatted(&mut out, bytes);
    out
}

/// Appends the redis-cli form of `bytes` to `out`.
pub fn push_formatted(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let plain = |b: &u8| matches!(b, 0x20..=0x7e) && *b != b'\\' && *b != b'"';
    let mut rest = bytes;
    while !rest.is_empty() {
        // A run of printable bytes that need no escape is copied whole (a big plan's keys
        // are mostly such runs).
        let run = rest.iter().position(|b| !plain(b)).unwrap_or(rest.len());
        if let Ok(s) = core::str::from_utf8(&rest[..run]) {
            out.push_str(s);
        }
        let Some((&b, tail)) = rest[run..].split_first() else {
            break;
        };
        rest = tail;
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                out.push_str("\\x");
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 15) as usize] as char);
            }
        }
    }
}

/// Lower-case hex of `bytes`, as the fixtures' `key_hex` column writes them.
pub fn to_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

/// Reads hex (either case) into bytes; the empty string is the empty key.
pub fn from_hex(hex: &str) -> Result<Vec<u8>, EscapeError> {
    if let Some((idx, found)) = hex
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_hexdigit())
    {
        return Err(EscapeError::NotHex {
            column: idx + 1,
            found,
        });
    }
    if !hex.len().is_multiple_of(2) {
        // Every character is an ASCII hex digit here, so the length counts characters.
        return Err(EscapeError::UnpairedHexDigit { column: hex.len() });
    }
    let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
    Ok(hex
        .as_bytes()
        .chunks_exact(2)
        .map(|p| digit(p[0]) << 4 | digit(p[1]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_without_escapes_is_its_own_bytes() {
        for text in [
            "",
            "foo",
            "{user1}:profile",
            "a\"b",
            "用户:1001",
            "x{}{y}",
            "é\u{1f600}'",
        ] {
            assert_eq!(parse_key(text), parse_escaped(text), "{text}");
            assert_eq!(parse_key(text).as_deref(), Ok(text.as_bytes()));
        }
        // An opening quote or a backslash is read as before.
        assert_eq!(parse_key(r#""a b""#).as_deref(), Ok(&b"a b"[..]));
        assert_eq!(parse_key(r"a\x41").as_deref(), Ok(&b"aA"[..]));
    }

    #[test]
    fn escapes_are_read() {
        assert_eq!(
            parse_key(r#"\n\r\t\a\b\\\"\x41\xfF"#).unwrap(),
            b"\n\r\t\x07\x08\\\"A\xff"
        );
    }

    #[test]
    fn malformed_escapes_name_their_column() {
        let cases: &[(&str, usize)] = &[
            (r"\x4", 1),
            (r"ab\xZZ", 3),
            (r"ab\x4g", 3),
            ("abc\\", 4),
            (r"a\q", 2),
            (r#""abc"#, 1),
            (r#""abc"d"#, 6),
            (r#""用"x"#, 4),
        ];
        for (input, column) in cases {
            let err = parse_key(input).unwrap_err();
            assert_eq!(err.column(), *column, "{input}: {err:?}");
        }
    }

    #[test]
    fn quotes_are_optional_and_inner_quotes_literal() {
        assert_eq!(parse_key(r#""""#).unwrap(), b"");
        assert_eq!(parse_key(r#"a"b"#).unwrap(), b"a\"b");
        assert_eq!(parse_key(r#""a\"b""#).unwrap(), b"a\"b");
        assert_eq!(parse_key("").unwrap(), b"");
    }

    #[test]
    fn hex_round_trip() {
        assert_eq!(from_hex("00ffA0").unwrap(), vec![0, 255, 160]);
        assert_eq!(to_hex(&[0, 255, 160]), "00ffa0");
        assert_eq!(
            from_hex("abc"),
            Err(EscapeError::UnpairedHexDigit { column: 3 })
        );
        assert_eq!(
            from_hex("0g"),
            Err(EscapeError::NotHex {
                column: 2,
                found: 'g'
            })
        );
    }
}
