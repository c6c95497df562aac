//! HyperLogLog with Redis 7.0.15's own algorithm and bytes (`hyperloglog.c`): MurmurHash64A
//! with seed `0xadc83b19`, 16384 six-bit registers, the `HYLL` header with its cached
//! cardinality, the sparse representation (ZERO / XZERO / VAL opcodes) promoted to dense
//! exactly when Redis promotes it, and Ertl's estimator. PFADD PFCOUNT PFMERGE PFDEBUG
//! PFSELFTEST. An HLL is a string value, so `GET` of the key gives Redis's exact bytes.

use super::{Db, Value};
use crate::core::server::reply::{ErrorReply, Reply};
use core::fmt;

/// The errors only HyperLogLog commands send (Redis's exact text in `Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HllError {
    /// `WRONGTYPE Key is not a valid HyperLogLog string value.`: a string that is not an HLL.
    NotHll,
    /// `INVALIDOBJ Corrupted HLL object detected`: a sparse HLL whose opcodes do not add up.
    Corrupted,
    /// `ERR The specified key does not exist` (PFDEBUG).
    DebugNoKey,
    /// `ERR HLL encoding is not sparse` (PFDEBUG DECODE of a dense HLL).
    DebugNotSparse,
    /// `ERR Unknown PFDEBUG subcommand '<sub>'`.
    DebugUnknown {
        /// The subcommand as typed.
        sub: String,
    },
    /// `ERR Wrong number of arguments for the '<sub>' subcommand` (PFDEBUG).
    DebugArity {
        /// The subcommand as typed.
        sub: String,
    },
}

impl fmt::Display for HllError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HllError::NotHll => {
                f.write_str("WRONGTYPE Key is not a valid HyperLogLog string value.")
            }
            HllError::Corrupted => f.write_str("INVALIDOBJ Corrupted HLL object detected"),
            HllError::DebugNoKey => f.write_str("ERR The specified key does not exist"),
            HllError::DebugNotSparse => f.write_str("ERR HLL encoding is not sparse"),
            HllError::DebugUnknown { sub } => write!(f, "ERR Unknown PFDEBUG subcommand '{sub}'"),
            HllError::DebugArity { sub } => {
                write!(
                    f,
                    "ERR Wrong number of arguments for the '{sub}' subcommand"
                )
            }
        }
    }
}

const P: u32 = 14;
const Q: u32 = 64 - P;
const REGISTERS: usize = 1 << P;
const REGISTER_MAX: u8 = 63;
const HDR: usize = 16;
const DENSE_SIZE: usize = HDR + (REGISTERS * 6).div_ceil(8);
const DENSE: u8 = 0;
const SPARSE: u8 = 1;
const SPARSE_VAL_MAX_VALUE: u8 = 32;
const SPARSE_VAL_MAX_LEN: usize = 4;
const SPARSE_ZERO_MAX_LEN: usize = 64;
const SPARSE_XZERO_MAX_LEN: usize = 16384;
/// `hll-sparse-max-bytes`, Redis's default.
const SPARSE_MAX_BYTES: usize = 3000;
const ALPHA_INF: f64 = 0.721_347_520_444_481_7;

/// Redis's MurmurHash2, 64-bit version (endian neutral: little-endian words).
pub fn murmurhash64a(key: &[u8], seed: u64) -> u64 {
    const M: u64 = 0xc6a4_a793_5bd1_e995;
    const R: u32 = 47;
    let mut h = seed ^ (key.len() as u64).wrapping_mul(M);
    let mut chunks = key.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let mut k = u64::from_le_bytes(word);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h ^= k;
        h = h.wrapping_mul(M);
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        for (i, &b) in tail.iter().enumerate() {
            h ^= u64::from(b) << (8 * i);
        }
        h = h.wrapping_mul(M);
    }
    h ^= h >> R;
    h = h.wrapping_mul(M);
    h ^= h >> R;
    h
}

