//! Bitmaps (strings read bit by bit): SETBIT GETBIT BITCOUNT BITPOS (BYTE/BIT ranges) BITOP
//! BITFIELD BITFIELD_RO (GET SET INCRBY, OVERFLOW WRAP/SAT/FAIL, `#` offsets), as Redis
//! 7.0.15's `bitops.c` answers them.

use super::strings::{too_large, PAGE_MAX_STRING};
use super::util::{arg, derr, err, get_str, is, nil, parse_i64};
use super::{DataError, Db, Value};
use crate::core::server::reply::{ErrorReply, Reply};

/// `proto-max-bulk-len`: offsets whose byte reaches it are refused.
const MAX_BYTES: i64 = 512 * 1024 * 1024;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let key = arg(args, 1);
    Some(match name {
        "setbit" => setbit(db, now, key, args),
        "getbit" => {
            let off = match bit_offset(arg(args, 2), false, 0) {
                Ok(o) => o,
                Err(e) => return Some(e),
            };
            match get_str(db, key, now) {
                Err(e) => e,
                Ok(v) => Reply::Int(i64::from(v.is_some_and(|v| get_bit(v, off)))),
            }
        }
        "bitcount" => bitcount(db, now, key, args),
        "bitpos" => bitpos(db, now, key, args),
        "bitop" => bitop(db, now, args),
        "bitfield" => bitfield(db, now, key, args, false),
        "bitfield_ro" => bitfield(db, now, key, args, true),
        _ => return None,
    })
}

/// Redis's `getBitOffsetFromArgument`: `#n` (with `hash`) is n times `bits`.
fn bit_offset(v: &[u8], hash: bool, bits: u32) -> Result<u64, Reply> {
    let bad = || derr(DataError::BitOffset);
    let use_hash = hash && bits > 0 && v.first() == Some(&b'#');
    let digits = if use_hash {
        v.get(1..).unwrap_or(&[])
    } else {
        v
    };
    let mut n = parse_i64(digits).ok_or_else(bad)?;
    if use_hash {
        n = n.wrapping_mul(i64::from(bits));
    }
    if n < 0 || (n >> 3) >= MAX_BYTES {
        return Err(bad());
    }
    Ok(n as u64)
}

fn get_bit(v: &[u8], off: u64) -> bool {
    usize::try_from(off >> 3)
        .ok()
        .and_then(|b| v.get(b))
        .is_some_and(|byte| byte & (1 << (7 - (off & 7))) != 0)
}

/// The string at `key` grown with zero bytes to hold bit `maxbit` (Redis's
/// `lookupStringForBitCommand`; the value becomes `raw`): whether it was created or grew.
fn grow_for_bit(db: &mut Db, now: i64, key: &[u8], maxbit: u64) -> Result<bool, Reply> {
    let need = (maxbit >> 3) + 1;
    if need > PAGE_MAX_STRING {
        // Type first, as Redis checks it before allocating.
        get_str(db, key, now)?;
        return Err(too_large("setbit"));
    }
    let need = need as usize;
    let dirty = match get_str(db, key, now)? {
        None => {
            db.insert(key, Value::Str(vec![0; need]), now, false);
            true
        }
        Some(v) if v.len() >= need => false,
        Some(_) => {
            if let Some(Value::Str(v)) = db.value_mut(key, now) {
                v.resize(need, 0);
            }
            true
        }
    };
    db.set_str_encoding(key, "raw");
    Ok(dirty)
}

fn str_mut<'a>(db: &'a mut Db, now: i64, key: &[u8]) -> Option<&'a mut Vec<u8>> {
    match db.value_mut(key, now) {
        Some(Value::Str(v)) => Some(v),
        _ => None,
    }
}

fn setbit(db: &mut Db, now: i64, key: &[u8], args: &[Vec<u8>]) -> Reply {
    let off = match bit_offset(arg(args, 2), false, 0) {
        Ok(o) => o,
        Err(e) => return e,
    };
    let on = match parse_i64(arg(args, 3)) {
        Some(n @ (0 | 1)) => n == 1,
        _ => return derr(DataError::BitValue),
    };
    let dirty = match grow_for_bit(db, now, key, off) {
        Ok(d) => d,
        Err(e) => return e,
    };
    let Some(v) = str_mut(db, now, key) else {
        return Reply::Int(0);
    };
    let old = get_bit(v, off);
    if let Some(byte) = v.get_mut((off >> 3) as usize) {
        let mask = 1u8 << (7 - (off & 7));
        if on {
            *byte |= mask;
        } else {
            *byte &= !mask;
        }
    }
    if dirty || old != on {
        db.touch(key);
    }
    Reply::Int(i64::from(old))
}

