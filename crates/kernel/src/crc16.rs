//! CRC-16/XMODEM, the checksum Redis Cluster hashes keys with (`crc16.c` in the Redis source).
//!
//! Polynomial 0x1021, initial value 0, no reflection, no final XOR. The check value of the
//! nine ASCII bytes `123456789` is `0x31C3`. Because the register starts at zero, leading
//! `0x00` bytes leave it at zero: `\x00`, `\x00\x00` and the empty key all hash to 0.
//!
//! # How [`crc16`] is fast
//!
//! The byte-at-a-time loop ([`crc16_bytewise`], the reference) is one long chain: each byte's
//! table index depends on the register the previous byte left. [`crc16`] instead takes 16
//! bytes at a time ("slicing-by-16"). The CRC is linear over XOR, so the register after a
//! 16-byte block is the XOR of what each byte contributes on its own, and what a byte
//! contributes depends only on its value and on how many bytes follow it in the block.
//! [`BLOCK_TABLE`]`[j][b]` holds that contribution for byte `b` at position `j`; the 16
//! look-ups of a block do not depend on one another, so the CPU does them side by side.
//! The register carried in from earlier blocks is XORed into the block's first two bytes: the
//! byte-at-a-time step XORs the register's high byte into the next byte's table index, and
//! shifts its low byte up to meet the byte after; two bytes later it has been shifted out.
//!
//! A key's length is rarely a multiple of 16. Rather than a byte-at-a-time tail loop, the
//! *first* `len % 16` bytes are treated as a block padded with zeros **in front**: leading zero
//! bytes fed into a zero register leave it at zero (and `BLOCK_TABLE[j][0] == 0`), so the
//! padding changes nothing and its look-ups can be skipped. Every byte after that is in a
//! full block.
//!
//! The tables are 16 × 256 × 2 bytes = 8 KiB, built by one `const fn`. Natively it runs at
//! compile time. In wasm it runs once, on first use (about 4096 table steps): the page then
//! downloads no table at all, 8 KB less to send (tables do not compress).

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

/// Bytes [`crc16`] takes at a time.
pub const BLOCK: usize = 16;

/// `BLOCK_TABLE[j][b]`: the CRC, from a zero register, of byte `b` at position `j` of a
/// 16-byte block followed by the `15 - j` zero bytes that fill the block. So
/// `BLOCK_TABLE[15]` is [`TABLE`], and each row before it is the row after it fed one more
/// zero byte. Natively a static built at compile time; see [`block_table`].
#[cfg(not(target_arch = "wasm32"))]
pub static BLOCK_TABLE: [[u16; 256]; BLOCK] = build_block_table();

/// The [`BLOCK_TABLE`]: natively the compile-time static; in wasm built by the same `const fn`
/// on first use, so it is not part of the download.
#[inline(always)]
pub fn block_table() -> &'static [[u16; 256]; BLOCK] {
    #[cfg(not(target_arch = "wasm32"))]
    {
        &BLOCK_TABLE
    }
    #[cfg(target_arch = "wasm32")]
    {
        static TABLE_AT_RUN_TIME: std::sync::OnceLock<[[u16; 256]; BLOCK]> =
            std::sync::OnceLock::new();
        TABLE_AT_RUN_TIME.get_or_init(build_block_table)
    }
}

const fn build_block_table() -> [[u16; 256]; BLOCK] {
    let mut t = [[0u16; 256]; BLOCK];
    t[BLOCK - 1] = TABLE;
    let mut j = BLOCK - 1;
    while j > 0 {
        let mut b = 0;
        while b < 256 {
            // One zero byte more after `b`.
            t[j - 1][b] = step(t[j][b], 0);
            b += 1;
        }
        j -= 1;
    }
    t
}

/// Feeds one byte into the register and returns the new register value.
#[inline]
pub const fn step(crc: u16, byte: u8) -> u16 {
    (crc << 8) ^ TABLE[((crc >> 8) as u8 ^ byte) as usize]
}