/// The register an element lands in and the length of its `000…1` pattern (`hllPatLen`).
fn pat_len(ele: &[u8]) -> (usize, u8) {
    // The key length is an `int` in Redis: the seed mixes in the length as C computes it.
    let hash = murmurhash64a(ele, 0xadc8_3b19);
    let index = (hash & (REGISTERS as u64 - 1)) as usize;
    let rest = (hash >> P) | (1u64 << Q);
    (index, rest.trailing_zeros() as u8 + 1)
}

fn dense_get(regs: &[u8], i: usize) -> u8 {
    let byte = i * 6 / 8;
    let fb = (i * 6) & 7;
    let b0 = u32::from(regs.get(byte).copied().unwrap_or(0));
    let b1 = u32::from(regs.get(byte + 1).copied().unwrap_or(0));
    (((b0 >> fb) | (b1 << (8 - fb))) & u32::from(REGISTER_MAX)) as u8
}

fn dense_set(regs: &mut [u8], i: usize, val: u8) {
    let byte = i * 6 / 8;
    let fb = (i * 6) & 7;
    let v = u32::from(val);
    let max = u32::from(REGISTER_MAX);
    if let Some(b) = regs.get_mut(byte) {
        *b &= !((max << fb) as u8);
        *b |= (v << fb) as u8;
    }
    // The last register's second byte is the string's terminating NUL in Redis; the masks
    // leave it untouched, so nothing is lost here.
    if let Some(b) = regs.get_mut(byte + 1) {
        *b &= !((max >> (8 - fb)) as u8);
        *b |= (v >> (8 - fb)) as u8;
    }
}

/// `hllDenseSet`: raises register `i` to `count`; whether it changed.
fn dense_raise(hll: &mut [u8], i: usize, count: u8) -> bool {
    let regs = hll.get_mut(HDR..).unwrap_or_default();
    if count > dense_get(regs, i) {
        dense_set(regs, i, count);
        true
    } else {
        false
    }
}

/// A new, empty HLL (`createHLLObject`): sparse, one XZERO covering every register.
fn new_hll() -> Vec<u8> {
    let mut s = vec![0u8; HDR];
    s[..4].copy_from_slice(b"HYLL");
    s[4] = SPARSE;
    let mut left = REGISTERS;
    while left > 0 {
        let len = left.min(SPARSE_XZERO_MAX_LEN);
        push_xzero(&mut s, len);
        left -= len;
    }
    s
}

fn push_xzero(out: &mut Vec<u8>, len: usize) {
    let l = len - 1;
    out.push(((l >> 8) as u8) | 0x40);
    out.push((l & 0xff) as u8);
}

fn val_op(val: u8, len: usize) -> u8 {
    ((val - 1) << 2 | (len as u8 - 1)) | 0x80
}

/// One sparse opcode: ZERO, XZERO (two bytes) or VAL.
#[derive(Clone, Copy)]
enum Op {
    Zero(usize),
    XZero(usize),
    Val(u8, usize),
}

fn op_at(s: &[u8], p: usize) -> Option<(Op, usize)> {
    let b = *s.get(p)?;
    Some(match b & 0xc0 {
        0x00 => (Op::Zero(usize::from(b & 0x3f) + 1), 1),
        0x40 => {
            let lo = usize::from(s.get(p + 1).copied().unwrap_or(0));
            (Op::XZero(((usize::from(b & 0x3f) << 8) | lo) + 1), 2)
        }
        _ => (Op::Val(((b >> 2) & 0x1f) + 1, usize::from(b & 3) + 1), 1),
    })
}

/// Whether `v` holds a valid HLL header (`isHLLObjectOrReply` after the type check).
fn is_hll(v: &[u8]) -> bool {
    v.len() >= HDR
        && v.starts_with(b"HYLL")
        && v[4] <= SPARSE
        && (v[4] != DENSE || v.len() == DENSE_SIZE)
}