/// A BITCOUNT/BITPOS range in bits, clamped as Redis clamps it; `None` when empty.
fn bit_range(len: usize, start: i64, end: i64, is_bit: bool) -> Option<(u64, u64)> {
    let mut total = len as i64;
    if is_bit {
        total <<= 3;
    }
    let (mut s, mut e) = (start, end);
    if s < 0 {
        s = total.saturating_add(s);
    }
    if e < 0 {
        e = total.saturating_add(e);
    }
    s = s.max(0);
    e = e.max(0);
    if e >= total {
        e = total - 1;
    }
    if s > e {
        return None;
    }
    if is_bit {
        Some((s as u64, e as u64))
    } else {
        Some((s as u64 * 8, e as u64 * 8 + 7))
    }
}

fn unit(v: Option<&Vec<u8>>) -> Result<bool, Reply> {
    match v {
        None => Ok(false),
        Some(u) if is(u, "bit") => Ok(true),
        Some(u) if is(u, "byte") => Ok(false),
        Some(_) => Err(err(ErrorReply::Syntax)),
    }
}

fn ints(a: &[u8], b: &[u8]) -> Result<(i64, i64), Reply> {
    let s = parse_i64(a).ok_or(err(ErrorReply::NotInteger))?;
    let e = parse_i64(b).ok_or(err(ErrorReply::NotInteger))?;
    Ok((s, e))
}

fn bitcount(db: &Db, now: i64, key: &[u8], args: &[Vec<u8>]) -> Reply {
    let v = match get_str(db, key, now) {
        Ok(Some(v)) => v,
        Ok(None) => return Reply::Int(0),
        Err(e) => return e,
    };
    let range = match args.len() {
        2 => bit_range(v.len(), 0, -1, false),
        4 | 5 => {
            let (s, e) = match ints(arg(args, 2), arg(args, 3)) {
                Ok(r) => r,
                Err(e) => return e,
            };
            if s < 0 && e < 0 && s > e {
                return Reply::Int(0);
            }
            let is_bit = match unit(args.get(4)) {
                Ok(b) => b,
                Err(e) => return e,
            };
            bit_range(v.len(), s, e, is_bit)
        }
        _ => return err(ErrorReply::Syntax),
    };
    let Some((s, e)) = range else {
        return Reply::Int(0);
    };
    Reply::Int((s..=e).filter(|&b| get_bit(v, b)).count() as i64)
}

fn bitpos(db: &Db, now: i64, key: &[u8], args: &[Vec<u8>]) -> Reply {
    let bit = match parse_i64(arg(args, 2)) {
        Some(b @ (0 | 1)) => b == 1,
        Some(_) => return derr(DataError::BitArg),
        None => return err(ErrorReply::NotInteger),
    };
    let v = match get_str(db, key, now) {
        Ok(Some(v)) => v,
        Ok(None) => return Reply::Int(if bit { -1 } else { 0 }),
        Err(e) => return e,
    };
    let mut end_given = false;
    let range = match args.len() {
        3 => bit_range(v.len(), 0, -1, false),
        4..=6 => {
            let Some(s) = parse_i64(arg(args, 3)) else {
                return err(ErrorReply::NotInteger);
            };
            let is_bit = match unit(args.get(5)) {
                Ok(b) => b,
                Err(e) => return e,
            };
            let e = if args.len() >= 5 {
                end_given = true;
                match parse_i64(arg(args, 4)) {
                    Some(e) => e,
                    None => return err(ErrorReply::NotInteger),
                }
            } else {
                i64::MAX
            };
            bit_range(v.len(), s, e, is_bit)
        }
        _ => return err(ErrorReply::Syntax),
    };
    let Some((s, e)) = range else {
        return Reply::Int(-1);
    };
    if let Some(p) = (s..=e).find(|&b| get_bit(v, b) == bit) {
        return Reply::Int(p as i64);
    }
    if bit || end_given {
        Reply::Int(-1)
    } else {
        Reply::Int(((e >> 3) + 1) as i64 * 8)
    }
}

