//! A `ScenarioSpec` as a few bytes for a share link, and back; decoding never panics and
//! rejects anything out of range (tampered links). Layout (version 1): `b'B'`, `1`, then
//! LEB128 varints: node timeout, masters, replica count, each replica's master, a flags byte
//! (bit 0 full coverage, bit 1 replica migration), seed, base port, until_ms, action count,
//! then per action the ms since the previous one, a tag byte and its arguments.

use super::{Action, Knobs, ScenarioSpec, MAX_UNTIL_MS};
use crate::{FailoverMode, MAX_NODES};

/// Why bytes are not a spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Not this format or version.
    BadHeader,
    /// The bytes end in the middle of a field.
    Truncated,
    /// A field is out of its range (a varint too long, a count or a time too large).
    OutOfRange,
    /// An unknown action tag or failover mode.
    UnknownTag,
    /// Bytes after the last action.
    Trailing,
    /// Not URL-safe base64.
    BadBase64,
}

const MAGIC: u8 = b'B';
const VERSION: u8 = 1;
/// The most actions a link carries.
pub const MAX_ACTIONS: usize = 10_000;

fn put(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, DecodeError> {
        let b = *self.bytes.get(self.at).ok_or(DecodeError::Truncated)?;
        self.at += 1;
        Ok(b)
    }
    fn var(&mut self) -> Result<u64, DecodeError> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let part = u64::from(b & 0x7f);
            if shift == 63 && part > 1 {
                return Err(DecodeError::OutOfRange);
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError::OutOfRange)
    }
    fn upto(&mut self, max: u64) -> Result<u64, DecodeError> {
        let v = self.var()?;
        if v > max {
            Err(DecodeError::OutOfRange)
        } else {
            Ok(v)
        }
    }
    fn node(&mut self) -> Result<u32, DecodeError> {
        Ok(self.upto(MAX_NODES as u64)? as u32)
    }
}

fn mode_byte(m: FailoverMode) -> u8 {
    match m {
        FailoverMode::Default => 0,
        FailoverMode::Force => 1,
        FailoverMode::Takeover => 2,
    }
}

/// The bytes of a spec.
pub fn encode(spec: &ScenarioSpec) -> Vec<u8> {
    let k = &spec.knobs;
    let mut out = vec![MAGIC, VERSION];
    put(&mut out, u64::from(k.node_timeout));
    put(&mut out, u64::from(k.masters));
    let replicas = &k.replica_of[..k.replica_of.len().min(MAX_NODES)];
    put(&mut out, replicas.len() as u64);
    for m in replicas {
        put(&mut out, u64::from(*m));
    }
    out.push(u8::from(k.require_full_coverage) | u8::from(k.allow_replica_migration) << 1);
    put(&mut out, k.seed);
    put(&mut out, u64::from(k.base_port));
    put(&mut out, spec.until_ms.min(MAX_UNTIL_MS));
    let script = &spec.script[..spec.script.len().min(MAX_ACTIONS)];
    put(&mut out, script.len() as u64);
    let mut prev = 0u64;
    for (t, a) in script {
        let t = (*t).clamp(prev, MAX_UNTIL_MS);
        put(&mut out, t - prev);
        prev = t;
        match *a {
            Action::Crash(n) => {
                out.push(0);
                put(&mut out, u64::from(n));
            }
            Action::Hang(n) => {
                out.push(1);
                put(&mut out, u64::from(n));
            }
            Action::Resume(n) => {
                out.push(2);
                put(&mut out, u64::from(n));
            }
            Action::Restart(n) => {
                out.push(3);
                put(&mut out, u64::from(n));
            }
            Action::Isolate(n) => {
                out.push(4);
                put(&mut out, u64::from(n));
            }
            Action::Heal => out.push(5),
            Action::Failover(n, m) => {
                out.push(6);
                put(&mut out, u64::from(n));
                out.push(mode_byte(m));
            }
            Action::Write { node, bytes } => {
                out.push(7);
                put(&mut out, u64::from(node));
                put(&mut out, u64::from(bytes));
            }
            Action::NoFailover(n, on) => {
                out.push(8);
                put(&mut out, u64::from(n));
                out.push(u8::from(on));
            }
            Action::Join { member } => {
                out.push(9);
                put(&mut out, u64::from(member));
            }
        }
    }
    out
}

/// A spec from bytes (see the module for the layout).
pub fn decode(bytes: &[u8]) -> Result<ScenarioSpec, DecodeError> {
    let mut r = Reader { bytes, at: 0 };
    if r.byte()? != MAGIC || r.byte()? != VERSION {
        return Err(DecodeError::BadHeader);
    }
    let node_timeout = r.upto(u64::from(u32::MAX))? as u32;
    let masters = r.upto(MAX_NODES as u64)? as u16;
    let count = r.upto(MAX_NODES as u64)? as usize;
    let mut replica_of = Vec::with_capacity(count.min(bytes.len()));
    for _ in 0..count {
        replica_of.push(r.upto(MAX_NODES as u64)? as u16);
    }
    let flags = r.byte()?;
    if flags > 3 {
        return Err(DecodeError::OutOfRange);
    }
    let seed = r.var()?;
    let base_port = r.upto(u64::from(u16::MAX))? as u16;
    let until_ms = r.upto(MAX_UNTIL_MS)?;
    let actions = r.upto(MAX_ACTIONS as u64)? as usize;
    let mut script = Vec::with_capacity(actions.min(bytes.len()));
    let mut t = 0u64;
    for _ in 0..actions {
        t = t.saturating_add(r.var()?);
        if t > MAX_UNTIL_MS {
            return Err(DecodeError::OutOfRange);
        }
        let a = match r.byte()? {
            0 => Action::Crash(r.node()?),
            1 => Action::Hang(r.node()?),
            2 => Action::Resume(r.node()?),
            3 => Action::Restart(r.node()?),
            4 => Action::Isolate(r.node()?),
            5 => Action::Heal,
            6 => {
                let n = r.node()?;
                let m = match r.byte()? {
                    0 => FailoverMode::Default,
                    1 => FailoverMode::Force,
                    2 => FailoverMode::Takeover,
                    _ => return Err(DecodeError::UnknownTag),
                };
                Action::Failover(n, m)
            }
            7 => Action::Write {
                node: r.node()?,
                bytes: r.upto(u64::from(u32::MAX))? as u32,
            },
            8 => {
                let n = r.node()?;
                let on = match r.byte()? {
                    0 => false,
                    1 => true,
                    _ => return Err(DecodeError::UnknownTag),
                };
                Action::NoFailover(n, on)
            }
            9 => Action::Join { member: r.node()? },
            _ => return Err(DecodeError::UnknownTag),
        };
        script.push((t, a));
    }
    if r.at != bytes.len() {
        return Err(DecodeError::Trailing);
    }
    Ok(ScenarioSpec {
        knobs: Knobs {
            node_timeout,
            masters,
            replica_of,
            require_full_coverage: flags & 1 != 0,
            allow_replica_migration: flags & 2 != 0,
            seed,
            base_port,
        },
        script,
        until_ms,
    })
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// URL-safe base64 without padding.
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 3);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(v >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// The bytes of URL-safe base64 (`=` padding and ASCII whitespace ignored; `+` and `/`
/// accepted too).
pub fn unbase64url(text: &str) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return Err(DecodeError::BadBase64),
        };
        acc = (acc << 6 | u32::from(v)) & 0xff_ffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}