/// Calls `f(register, value)` for each register a sparse HLL sets, and returns whether the
/// opcodes covered exactly every register (VAL runs past the end stop the walk, as in Redis).
fn sparse_walk(s: &[u8], mut f: impl FnMut(usize, u8)) -> bool {
    let mut idx = 0usize;
    let mut p = HDR;
    while let Some((op, len)) = op_at(s, p) {
        match op {
            Op::Zero(n) | Op::XZero(n) => idx = idx.saturating_add(n),
            Op::Val(v, n) => {
                if idx + n > REGISTERS {
                    break;
                }
                for i in idx..idx + n {
                    f(i, v);
                }
                idx += n;
            }
        }
        p += len;
    }
    idx == REGISTERS
}

/// `hllSparseToDense`: converts in place; `false` if the sparse form was corrupt.
fn sparse_to_dense(hll: &mut Vec<u8>) -> bool {
    if hll.get(4) == Some(&DENSE) {
        return true;
    }
    let mut dense = vec![0u8; DENSE_SIZE];
    dense[..HDR].copy_from_slice(&hll[..HDR]);
    dense[4] = DENSE;
    let ok = sparse_walk(hll, |i, v| dense_set(&mut dense[HDR..], i, v));
    if ok {
        *hll = dense;
    }
    ok
}

/// `hllSparseSet`: raises register `index` to `count` in a sparse HLL, promoting it to dense
/// when Redis does. `Ok(changed)`, or `Err` if the sparse form is corrupt.
fn sparse_set(hll: &mut Vec<u8>, index: usize, count: u8) -> Result<bool, HllError> {
    if count > SPARSE_VAL_MAX_VALUE {
        return promote(hll, index, count);
    }
    // Step 1: find the opcode covering `index`.
    let mut p = HDR;
    let mut first = 0usize;
    let mut prev: Option<usize> = None;
    let mut found = None;
    while let Some((op, oplen)) = op_at(hll, p) {
        let span = match op {
            Op::Zero(n) | Op::XZero(n) | Op::Val(_, n) => n,
        };
        if index < first + span {
            found = Some((op, oplen, span));
            break;
        }
        prev = Some(p);
        p += oplen;
        first = first.saturating_add(span);
    }
    let Some((op, oldlen, span)) = found else {
        return Err(HllError::Corrupted);
    };
    // Step 2: the trivial cases, then the general split.
    match op {
        Op::Val(old, _) if old >= count => return Ok(false),
        Op::Val(_, 1) | Op::Zero(1) => {
            hll[p] = val_op(count, 1);
            merge_vals(hll, prev.unwrap_or(HDR));
            invalidate(hll);
            return Ok(true);
        }
        _ => {}
    }
    let last = first + span - 1;
    let mut seq: Vec<u8> = Vec::with_capacity(5);
    let zeros = |seq: &mut Vec<u8>, len: usize| {
        if len > SPARSE_ZERO_MAX_LEN {
            push_xzero(seq, len);
        } else {
            seq.push((len - 1) as u8);
        }
    };
    match op {
        Op::Zero(_) | Op::XZero(_) => {
            if index != first {
                zeros(&mut seq, index - first);
            }
            seq.push(val_op(count, 1));
            if index != last {
                zeros(&mut seq, last - index);
            }
        }
        Op::Val(cur, _) => {
            if index != first {
                seq.push(val_op(cur, index - first));
            }
            seq.push(val_op(count, 1));
            if index != last {
                seq.push(val_op(cur, last - index));
            }
        }
    }
    // Step 3: put the new sequence in place of the old opcode.
    if seq.len() > oldlen && hll.len() + seq.len() - oldlen > SPARSE_MAX_BYTES {
        return promote(hll, index, count);
    }
    // Redis copies the new sequence over the old opcode and moves what follows; an XZERO cut
    // short at the end had its second byte in the string's terminating NUL, so the byte
    // beyond the new length is dropped, as it is when Redis sets the length.
    hll.push(0);
    hll.splice(p..p + oldlen, seq);
    hll.pop();
    // Step 4: merge adjacent VAL opcodes of the same value.
    merge_vals(hll, prev.unwrap_or(HDR));
    invalidate(hll);
    Ok(true)
}

