//! Shared by the fuzz targets that check the kernel: Redis's rules written the plain way, as
//! oracles (a bitwise CRC-16/XMODEM and the naive hash-tag scan of the fixtures README).

/// CRC-16/XMODEM bit by bit (polynomial 0x1021, initial value 0, no reflection).
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc = 0u16;
    for &b in bytes {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                crc << 1 ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// Redis's rule: what lies between the first `{` and the first `}` after it, if not empty.
pub fn tag(key: &[u8]) -> Option<&[u8]> {
    let open = key.iter().position(|&b| b == b'{')?;
    let len = key[open + 1..].iter().position(|&b| b == b'}')?;
    (len > 0).then(|| &key[open + 1..open + 1 + len])
}

/// The slot of `key` by the two rules above.
pub fn slot(key: &[u8]) -> u16 {
    crc16(tag(key).unwrap_or(key)) & 0x3fff
}
