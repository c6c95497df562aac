//! Numbers as Redis reads and writes them: C's `strtod` (with its `ERANGE`), Redis's
//! `string2d` (a score), `%.17g` (a reply's double) and `%.17Lf` trimmed (GEOPOS's human
//! long double).

/// C's `strtod` over `s` (which C would read up to its first NUL): the value, how many bytes
/// it read (0 when no number starts there), and whether `errno` would be `ERANGE` (overflow
/// to infinity, or a non-zero number that rounds to zero).
pub(in crate::core::server::data) fn strtod(s: &[u8]) -> (f64, usize, bool) {
    let end = s.iter().position(|&b| b == 0).unwrap_or(s.len());
    let s = s.get(..end).unwrap_or(s);
    let mut i = 0;
    while s
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
    {
        i += 1;
    }
    let start = i;
    let neg = s.get(i) == Some(&b'-');
    if matches!(s.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let rest = s.get(i..).unwrap_or(&[]);
    let lower: Vec<u8> = rest.iter().take(8).map(u8::to_ascii_lowercase).collect();
    let sign = if neg { -1.0 } else { 1.0 };
    if lower.starts_with(b"infinity") {
        return (sign * f64::INFINITY, i + 8, false);
    }
    if lower.starts_with(b"inf") {
        return (sign * f64::INFINITY, i + 3, false);
    }
    if lower.starts_with(b"nan") {
        let mut j = i + 3;
        if s.get(j) == Some(&b'(') {
            let mut k = j + 1;
            while s
                .get(k)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                k += 1;
            }
            if s.get(k) == Some(&b')') {
                j = k + 1;
            }
        }
        return (f64::NAN, j, false);
    }
    if lower.starts_with(b"0x")
        && (rest.get(2).is_some_and(u8::is_ascii_hexdigit)
            || (rest.get(2) == Some(&b'.') && rest.get(3).is_some_and(u8::is_ascii_hexdigit)))
    {
        return hex(s, i + 2, sign);
    }
    // Decimal: digits [. digits] [e [sign] digits].
    let mut j = i;
    let mut digits = 0;
    let mut nonzero = false;
    while let Some(b) = s.get(j).filter(|b| b.is_ascii_digit()) {
        nonzero |= *b != b'0';
        digits += 1;
        j += 1;
    }
    if s.get(j) == Some(&b'.') {
        j += 1;
        while let Some(b) = s.get(j).filter(|b| b.is_ascii_digit()) {
            nonzero |= *b != b'0';
            digits += 1;
            j += 1;
        }
    }
    if digits == 0 {
        return (0.0, 0, false);
    }
    if matches!(s.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(s.get(k), Some(b'-' | b'+')) {
            k += 1;
        }
        if s.get(k).is_some_and(u8::is_ascii_digit) {
            while s.get(k).is_some_and(u8::is_ascii_digit) {
                k += 1;
            }
            j = k;
        }
    }
    let text = std::str::from_utf8(s.get(start..j).unwrap_or(&[])).unwrap_or("0");
    // Rust does not take a leading '+' before an exponent-only form issue; it does take "+1".
    let v: f64 = text.parse().unwrap_or(0.0);
    let erange = v.is_infinite() || (v == 0.0 && nonzero);
    (v, j, erange)
}

/// A hexadecimal float after `0x` (at `i`).
fn hex(s: &[u8], mut i: usize, sign: f64) -> (f64, usize, bool) {
    let mut mant = 0.0f64;
    let mut exp: i64 = 0;
    let mut nonzero = false;
    while let Some(d) = s.get(i).and_then(|b| (*b as char).to_digit(16)) {
        mant = mant * 16.0 + f64::from(d);
        nonzero |= d != 0;
        i += 1;
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        while let Some(d) = s.get(i).and_then(|b| (*b as char).to_digit(16)) {
            mant = mant * 16.0 + f64::from(d);
            nonzero |= d != 0;
            exp -= 4;
            i += 1;
        }
    }
    if matches!(s.get(i), Some(b'p' | b'P')) {
        let mut k = i + 1;
        let neg = s.get(k) == Some(&b'-');
        if matches!(s.get(k), Some(b'-' | b'+')) {
            k += 1;
        }
        if s.get(k).is_some_and(u8::is_ascii_digit) {
            let mut e: i64 = 0;
            while let Some(b) = s.get(k).filter(|b| b.is_ascii_digit()) {
                e = e.saturating_mul(10).saturating_add(i64::from(b - b'0'));
                k += 1;
            }
            exp = exp.saturating_add(if neg { -e } else { e });
            i = k;
        }
    }
    let v = sign * mant * 2f64.powi(exp.clamp(-2000, 2000) as i32);
    let erange = v.is_infinite() || (v == 0.0 && nonzero);
    (v, i, erange)
}