/// Step 4 of `hllSparseSet`: scans up to 5 opcodes from `p`, merging adjacent equal VALs.
fn merge_vals(hll: &mut Vec<u8>, mut p: usize) {
    let mut scanlen = 5;
    while p < hll.len() && scanlen > 0 {
        scanlen -= 1;
        let b = hll[p];
        if b & 0xc0 == 0x40 {
            p += 2;
            continue;
        } else if b & 0xc0 == 0 {
            p += 1;
            continue;
        }
        if let (Some((Op::Val(v1, l1), _)), Some((Op::Val(v2, l2), _))) =
            (op_at(hll, p), op_at(hll, p + 1))
            && v1 == v2
            && l1 + l2 <= SPARSE_VAL_MAX_LEN
        {
            hll[p + 1] = val_op(v1, l1 + l2);
            hll.remove(p);
            continue;
        }
        p += 1;
    }
}

fn promote(hll: &mut Vec<u8>, index: usize, count: u8) -> Result<bool, HllError> {
    if !sparse_to_dense(hll) {
        return Err(HllError::Corrupted);
    }
    Ok(dense_raise(hll, index, count))
}

fn invalidate(hll: &mut [u8]) {
    if let Some(b) = hll.get_mut(15) {
        *b |= 0x80;
    }
}

/// `hllAdd`: adds one element; `Ok(changed)`.
fn add(hll: &mut Vec<u8>, ele: &[u8]) -> Result<bool, HllError> {
    let (index, count) = pat_len(ele);
    match hll.get(4) {
        Some(&DENSE) => Ok(dense_raise(hll, index, count)),
        Some(&SPARSE) => sparse_set(hll, index, count),
        _ => Err(HllError::Corrupted),
    }
}

/// `hllMerge`: raises `max` to this HLL's registers; `false` if it is corrupt.
fn merge_into(max: &mut [u8; REGISTERS], hll: &[u8]) -> bool {
    if hll.get(4) == Some(&DENSE) {
        let regs = hll.get(HDR..).unwrap_or_default();
        for (i, m) in max.iter_mut().enumerate() {
            *m = (*m).max(dense_get(regs, i));
        }
        true
    } else {
        sparse_walk(hll, |i, v| {
            if let Some(m) = max.get_mut(i) {
                *m = (*m).max(v);
            }
        })
    }
}

fn sigma(mut x: f64) -> f64 {
    if x == 1.0 {
        return f64::INFINITY;
    }
    let mut y = 1.0;
    let mut z = x;
    loop {
        x *= x;
        let z_prime = z;
        z += x * y;
        y += y;
        if z_prime == z {
            return z;
        }
    }
}

fn tau(mut x: f64) -> f64 {
    if x == 0.0 || x == 1.0 {
        return 0.0;
    }
    let mut y = 1.0;
    let mut z = 1.0 - x;
    loop {
        x = x.sqrt();
        let z_prime = z;
        y *= 0.5;
        z -= (1.0 - x) * (1.0 - x) * y;
        if z_prime == z {
            return z / 3.0;
        }
    }
}

/// `hllCount` over a register histogram (Ertl's improved estimator).
fn estimate(histo: &[u64; 64]) -> u64 {
    let m = REGISTERS as f64;
    let q = Q as usize;
    let mut z = m * tau((m - histo[q + 1] as f64) / m);
    for j in (1..=q).rev() {
        z += histo[j] as f64;
        z *= 0.5;
    }
    z += m * sigma(histo[0] as f64 / m);
    (ALPHA_INF * m * m / z).round() as u64
}