fn bitop(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Reply {
    let op = arg(args, 1).to_ascii_lowercase();
    if !matches!(op.as_slice(), b"and" | b"or" | b"xor" | b"not") {
        return err(ErrorReply::Syntax);
    }
    if op == b"not" && args.len() != 4 {
        return derr(DataError::BitopNot);
    }
    let mut srcs: Vec<Vec<u8>> = Vec::new();
    for k in args.iter().skip(3) {
        match get_str(db, k, now) {
            Err(e) => return e,
            Ok(v) => srcs.push(v.cloned().unwrap_or_default()),
        }
    }
    let maxlen = srcs.iter().map(Vec::len).max().unwrap_or(0);
    let dest = arg(args, 2);
    if maxlen == 0 {
        db.remove(dest, now);
        return Reply::Int(0);
    }
    let byte = |s: &Vec<u8>, i: usize| s.get(i).copied().unwrap_or(0);
    let res: Vec<u8> = (0..maxlen)
        .map(|i| {
            let mut it = srcs.iter().map(|s| byte(s, i));
            let first = it.next().unwrap_or(0);
            match op.as_slice() {
                b"and" => it.fold(first, |a, b| a & b),
                b"or" => it.fold(first, |a, b| a | b),
                b"xor" => it.fold(first, |a, b| a ^ b),
                _ => !first,
            }
        })
        .collect();
    db.insert(dest, Value::Str(res), now, false);
    db.set_str_encoding(dest, "raw");
    Reply::Int(maxlen as i64)
}

#[derive(Clone, Copy, PartialEq)]
enum Overflow {
    Wrap,
    Sat,
    Fail,
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Get,
    Set,
    IncrBy,
}

struct FieldOp {
    op: Op,
    signed: bool,
    bits: u32,
    offset: u64,
    value: i64,
    overflow: Overflow,
}

/// Redis's `getBitfieldTypeFromArgument`: `i1`…`i64`, `u1`…`u63`.
fn field_type(v: &[u8]) -> Result<(bool, u32), Reply> {
    let bad = || derr(DataError::BitfieldType);
    let signed = match v.first() {
        Some(b'i') => true,
        Some(b'u') => false,
        _ => return Err(bad()),
    };
    let bits = parse_i64(v.get(1..).unwrap_or(&[])).ok_or_else(bad)?;
    if bits < 1 || (signed && bits > 64) || (!signed && bits > 63) {
        return Err(bad());
    }
    Ok((signed, bits as u32))
}

fn bitfield(db: &mut Db, now: i64, key: &[u8], args: &[Vec<u8>], ro: bool) -> Reply {
    let mut ops = Vec::new();
    let mut overflow = Overflow::Wrap;
    let mut highest: u64 = 0;
    let mut readonly = true;
    let mut j = 2;
    while j < args.len() {
        let rem = args.len() - j - 1;
        let sub = arg(args, j);
        let op = if is(sub, "get") && rem >= 2 {
            Op::Get
        } else if is(sub, "set") && rem >= 3 {
            Op::Set
        } else if is(sub, "incrby") && rem >= 3 {
            Op::IncrBy
        } else if is(sub, "overflow") && rem >= 1 {
            let t = arg(args, j + 1);
            overflow = if is(t, "wrap") {
                Overflow::Wrap
            } else if is(t, "sat") {
                Overflow::Sat
            } else if is(t, "fail") {
                Overflow::Fail
            } else {
                return derr(DataError::BitfieldOverflow);
            };
            j += 2;
            continue;
        } else {
            return err(ErrorReply::Syntax);
        };
        let (signed, bits) = match field_type(arg(args, j + 1)) {
            Ok(t) => t,
            Err(e) => return e,
        };
        let offset = match bit_offset(arg(args, j + 2), true, bits) {
            Ok(o) => o,
            Err(e) => return e,
        };
        let mut value = 0;
        if op != Op::Get {
            readonly = false;
            highest = highest.max(offset + u64::from(bits) - 1);
            match parse_i64(arg(args, j + 3)) {
                Some(v) => value = v,
                None => return err(ErrorReply::NotInteger),
            }
        }
        ops.push(FieldOp {
            op,
            signed,
            bits,
            offset,
            value,
            overflow,
        });
        j += if op == Op::Get { 3 } else { 4 };
    }
    if readonly {
        let v = match get_str(db, key, now) {
            Ok(v) => v.cloned().unwrap_or_default(),
            Err(e) => return e,
        };
        return Reply::Array(
            ops.iter()
                .map(|o| Reply::Int(read_field(&v, o.offset, o.bits, o.signed)))
                .collect(),
        );
    }
    if ro {
        return derr(DataError::BitfieldRo);
    }
    let dirty = match grow_for_bit(db, now, key, highest) {
        Ok(d) => d,
        Err(e) => {
            return match e {
                Reply::Error(ErrorReply::NotRun(_)) => too_large("bitfield"),
                e => e,
            };
        }
    };
    let Some(v) = str_mut(db, now, key) else {
        return Reply::Array(Vec::new());
    };
    let mut changes = 0;
    let mut out = Vec::new();
    for o in &ops {
        if o.op == Op::Get {
            out.push(Reply::Int(read_field(v, o.offset, o.bits, o.signed)));
            continue;
        }
        let old = read_field(v, o.offset, o.bits, o.signed);
        let (new, ret, over) = if o.signed {
            let (incr, base) = if o.op == Op::IncrBy {
                (o.value, old)
            } else {
                (0, o.value)
            };
            let (over, limit) = signed_overflow(base, incr, o.bits, o.overflow);
            let new = if over != 0 {
                limit
            } else {
                base.wrapping_add(incr)
            };
            (new, if o.op == Op::IncrBy { new } else { old }, over)
        } else {
            let (incr, base) = if o.op == Op::IncrBy {
                (o.value, old as u64)
            } else {
                (0, o.value as u64)
            };
            let (over, limit) = unsigned_overflow(base, incr, o.bits, o.overflow);
            let new = if over != 0 {
                limit
            } else {
                base.wrapping_add(incr as u64)
            } as i64;
            (new, if o.op == Op::IncrBy { new } else { old }, over)
        };
        if over != 0 && o.overflow == Overflow::Fail {
            out.push(nil());
            continue;
        }
        out.push(Reply::Int(ret));
        write_field(v, o.offset, o.bits, new as u64);
        if dirty || old != new {
            changes += 1;
        }
    }
    if changes > 0 {
        db.touch(key);
    }
    Reply::Array(out)
}

fn read_field(v: &[u8], offset: u64, bits: u32, signed: bool) -> i64 {
    let mut value: u64 = 0;
    for i in 0..u64::from(bits) {
        value = (value << 1) | u64::from(get_bit(v, offset + i));
    }
    if signed && bits < 64 && value & (1 << (bits - 1)) != 0 {
        value |= u64::MAX << bits;
    }
    value as i64
}

fn write_field(v: &mut [u8], offset: u64, bits: u32, value: u64) {
    for i in 0..u64::from(bits) {
        let bit = (value >> (u64::from(bits) - 1 - i)) & 1 == 1;
        let pos = offset + i;
        if let Some(byte) = v.get_mut((pos >> 3) as usize) {
            let mask = 1u8 << (7 - (pos & 7));
            if bit {
                *byte |= mask;
            } else {
                *byte &= !mask;
            }
        }
    }
}

/// Redis's `checkUnsignedBitfieldOverflow`: (direction, the wrapped or saturated value).
fn unsigned_overflow(value: u64, incr: i64, bits: u32, ow: Overflow) -> (i32, u64) {
    let max: u64 = (1u64 << bits) - 1;
    let maxincr = max.wrapping_sub(value) as i64;
    let minincr = (value as i64).wrapping_neg();
    let wrap = || value.wrapping_add(incr as u64) & !(u64::MAX << bits);
    if value > max || (incr > 0 && incr > maxincr) {
        (1, if ow == Overflow::Sat { max } else { wrap() })
    } else if incr < 0 && incr < minincr {
        (-1, if ow == Overflow::Sat { 0 } else { wrap() })
    } else {
        (0, 0)
    }
}

/// Redis's `checkSignedBitfieldOverflow`.
fn signed_overflow(value: i64, incr: i64, bits: u32, ow: Overflow) -> (i32, i64) {
    let max: i64 = if bits == 64 {
        i64::MAX
    } else {
        (1i64 << (bits - 1)) - 1
    };
    let min = -max - 1;
    let maxincr = (max as u64).wrapping_sub(value as u64) as i64;
    let minincr = min.wrapping_sub(value);
    let wrap = || {
        let mut c = (value as u64).wrapping_add(incr as u64);
        if bits < 64 {
            let mask = u64::MAX << bits;
            if c & (1u64 << (bits - 1)) != 0 {
                c |= mask;
            } else {
                c &= !mask;
            }
        }
        c as i64
    };
    if value > max || (bits != 64 && incr > maxincr) || (value >= 0 && incr > 0 && incr > maxincr) {
        (1, if ow == Overflow::Sat { max } else { wrap() })
    } else if value < min
        || (bits != 64 && incr < minincr)
        || (value < 0 && incr < 0 && incr < minincr)
    {
        (-1, if ow == Overflow::Sat { min } else { wrap() })
    } else {
        (0, 0)
    }
}
