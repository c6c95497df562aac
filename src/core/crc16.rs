//! CRC-16/XMODEM, the checksum Redis Cluster hashes keys with (`crc16.c` in the Redis source).
//!
//! Polynomial 0x1021, initial value 0, no reflection, no final XOR. The check value of the
//! nine ASCII bytes `123456789` is `0x31C3`. Because the register starts at zero, leading
//! `0x00` bytes leave it at zero: `\x00`, `\x00\x00` and the empty key all hash to 0.

/// The polynomial, in the usual MSB-first notation.
pub const POLY: u16 = 0x1021;

/// One entry per value of the register's high byte XOR the next input byte.
/// Built at compile time, so the page ships 512 bytes of table and no start-up work.
pub const TABLE: [u16; 256] = build_table();

const fn build_table() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = (i as u16) << 8;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ POLY
            } else {
                crc << 1
            };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
}

/// Feeds one byte into the register and returns the new register value.
#[inline]
pub const fn step(crc: u16, byte: u8) -> u16 {
    (crc << 8) ^ TABLE[((crc >> 8) as u8 ^ byte) as usize]
}

/// CRC-16/XMODEM of `bytes`.
///
/// ```
/// assert_eq!(slotscope::core::crc16::crc16(b"123456789"), 0x31C3);
/// assert_eq!(slotscope::core::crc16::crc16(b""), 0);
/// ```
pub fn crc16(bytes: &[u8]) -> u16 {
    bytes.iter().fold(0, |crc, &b| step(crc, b))
}

/// One step of the register, for the page's "byte by byte" view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterStep {
    /// Index of the byte within the hashed part.
    pub idx: usize,
    /// The byte fed in.
    pub byte: u8,
    /// The register before the byte.
    pub before: u16,
    /// The table index used: high byte of the register XOR the byte.
    pub table_idx: u8,
    /// The register after the byte.
    pub after: u16,
}

/// The register after each byte of `bytes`, in order (lazily, so a 64 KB key costs nothing
/// until someone asks to see it).
pub fn register_steps(bytes: &[u8]) -> impl Iterator<Item = RegisterStep> + '_ {
    bytes.iter().enumerate().scan(0u16, |crc, (idx, &byte)| {
        let before = *crc;
        let table_idx = (before >> 8) as u8 ^ byte;
        *crc = step(before, byte);
        Some(RegisterStep {
            idx,
            byte,
            before,
            table_idx,
            after: *crc,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bitwise definition, one bit at a time, to check the table against.
    fn crc16_bitwise(bytes: &[u8]) -> u16 {
        let mut crc: u16 = 0;
        for &b in bytes {
            crc ^= (b as u16) << 8;
            for _ in 0..8 {
                crc = if crc & 0x8000 != 0 {
                    (crc << 1) ^ POLY
                } else {
                    crc << 1
                };
            }
        }
        crc
    }

    #[test]
    fn check_value_is_0x31c3() {
        assert_eq!(crc16(b"123456789"), 0x31C3);
    }

    #[test]
    fn table_matches_the_bitwise_definition() {
        for i in 0..=255u8 {
            assert_eq!(crc16(&[i]), crc16_bitwise(&[i]), "byte {i:#04x}");
        }
        let long: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 3) as u8).collect();
        assert_eq!(crc16(&long), crc16_bitwise(&long));
    }

    #[test]
    fn leading_zero_bytes_do_not_change_the_crc() {
        assert_eq!(crc16(b"\0\0\0abc"), crc16(b"abc"));
    }

    #[test]
    fn register_steps_end_at_the_crc() {
        let steps: Vec<_> = register_steps(b"123456789").collect();
        assert_eq!(steps.len(), 9);
        assert_eq!(steps[0].before, 0);
        assert_eq!(steps.last().unwrap().after, 0x31C3);
        for w in steps.windows(2) {
            assert_eq!(w[0].after, w[1].before);
        }
    }
}