/// The cardinality of a valid HLL string, or `Err` if its sparse form is corrupt.
fn count(hll: &[u8]) -> Result<u64, HllError> {
    let mut histo = [0u64; 64];
    if hll.get(4) == Some(&DENSE) {
        let regs = hll.get(HDR..).unwrap_or_default();
        for i in 0..REGISTERS {
            histo[usize::from(dense_get(regs, i))] += 1;
        }
    } else {
        // `hllSparseRegHisto`: every opcode counts, even past the last register.
        let mut idx = 0usize;
        let mut p = HDR;
        while let Some((op, len)) = op_at(hll, p) {
            match op {
                Op::Zero(n) | Op::XZero(n) => histo[0] += n as u64,
                Op::Val(v, n) => histo[usize::from(v)] += n as u64,
            }
            idx = idx.saturating_add(match op {
                Op::Zero(n) | Op::XZero(n) | Op::Val(_, n) => n,
            });
            p += len;
        }
        if idx != REGISTERS {
            return Err(HllError::Corrupted);
        }
    }
    Ok(estimate(&histo))
}

fn raw_count(max: &[u8; REGISTERS]) -> u64 {
    let mut histo = [0u64; 64];
    for &r in max.iter() {
        histo[usize::from(r & 63)] += 1;
    }
    estimate(&histo)
}

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let reply = match name {
        "pfadd" => pfadd(db, now, args),
        "pfcount" => pfcount(db, now, args),
        "pfmerge" => pfmerge(db, now, args),
        "pfdebug" => pfdebug(db, now, args),
        "pfselftest" => Ok(Reply::Ok),
        _ => return None,
    };
    Some(reply.unwrap_or_else(Reply::Error))
}

fn hll_err(e: HllError) -> ErrorReply {
    ErrorReply::Hll(e)
}

/// The HLL string at `key`: `Ok(None)` if there is no key, WRONGTYPE for another type or a
/// string that is not an HLL.
fn read<'a>(db: &'a Db, key: &[u8], now: i64) -> Result<Option<&'a [u8]>, ErrorReply> {
    match db.value(key, now) {
        None => Ok(None),
        Some(Value::Str(v)) if is_hll(v) => Ok(Some(v)),
        Some(Value::Str(_)) => Err(hll_err(HllError::NotHll)),
        Some(_) => Err(ErrorReply::WrongType),
    }
}

fn arg(args: &[Vec<u8>], i: usize) -> &[u8] {
    args.get(i).map(Vec::as_slice).unwrap_or_default()
}

