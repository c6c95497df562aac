//! The simulator's own pseudo-random numbers: SplitMix64 from a seed, so a run is a function
//! of its seed (the core never reads a clock or the system's randomness).

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough for delays and picks.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), like `random() % n`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// True with probability `p` (clamped to 0..=1).
    pub fn chance(&mut self, p: f64) -> bool {
        if p <= 0.0 {
            return false;
        }
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// 40 lowercase hex digits: a node name as `getRandomHexChars` makes one.
    pub fn node_name(&mut self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut s = String::with_capacity(40);
        while s.len() < 40 {
            let mut v = self.next_u64();
            for _ in 0..16 {
                if s.len() == 40 {
                    break;
                }
                s.push(HEX[(v & 15) as usize] as char);
                v >>= 4;
            }
        }
        s
    }
}
