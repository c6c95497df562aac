//! The bytes of a link: LEB128 numbers, length-prefixed strings, a bounds-checked reader, and
//! strict base64url without padding.

use super::Problem;
use crate::core::N_SLOTS;

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(super) fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Why a section body did not read.
pub(super) enum Bad {
    /// Malformed.
    Malformed,
    /// A text over its cap.
    TooLong,
}

pub(super) struct Reader<'a> {
    buf: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    pub(super) fn left(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub(super) fn byte(&mut self) -> Option<u8> {
        let b = *self.buf.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    pub(super) fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    /// A LEB128 number of at most 64 bits.
    pub(super) fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    /// A count of items that each take at least one byte (so a huge count is refused unread).
    pub(super) fn count(&mut self) -> Result<usize, Bad> {
        let n = self.varint().ok_or(Bad::Malformed)?;
        if n > self.left() as u64 {
            return Err(Bad::Malformed);
        }
        Ok(n as usize)
    }

    pub(super) fn string(&mut self, max: usize) -> Result<String, Bad> {
        let n = self.varint().ok_or(Bad::Malformed)?;
        if n > self.left() as u64 {
            return Err(Bad::Malformed);
        }
        if n > max as u64 {
            return Err(Bad::TooLong);
        }
        let b = self.bytes(n as usize).ok_or(Bad::Malformed)?;
        String::from_utf8(b.to_vec()).map_err(|_| Bad::Malformed)
    }

    pub(super) fn slot(&mut self) -> Result<u16, Bad> {
        match self.varint() {
            Some(s) if s < N_SLOTS as u64 => Ok(s as u16),
            _ => Err(Bad::Malformed),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// base64url without padding, strict: a payload has exactly one spelling.

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub(super) fn b64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn b64_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    } as u32)
}

/// The bytes of base64url `text`, and whether its end is loose: a last character that carries
/// no whole byte, or left-over bits that are not zero. An encoder never writes either, so a loose
/// end is a link cut short (its sections then run out) or a changed last character.
pub(super) fn b64_decode(text: &str) -> Result<(Vec<u8>, bool), Problem> {
    let bytes = text.as_bytes();
    if !bytes.iter().all(|&c| b64_value(c).is_some()) {
        return Err(Problem::BadBase64);
    }
    let mut loose = false;
    let whole = match bytes.len() % 4 {
        1 => {
            loose = true;
            &bytes[..bytes.len() - 1]
        }
        _ => bytes,
    };
    let mut out = Vec::with_capacity(whole.len() / 4 * 3 + 2);
    for chunk in whole.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= b64_value(c).unwrap_or(0) << (18 - 6 * i);
        }
        let full = chunk.len() - 1;
        // Bits a shorter final group leaves over are zero in every link the page writes.
        if full < 3 && n & ((1u32 << (24 - 8 * full)) - 1) != 0 {
            loose = true;
        }
        for i in 0..full {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Ok((out, loose))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_and_refuses_a_second_spelling() {
        for n in 0..10 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 200) as u8).collect();
            let text = b64_encode(&bytes);
            assert_eq!(b64_decode(&text).unwrap(), (bytes, false));
        }
        assert_eq!(b64_encode(b"\xff"), "_w");
        // Another spelling of the same byte, or a character carrying no whole byte: a loose end.
        assert_eq!(b64_decode("_x"), Ok((vec![0xff], true)));
        assert_eq!(
            b64_decode("abcde"),
            Ok((b64_decode("abcd").unwrap().0, true))
        );
        assert_eq!(b64_decode("ab=c"), Err(Problem::BadBase64));
    }
}
