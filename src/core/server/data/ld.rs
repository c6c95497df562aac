//! Redis's `long double` arithmetic (x86's 80-bit extended float, 64-bit mantissa) for
//! INCRBYFLOAT and HINCRBYFLOAT: parsing as `strtold` does (correctly rounded), adding with one
//! rounding, and printing as `ld2string(LD_STR_HUMAN)` does (`%.17Lf`, trailing zeros dropped).
//! A small base-2^32 big integer does the exact work; the page never sees an `f64` rounding
//! where Redis has none.

/// A non-negative big integer, base 2^32, least significant limb first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn bits(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() as u64 - 1) * 32 + u64::from(32 - top.leading_zeros()),
        }
    }
    fn bit(&self, i: u64) -> bool {
        let limb = (i / 32) as usize;
        self.0.get(limb).is_some_and(|l| (l >> (i % 32)) & 1 == 1)
    }
    /// Whether any bit below `i` is set.
    fn any_below(&self, i: u64) -> bool {
        let limb = (i / 32) as usize;
        for (n, l) in self.0.iter().enumerate() {
            if n < limb {
                if *l != 0 {
                    return true;
                }
            } else if n == limb {
                let mask = (1u64 << (i % 32)) - 1;
                return u64::from(*l) & mask != 0;
            } else {
                break;
            }
        }
        false
    }
    fn mul_small_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for l in &mut self.0 {
            let v = u64::from(*l) * u64::from(m) + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }
    /// Divides by `d`, returning the remainder.
    fn div_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for l in self.0.iter_mut().rev() {
            let v = (rem << 32) | u64::from(*l);
            *l = (v / u64::from(d)) as u32;
            rem = v % u64::from(d);
        }
        self.trim();
        rem as u32
    }
    fn shl(&self, n: u64) -> Big {
        let limbs = (n / 32) as usize;
        let bits = (n % 32) as u32;
        let mut out = vec![0u32; limbs];
        let mut carry = 0u32;
        for &l in &self.0 {
            if bits == 0 {
                out.push(l);
            } else {
                out.push((l << bits) | carry);
                carry = l >> (32 - bits);
            }
        }
        if carry > 0 {
            out.push(carry);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    fn shr(&self, n: u64) -> Big {
        let limbs = (n / 32) as usize;
        let bits = (n % 32) as u32;
        let src = self.0.get(limbs..).unwrap_or(&[]);
        let mut out = Vec::with_capacity(src.len());
        for (i, &l) in src.iter().enumerate() {
            let hi = src.get(i + 1).copied().unwrap_or(0);
            out.push(if bits == 0 {
                l
            } else {
                (l >> bits) | (hi << (32 - bits))
            });
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    fn low_u64(&self) -> u64 {
        u64::from(self.0.first().copied().unwrap_or(0))
            | (u64::from(self.0.get(1).copied().unwrap_or(0)) << 32)
    }
    fn add(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len().max(o.0.len()) + 1);
        let mut carry = 0u64;
        for i in 0..self.0.len().max(o.0.len()) {
            let v = u64::from(self.0.get(i).copied().unwrap_or(0))
                + u64::from(o.0.get(i).copied().unwrap_or(0))
                + carry;
            out.push(v as u32);
            carry = v >> 32;
        }
        out.push(carry as u32);
        let mut b = Big(out);
        b.trim();
        b
    }
    /// `self - o`, for `self >= o`.
    fn sub(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let v = i64::from(self.0.get(i).copied().unwrap_or(0))
                - i64::from(o.0.get(i).copied().unwrap_or(0))
                - borrow;
            if v < 0 {
                out.push((v + (1i64 << 32)) as u32);
                borrow = 1;
            } else {
                out.push(v as u32);
                borrow = 0;
            }
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    fn cmp(&self, o: &Big) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }
    /// Decimal digits.
    fn to_decimal(&self) -> String {
        let mut n = self.clone();
        let mut chunks = Vec::new();
        while !n.is_zero() {
            chunks.push(n.div_small(1_000_000_000));
        }
        let mut s = chunks.last().map_or("0".to_owned(), |c| c.to_string());
        for c in chunks.iter().rev().skip(1) {
            s.push_str(&format!("{c:09}"));
        }
        s
    }
}

/// An x87 extended float: `(-1)^neg × mant × 2^exp`, `mant` with its top bit set (or zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongDouble {
    neg: bool,
    mant: u64,
    exp: i64,
    /// Infinite (`strtold` accepts `inf`; INCRBYFLOAT then refuses the result).
    inf: bool,
}

/// Bit positions beyond which the 80-bit format overflows or underflows to zero.
const MAX_TOP_BIT: i64 = 16383;
const MIN_TOP_BIT: i64 = -16446;

impl LongDouble {
    fn zero(neg: bool) -> LongDouble {
        LongDouble {
            neg,
            mant: 0,
            exp: 0,
            inf: false,
        }
    }

    /// `(-1)^neg × n × 2^exp`, rounded to 64 bits (half to even); `sticky` says nonzero bits
    /// below `n` were dropped already. `None` on overflow or underflow to zero.
    fn round(neg: bool, n: &Big, exp: i64, sticky: bool) -> Option<LongDouble> {
        if n.is_zero() {
            return Some(LongDouble::zero(neg));
        }
        let bits = n.bits() as i64;
        let (mut mant, mut exp) = if bits <= 64 {
            (n.shl((64 - bits) as u64).low_u64(), exp - (64 - bits))
        } else {
            let drop = (bits - 64) as u64;
            let mut m = n.shr(drop).low_u64();
            let half = n.bit(drop - 1);
            let rest = n.any_below(drop - 1) || sticky;
            if half && (rest || m & 1 == 1) {
                m = m.wrapping_add(1);
                if m == 0 {
                    m = 1 << 63;
                    return LongDouble::checked(neg, m, exp + drop as i64 + 1);
                }
            }
            (m, exp + drop as i64)
        };
        if mant == 0 {
            mant = 1 << 63;
            exp += 1;
        }
        LongDouble::checked(neg, mant, exp)
    }

    fn checked(neg: bool, mant: u64, exp: i64) -> Option<LongDouble> {
        let top = exp + 63;
        if !(MIN_TOP_BIT..=MAX_TOP_BIT).contains(&top) {
            return None;
        }
        Some(LongDouble {
            neg,
            mant,
            exp,
            inf: false,
        })
    }

    /// Whether the value is infinite.
    pub fn is_inf(&self) -> bool {
        self.inf
    }

    /// Parses `s` as Redis's `string2ld` does (`strtold`, no leading space, nothing left over,
    /// no NaN, no overflow or underflow to zero).
    pub fn parse(s: &[u8]) -> Option<LongDouble> {
        if s.is_empty() || s.len() > 5 * 1024 {
            return None;
        }
        let (neg, rest) = match s.split_first() {
            Some((b'-', r)) => (true, r),
            Some((b'+', r)) => (false, r),
            _ => (false, s),
        };
        let lower = rest.to_ascii_lowercase();
        if lower == b"inf" || lower == b"infinity" {
            return Some(LongDouble {
                neg,
                mant: 0,
                exp: 0,
                inf: true,
            });
        }
        if let Some(hex) = lower.strip_prefix(b"0x") {
            return parse_hex(neg, hex);
        }
        parse_dec(neg, &lower)
    }

    /// `self + o`, rounded once, as the FPU adds. `None` on overflow.
    pub fn add(&self, o: &LongDouble) -> Option<LongDouble> {
        if self.inf || o.inf {
            if self.inf && o.inf && self.neg != o.neg {
                return None; // NaN
            }
            return Some(if self.inf { *self } else { *o });
        }
        if self.mant == 0 {
            return Some(if o.mant == 0 {
                LongDouble::zero(self.neg && o.neg)
            } else {
                *o
            });
        }
        if o.mant == 0 {
            return Some(*self);
        }
        let (a, b) = if self.exp >= o.exp {
            (self, o)
        } else {
            (o, self)
        };
        let d = a.exp - b.exp;
        if d > 200 {
            // b is far below half an ulp of a.
            return LongDouble::round(a.neg, &Big::from_u64(a.mant), a.exp, true);
        }
        let am = Big::from_u64(a.mant).shl(d as u64);
        let bm = Big::from_u64(b.mant);
        if a.neg == b.neg {
            LongDouble::round(a.neg, &am.add(&bm), b.exp, false)
        } else {
            match am.cmp(&bm) {
                std::cmp::Ordering::Equal => Some(LongDouble::zero(false)),
                std::cmp::Ordering::Greater => LongDouble::round(a.neg, &am.sub(&bm), b.exp, false),
                std::cmp::Ordering::Less => LongDouble::round(b.neg, &bm.sub(&am), b.exp, false),
            }
        }
    }

    /// `ld2string(LD_STR_HUMAN)`: `%.17Lf` with trailing zeros (and a bare point) dropped,
    /// `-0` printed `0`.
    pub fn human(&self) -> String {
        if self.inf {
            return if self.neg { "-inf" } else { "inf" }.to_owned();
        }
        let mut n = Big::from_u64(self.mant);
        for _ in 0..17 {
            n.mul_small_add(10, 0);
        }
        let scaled = if self.exp >= 0 {
            n.shl(self.exp as u64)
        } else {
            let drop = self.exp.unsigned_abs();
            let mut q = n.shr(drop);
            let half = drop > 0 && n.bit(drop - 1);
            let rest = drop > 1 && n.any_below(drop - 1);
            if half && (rest || q.bit(0)) {
                q = q.add(&Big::from_u64(1));
            }
            q
        };
        let digits = scaled.to_decimal();
        let digits = format!("{digits:0>18}");
        let (int, frac) = digits.split_at(digits.len() - 17);
        let frac = frac.trim_end_matches('0');
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        out.push_str(int);
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
        if out == "-0" {
            out = "0".to_owned();
        }
        out
    }
}

fn parse_dec(neg: bool, s: &[u8]) -> Option<LongDouble> {
    let mut digits = Big::default();
    let mut n_digits = 0usize;
    let mut dec_exp: i64 = 0;
    let mut i = 0;
    let mut seen_point = false;
    let mut any = false;
    while let Some(&c) = s.get(i) {
        if c.is_ascii_digit() {
            any = true;
            if n_digits > 0 || c != b'0' {
                digits.mul_small_add(10, u32::from(c - b'0'));
                n_digits += 1;
            }
            if seen_point {
                dec_exp -= 1;
            }
        } else if c == b'.' && !seen_point {
            seen_point = true;
        } else {
            break;
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if let Some(&b'e') = s.get(i) {
        let rest = s.get(i + 1..).unwrap_or(&[]);
        let (eneg, body) = match rest.split_first() {
            Some((b'-', r)) => (true, r),
            Some((b'+', r)) => (false, r),
            _ => (false, rest),
        };
        if body.is_empty() || !body.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut e: i64 = 0;
        for &c in body {
            e = (e * 10 + i64::from(c - b'0')).min(1_000_000);
        }
        dec_exp += if eneg { -e } else { e };
    } else if i != s.len() {
        return None;
    }
    if digits.is_zero() {
        return Some(LongDouble::zero(neg));
    }
    // Decimal magnitude: digits × 10^dec_exp has about n_digits + dec_exp digits.
    let magnitude = n_digits as i64 + dec_exp;
    if magnitude > 4940 {
        return None;
    }
    if magnitude < -4960 {
        return None;
    }
    if dec_exp >= 0 {
        for _ in 0..dec_exp {
            digits.mul_small_add(10, 0);
        }
        return LongDouble::round(neg, &digits, 0, false);
    }
    let n = dec_exp.unsigned_abs();
    // 10^n has about 3.33 n bits: shift so that the quotient keeps 66+ bits.
    let k = (n * 34 / 10 + 70).saturating_sub(digits.bits()) + 2;
    let mut q = digits.shl(k);
    let mut sticky = false;
    let mut left = n;
    while left > 0 {
        let step = left.min(9);
        let d = 10u32.pow(step as u32);
        sticky |= q.div_small(d) != 0;
        left -= step;
    }
    LongDouble::round(neg, &q, -(k as i64), sticky)
}

fn parse_hex(neg: bool, s: &[u8]) -> Option<LongDouble> {
    let mut digits = Big::default();
    let mut bin_exp: i64 = 0;
    let mut i = 0;
    let mut seen_point = false;
    let mut any = false;
    while let Some(&c) = s.get(i) {
        if let Some(v) = (c as char).to_digit(16) {
            any = true;
            digits.mul_small_add(16, v);
            if seen_point {
                bin_exp -= 4;
            }
        } else if c == b'.' && !seen_point {
            seen_point = true;
        } else {
            break;
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if let Some(&b'p') = s.get(i) {
        let rest = s.get(i + 1..).unwrap_or(&[]);
        let (eneg, body) = match rest.split_first() {
            Some((b'-', r)) => (true, r),
            Some((b'+', r)) => (false, r),
            _ => (false, rest),
        };
        if body.is_empty() || !body.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut e: i64 = 0;
        for &c in body {
            e = (e * 10 + i64::from(c - b'0')).min(1_000_000);
        }
        bin_exp += if eneg { -e } else { e };
    } else if i != s.len() {
        return None;
    }
    LongDouble::round(neg, &digits, bin_exp, false)
}

#[cfg(test)]
mod tests {
    use super::LongDouble;

    fn incr(a: &str, b: &str) -> String {
        let a = LongDouble::parse(a.as_bytes()).unwrap();
        let b = LongDouble::parse(b.as_bytes()).unwrap();
        a.add(&b).unwrap().human()
    }

    /// Recorded from redis-server 7.0.15 (`SET k a`, `INCRBYFLOAT k b`).
    #[test]
    fn sums_print_as_redis_prints_them() {
        assert_eq!(incr("5000", "0.1"), "5000.10000000000000009");
        assert_eq!(incr("10.5", "0.1"), "10.6");
        assert_eq!(incr("1e20", "0.1"), "100000000000000000000");
        assert_eq!(incr("0", "3.0e3"), "3000");
        assert_eq!(
            incr("123456789.123", "0.000001"),
            "123456789.12300099999993108"
        );
        assert_eq!(incr("0", "-0"), "0");
        assert_eq!(incr("0", "0x10"), "16");
        assert_eq!(incr("0", "1.5e-20"), "0");
        assert_eq!(incr("-1.5", "1.5"), "0");
        assert_eq!(incr("0", ".5"), "0.5");
        assert_eq!(incr("0", "5."), "5");
        assert_eq!(incr("0", "1e400"), "10000000000000000000281880683947586514586453433629052038625910693539685534008629862039363994848324160522094053927317616200295822777259255734023828976593340661017797447434546173917862448116674971723778943824391593338047470675026246684401359237513603830343735485505244955964979021825038280091068414947402456898653040951017512658092615827588920183472511643316591362664138176309734806343732497430221946880");
        assert!(LongDouble::parse(b" 1").is_none());
        assert!(LongDouble::parse(b"1 ").is_none());
        assert!(LongDouble::parse(b"nan").is_none());
        assert!(LongDouble::parse(b"abc").is_none());
        assert!(LongDouble::parse(b"inf").unwrap().is_inf());
    }
}
