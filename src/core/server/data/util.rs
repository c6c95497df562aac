//! Helpers the data modules share: arguments, Redis's number parsing (`string2ll`, `strtod`
//! as `getDoubleFromObject` uses it), replies for errors, and glob matching exactly as
//! Redis's `stringmatchlen`.

use super::{DataError, Db, Value};
use crate::core::server::reply::{ErrorReply, Reply};

pub(super) use crate::core::server::command::parse_i64;

/// Argument `i` (empty past the end).
pub(super) fn arg(args: &[Vec<u8>], i: usize) -> &[u8] {
    args.get(i).map(Vec::as_slice).unwrap_or(&[])
}

/// A data error as a reply.
pub(super) fn derr(e: DataError) -> Reply {
    Reply::Error(ErrorReply::Data(e))
}

/// An error as a reply.
pub(super) fn err(e: ErrorReply) -> Reply {
    Reply::Error(e)
}

/// `ERR wrong number of arguments for '<name>' command`.
pub(super) fn wrong_args(name: &str) -> Reply {
    derr(DataError::WrongArgs {
        command: name.to_owned(),
    })
}

/// `ERR value is not an integer or out of range` unless `v` is an integer.
pub(super) fn int_arg(v: &[u8]) -> Result<i64, Reply> {
    parse_i64(v).ok_or(err(ErrorReply::NotInteger))
}

/// A bulk reply.
pub(super) fn bulk(v: &[u8]) -> Reply {
    Reply::Bulk(Some(v.to_vec()))
}

/// The nil bulk.
pub(super) fn nil() -> Reply {
    Reply::Bulk(None)
}

/// Whether `a` equals `word`, ignoring ASCII case.
pub(super) fn is(a: &[u8], word: &str) -> bool {
    a.eq_ignore_ascii_case(word.as_bytes())
}

/// A SCAN cursor as Redis's `parseScanCursorOrReply` reads it (`strtoul`: an optional sign,
/// decimal digits, a negative number wrapping around; no leading space, nothing after, no
/// overflow; the empty string is 0).
pub(super) fn parse_cursor(v: &[u8]) -> Option<u64> {
    // strtoul reads a C string: the cursor ends at its first NUL byte.
    let v = v.split(|&b| b == 0).next().unwrap_or(v);
    let (neg, digits) = match v.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, v),
    };
    if digits.is_empty() {
        return if v.is_empty() { Some(0) } else { None };
    }
    let mut n: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    Some(if neg { n.wrapping_neg() } else { n })
}

/// The string at `key`: `Ok(None)` if absent, `Err(WRONGTYPE)` if another type.
pub(super) fn get_str<'a>(db: &'a Db, key: &[u8], now: i64) -> Result<Option<&'a Vec<u8>>, Reply> {
    match db.value(key, now) {
        None => Ok(None),
        Some(Value::Str(v)) => Ok(Some(v)),
        Some(_) => Err(err(ErrorReply::WrongType)),
    }
}

/// Redis's `stringmatchlen`: glob-style matching with `*`, `?`, `[...]` (with `^` and ranges)
/// and `\\` escapes, byte by byte; `nocase` folds ASCII case. A line-by-line port.
pub fn glob_match(pattern: &[u8], string: &[u8], nocase: bool) -> bool {
    let mut skip = false;
    let m = Glob {
        pat: pattern,
        st: string,
        nocase,
    };
    m.run(
        0,
        pattern.len() as isize,
        0,
        string.len() as isize,
        &mut skip,
    )
}

struct Glob<'a> {
    pat: &'a [u8],
    st: &'a [u8],
    nocase: bool,
}

impl Glob<'_> {
    fn run(
        &self,
        mut p: usize,
        mut plen: isize,
        mut s: usize,
        mut slen: isize,
        skip: &mut bool,
    ) -> bool {
        let (pat, st, nocase) = (self.pat, self.st, self.nocase);
        // C strings: reading past the end gives the terminating NUL.
        let at = |v: &[u8], i: usize| v.get(i).copied().unwrap_or(0);
        let low = |c: u8| if nocase { c.to_ascii_lowercase() } else { c };
        while plen > 0 && slen > 0 {
            match at(pat, p) {
                b'*' => {
                    while plen > 0 && at(pat, p + 1) == b'*' {
                        p += 1;
                        plen -= 1;
                    }
                    if plen == 1 {
                        return true;
                    }
                    while slen > 0 {
                        if self.run(p + 1, plen - 1, s, slen, skip) {
                            return true;
                        }
                        if *skip {
                            return false;
                        }
                        s += 1;
                        slen -= 1;
                    }
                    *skip = true;
                    return false;
                }
                b'?' => {
                    s += 1;
                    slen -= 1;
                }
                b'[' => {
                    p += 1;
                    plen -= 1;
                    let not = at(pat, p) == b'^';
                    if not {
                        p += 1;
                        plen -= 1;
                    }
                    let mut matched = false;
                    loop {
                        if at(pat, p) == b'\\' && plen >= 2 {
                            p += 1;
                            plen -= 1;
                            if at(pat, p) == at(st, s) {
                                matched = true;
                            }
                        } else if at(pat, p) == b']' {
                            break;
                        } else if plen == 0 {
                            p = p.saturating_sub(1);
                            plen += 1;
                            break;
                        } else if plen >= 3 && at(pat, p + 1) == b'-' {
                            let (mut a, mut b) = (at(pat, p), at(pat, p + 2));
                            if a > b {
                                std::mem::swap(&mut a, &mut b);
                            }
                            let c = low(at(st, s));
                            let (a, b) = (low(a), low(b));
                            p += 2;
                            plen -= 2;
                            if c >= a && c <= b {
                                matched = true;
                            }
                        } else if low(at(pat, p)) == low(at(st, s)) {
                            matched = true;
                        }
                        p += 1;
                        plen -= 1;
                    }
                    if not {
                        matched = !matched;
                    }
                    if !matched {
                        return false;
                    }
                    s += 1;
                    slen -= 1;
                }
                c => {
                    let c = if c == b'\\' && plen >= 2 {
                        p += 1;
                        plen -= 1;
                        at(pat, p)
                    } else {
                        c
                    };
                    if low(c) != low(at(st, s)) {
                        return false;
                    }
                    s += 1;
                    slen -= 1;
                }
            }
            p += 1;
            plen -= 1;
            if slen == 0 {
                while at(pat, p) == b'*' && plen > 0 {
                    p += 1;
                    plen -= 1;
                }
                break;
            }
        }
        plen == 0 && slen == 0
    }
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    /// Checked against redis-server 7.0.15's KEYS.
    #[test]
    fn glob_matches_as_redis() {
        assert!(glob_match(b"h?llo", b"hello", false));
        assert!(glob_match(b"h*llo", b"heeeello", false));
        assert!(glob_match(b"h[ae]llo", b"hallo", false));
        assert!(!glob_match(b"h[^e]llo", b"hello", false));
        assert!(glob_match(b"h[a-b]llo", b"hbllo", false));
        // stringmatchlen("*", "") is 0: KEYS and SCAN skip matching for a lone `*`.
        assert!(!glob_match(b"*", b"", false));
        assert!(glob_match(b"*", b"x", false));
        assert!(glob_match(b"a\\*", b"a*", false));
        assert!(!glob_match(b"a\\*", b"ab", false));
        assert!(glob_match(b"user:*", b"user:1", false));
        assert!(!glob_match(b"user:?", b"user:", false));
    }
}