/// Feeds one full 16-byte block into the register `crc`.
#[inline(always)]
fn fold_block(t: &[[u16; 256]; BLOCK], crc: u16, block: &[u8; BLOCK]) -> u16 {
    // Bytes 2..16 do not depend on the register, so they are summed first: the CPU works on
    // them while the previous block is still finishing, and only two look-ups wait for it.
    let mut rest = 0;
    for (row, &b) in t[2..].iter().zip(&block[2..]) {
        rest ^= row[b as usize];
    }
    // The carried-in register joins the first two bytes.
    let [hi, lo] = crc.to_be_bytes();
    t[0][(block[0] ^ hi) as usize] ^ t[1][(block[1] ^ lo) as usize] ^ rest
}

/// CRC-16/XMODEM of `bytes`, 16 bytes at a time (see the module notes).
///
/// ```
/// assert_eq!(slotscope_kernel::crc16::crc16(b"123456789"), 0x31C3);
/// assert_eq!(slotscope_kernel::crc16::crc16(b""), 0);
/// ```
// Not `#[inline]`: callers in the size-first crate must call this speed-compiled copy.
pub fn crc16(bytes: &[u8]) -> u16 {
    // `head` is the first `len % 16` bytes, `blocks` the rest in 16-byte arrays.
    let (head, blocks) = bytes.as_rchunks::<BLOCK>();
    // The head is a block whose first `16 - head.len()` bytes are zero: those contribute
    // nothing from a zero register, so only the head's own positions are looked up.
    let t = block_table();
    let crc = t[BLOCK - head.len()..]
        .iter()
        .zip(head)
        .fold(0, |acc, (row, &b)| acc ^ row[b as usize]);
    blocks
        .iter()
        .fold(crc, |crc, block| fold_block(t, crc, block))
}

/// CRC-16/XMODEM of `bytes`, one byte at a time through [`TABLE`]: the reference that
/// [`crc16`] is tested against, and the baseline the benches compare it with.
///
/// ```
/// assert_eq!(slotscope_kernel::crc16::crc16_bytewise(b"123456789"), 0x31C3);
/// ```
pub fn crc16_bytewise(bytes: &[u8]) -> u16 {
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
        assert_eq!(crc16_bytewise(&long), crc16_bitwise(&long));
    }

    #[test]
    fn block_table_rows_are_bytes_followed_by_zeros() {
        for j in 0..BLOCK {
            for b in [0u8, 1, 0x7b, 0x80, 0xff] {
                let mut block = [0u8; BLOCK];
                block[j] = b;
                assert_eq!(
                    block_table()[j][b as usize],
                    crc16_bitwise(&block),
                    "j={j} b={b}"
                );
            }
        }
        assert_eq!(block_table()[BLOCK - 1], TABLE);
    }

    /// Every length from 0 to 100 crosses the head/block boundary at a different place.
    #[test]
    fn sliced_matches_bytewise_at_every_length() {
        let data: Vec<u8> = (0..100u32).map(|i| (i * 131 + 17) as u8).collect();
        for n in 0..=data.len() {
            for start in [0, 1, 7] {
                let s = &data[start.min(n)..n];
                assert_eq!(crc16(s), crc16_bytewise(s), "len {}", s.len());
                assert_eq!(crc16(s), crc16_bitwise(s), "len {}", s.len());
            }
        }
    }

    #[test]
    fn leading_zero_bytes_do_not_change_the_crc() {
        assert_eq!(crc16(b"\0\0\0abc"), crc16(b"abc"));
        assert_eq!(crc16(&[0u8; 40]), 0);
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

/// Random inputs against the reference (native only: proptest is a native dev-dependency).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sliced_equals_bytewise_short(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            prop_assert_eq!(crc16(&bytes), crc16_bytewise(&bytes));
        }

        /// The register carried between blocks: a key cut anywhere gives the same CRC as
        /// the bytewise loop resumed from the first part's register.
        #[test]
        fn split_anywhere(bytes in proptest::collection::vec(any::<u8>(), 0..300), cut in 0usize..300) {
            let cut = cut.min(bytes.len());
            let first = crc16(&bytes[..cut]);
            let resumed = bytes[cut..].iter().fold(first, |c, &b| step(c, b));
            prop_assert_eq!(resumed, crc16(&bytes));
        }
    }

    proptest! {
        // Fewer cases: each is up to 70 KB, past the 64 KB keys of the fixtures.
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn sliced_equals_bytewise_long(
            bytes in proptest::collection::vec(any::<u8>(), 1000..70_000),
        ) {
            prop_assert_eq!(crc16(&bytes), crc16_bytewise(&bytes));
        }
    }
}