/// Redis's `string2d` (`getDoubleFromObject`): the whole text is a number, no leading blank,
/// not NaN, not out of range (a subnormal is fine).
pub(in crate::core::server::data) fn string2d(s: &[u8]) -> Option<f64> {
    let (v, used, erange) = strtod(s);
    let bad = s.is_empty()
        || s.first()
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
        || used != s.len()
        || (erange && (v.is_infinite() || v == 0.0))
        || v.is_nan();
    (!bad).then_some(v)
}

/// A reply's double as Redis 7.0 (RESP2) writes it: `inf`, `-inf`, else `%.17g`.
pub(in crate::core::server::data) fn fmt_double(d: f64) -> String {
    if d.is_infinite() {
        return if d > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    if d.is_nan() {
        return "nan".to_owned();
    }
    fmt_g(d, 17)
}

/// C's `%.<p>g`.
pub(in crate::core::server::data) fn fmt_g(d: f64, p: usize) -> String {
    if d == 0.0 {
        return if d.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let p = p.max(1);
    let e_form = format!("{:.*e}", p - 1, d);
    let (mant, exp) = e_form.split_once('e').unwrap_or((&e_form, "0"));
    let x: i64 = exp.parse().unwrap_or(0);
    if x < -4 || x >= p as i64 {
        let mant = trim_zeros(mant);
        let sign = if x < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", x.unsigned_abs())
    } else {
        let decimals = (p as i64 - 1 - x).max(0) as usize;
        trim_zeros(&format!("{d:.decimals$}")).to_owned()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Redis's `ld2string(…, LD_STR_HUMAN)` of a double: `%.17Lf` with trailing zeros (and the
/// point) removed, `-0` written `0`.
pub(in crate::core::server::data) fn fmt_human(d: f64) -> String {
    if d.is_infinite() {
        return if d > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    let s = format!("{d:.17}");
    let t = trim_zeros(&s);
    if t == "-0" {
        "0".to_owned()
    } else {
        t.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_printf() {
        // Expected texts are C's printf("%.17g") output.
        assert_eq!(fmt_double(1.1), "1.1000000000000001");
        assert_eq!(fmt_double(1e308), "1e+308");
        assert_eq!(fmt_double(16.0), "16");
        assert_eq!(fmt_double(1.2000000000000002), "1.2000000000000002");
        assert_eq!(fmt_double(9.99988867182683e-321), "9.9998886718268301e-321");
        assert_eq!(fmt_double(0.0001), "0.0001");
        assert_eq!(fmt_double(123456789012345680.0), "1.2345678901234568e+17");
        assert_eq!(fmt_double(-0.0), "-0");
    }

    #[test]
    fn reads_like_strtod() {
        assert_eq!(string2d(b"0x10"), Some(16.0));
        assert_eq!(string2d(b"0x1p3"), Some(8.0));
        assert_eq!(string2d(b"1e400"), None);
        assert_eq!(string2d(b"1e-400"), None);
        assert!(string2d(b"2.5e-324").is_some());
        assert_eq!(string2d(b" 1"), None);
        assert_eq!(string2d(b"1 "), None);
        assert_eq!(string2d(b"nan"), None);
        assert_eq!(string2d(b"-inf"), Some(f64::NEG_INFINITY));
        assert_eq!(string2d(b"Infinity"), Some(f64::INFINITY));
        assert_eq!(string2d(b"1."), Some(1.0));
        assert_eq!(string2d(b".5"), Some(0.5));
        assert_eq!(strtod(b""), (0.0, 0, false));
        assert_eq!(strtod(b"1e"), (1.0, 1, false));
    }
}