fn pfadd(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Result<Reply, ErrorReply> {
    let key = arg(args, 1);
    let (mut hll, mut updated) = match read(db, key, now)? {
        None => (new_hll(), true),
        Some(v) => (v.to_vec(), false),
    };
    let before = hll.clone();
    let mut failed = None;
    for ele in args.iter().skip(2) {
        match add(&mut hll, ele) {
            Ok(changed) => updated |= changed,
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
    }
    if updated && failed.is_none() {
        invalidate(&mut hll);
    }
    if hll != before || db.value(key, now).is_none() {
        db.insert(key, Value::Str(hll), now, true);
        db.set_str_encoding(key, "raw");
    }
    match failed {
        Some(e) => Err(hll_err(e)),
        None => Ok(Reply::Int(i64::from(updated))),
    }
}

fn pfcount(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Result<Reply, ErrorReply> {
    if args.len() > 2 {
        let mut max = [0u8; REGISTERS];
        for key in args.iter().skip(1) {
            if let Some(hll) = read(db, key, now)?
                && !merge_into(&mut max, hll)
            {
                return Err(hll_err(HllError::Corrupted));
            }
        }
        return Ok(Reply::Int(raw_count(&max) as i64));
    }
    let key = arg(args, 1);
    let Some(hll) = read(db, key, now)? else {
        return Ok(Reply::Int(0));
    };
    if hll[15] & 0x80 == 0 {
        let mut card = [0u8; 8];
        card.copy_from_slice(&hll[8..16]);
        return Ok(Reply::Int(u64::from_le_bytes(card) as i64));
    }
    let card = count(hll).map_err(hll_err)?;
    let mut hll = hll.to_vec();
    hll[8..16].copy_from_slice(&card.to_le_bytes());
    db.insert(key, Value::Str(hll), now, true);
    db.set_str_encoding(key, "raw");
    Ok(Reply::Int(card as i64))
}

fn pfmerge(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Result<Reply, ErrorReply> {
    let mut max = [0u8; REGISTERS];
    let mut use_dense = false;
    for key in args.iter().skip(1) {
        if let Some(hll) = read(db, key, now)? {
            use_dense |= hll[4] == DENSE;
            if !merge_into(&mut max, hll) {
                return Err(hll_err(HllError::Corrupted));
            }
        }
    }
    let dest = arg(args, 1);
    let mut hll = match read(db, dest, now)? {
        None => new_hll(),
        Some(v) => v.to_vec(),
    };
    if use_dense && !sparse_to_dense(&mut hll) {
        db.insert(dest, Value::Str(hll), now, true);
        db.set_str_encoding(dest, "raw");
        return Err(hll_err(HllError::Corrupted));
    }
    for (i, &m) in max.iter().enumerate() {
        if m == 0 {
            continue;
        }
        if hll[4] == DENSE {
            dense_raise(&mut hll, i, m);
        } else {
            let _ = sparse_set(&mut hll, i, m);
        }
    }
    invalidate(&mut hll);
    db.insert(dest, Value::Str(hll), now, true);
    db.set_str_encoding(dest, "raw");
    Ok(Reply::Ok)
}

fn pfdebug(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Result<Reply, ErrorReply> {
    let sub_raw = arg(args, 1);
    // Redis formats it with `%s` (it stops at a NUL) and turns line breaks into spaces.
    let sub = String::from_utf8_lossy(sub_raw.split(|&b| b == 0).next().unwrap_or_default())
        .replace(['\r', '\n'], " ");
    let key = arg(args, 2);
    let Some(hll) = read(db, key, now)? else {
        return Err(hll_err(HllError::DebugNoKey));
    };
    let mut hll = hll.to_vec();
    let arity = |sub: &str| {
        hll_err(HllError::DebugArity {
            sub: sub.to_owned(),
        })
    };
    let lower = sub.to_ascii_lowercase();
    match lower.as_str() {
        "getreg" | "todense" => {
            if args.len() != 3 {
                return Err(arity(&sub));
            }
            let converted = hll[4] == SPARSE;
            if converted {
                if !sparse_to_dense(&mut hll) {
                    return Err(hll_err(HllError::Corrupted));
                }
                db.insert(key, Value::Str(hll.clone()), now, true);
                db.set_str_encoding(key, "raw");
            }
            if lower == "todense" {
                return Ok(Reply::Int(i64::from(converted)));
            }
            let regs = hll.get(HDR..).unwrap_or_default();
            Ok(Reply::Array(
                (0..REGISTERS)
                    .map(|i| Reply::Int(i64::from(dense_get(regs, i))))
                    .collect(),
            ))
        }
        "decode" => {
            if args.len() != 3 {
                return Err(arity(&sub));
            }
            if hll[4] != SPARSE {
                return Err(hll_err(HllError::DebugNotSparse));
            }
            let mut out = Vec::new();
            let mut p = HDR;
            while let Some((op, len)) = op_at(&hll, p) {
                out.push(match op {
                    Op::Zero(n) => format!("z:{n}"),
                    Op::XZero(n) => format!("Z:{n}"),
                    Op::Val(v, n) => format!("v:{v},{n}"),
                });
                p += len;
            }
            Ok(Reply::Bulk(Some(out.join(" ").into_bytes())))
        }
        "encoding" => {
            if args.len() != 3 {
                return Err(arity(&sub));
            }
            let name = if hll[4] == DENSE { "dense" } else { "sparse" };
            Ok(Reply::Status(name.to_owned()))
        }
        _ => Err(hll_err(HllError::DebugUnknown { sub })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty HLL is Redis's 18 bytes: the header and one XZERO of 16384 registers
    /// (`GET` after `PFADD h` on redis-server 7.0.15: "HYLL\x01\x00…\x00\x7f\xff").
    #[test]
    fn an_empty_hll_is_one_xzero() {
        let h = new_hll();
        assert_eq!(h.len(), 18);
        assert_eq!(&h[16..], b"\x7f\xff");
        assert_eq!(count(&h), Ok(0));
    }
}
