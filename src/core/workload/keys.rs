//! Generated keys: templates with one `%d`, H3-like route-cache pairs from a seed, and the errors a generator or plan refuses with.

use super::*;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Why a template with one `%d` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateError {
    /// The template has no `%d`.
    NoPlaceholder {
        /// The template as given.
        template: String,
    },
    /// The template has more than one `%d`.
    ManyPlaceholders {
        /// The template as given.
        template: String,
        /// How many `%d` it holds.
        count: usize,
    },
}

/// Why keys could not be generated or an experiment run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// The key template is not usable.
    Template(TemplateError),
    /// More keys than [`MAX_KEYS`] were asked for.
    TooManyKeys {
        /// How many were asked for.
        asked: u64,
    },
    /// The number of sub-tags is outside `1..=`[`MAX_SUB_TAGS`].
    SubTags {
        /// The number given.
        k: u32,
    },
}

impl From<TemplateError> for PlanError {
    fn from(e: TemplateError) -> Self {
        PlanError::Template(e)
    }
}

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

/// A text with exactly one `%d`, where a decimal number goes. Every other character, `%`
/// included, is taken literally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    prefix: String,
    suffix: String,
}

impl Template {
    /// Parses `template`; it must contain `%d` exactly once.
    ///
    /// ```
    /// use slotscope::core::workload::Template;
    /// let t = Template::parse("user:%d:profile").unwrap();
    /// let mut buf = Vec::new();
    /// t.write(&mut buf, 42);
    /// assert_eq!(buf, b"user:42:profile");
    /// assert!(Template::parse("user").is_err());
    /// ```
    pub fn parse(template: &str) -> Result<Template, TemplateError> {
        let count = template.matches("%d").count();
        match template.split_once("%d") {
            Some((prefix, suffix)) if count == 1 => Ok(Template {
                prefix: prefix.to_owned(),
                suffix: suffix.to_owned(),
            }),
            Some(_) => Err(TemplateError::ManyPlaceholders {
                template: template.to_owned(),
                count,
            }),
            None => Err(TemplateError::NoPlaceholder {
                template: template.to_owned(),
            }),
        }
    }

    /// The text before `%d`.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The text after `%d`.
    pub fn suffix(&self) -> &str {
        &self.suffix
    }

    /// Appends the template with `n` (in decimal) in place of `%d` to `buf`.
    pub fn write(&self, buf: &mut Vec<u8>, n: u64) {
        buf.extend_from_slice(self.prefix.as_bytes());
        push_decimal(buf, n);
        buf.extend_from_slice(self.suffix.as_bytes());
    }

    /// The template filled with `n`.
    pub fn fill(&self, n: u64) -> String {
        let mut out = String::with_capacity(self.prefix.len() + 20 + self.suffix.len());
        out.push_str(&self.prefix);
        out.push_str(&n.to_string());
        out.push_str(&self.suffix);
        out
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%d{}", self.prefix, self.suffix)
    }
}

// ---------------------------------------------------------------------------------------------
// Key generators
// ---------------------------------------------------------------------------------------------

pub(super) fn check_count(n: u64) -> Result<u32, PlanError> {
    match u32::try_from(n) {
        Ok(n) if (n as usize) <= MAX_KEYS => Ok(n),
        _ => Err(PlanError::TooManyKeys { asked: n }),
    }
}

/// The keys `template` gives for every number in `first..end` (`user:%d` over `0..3` gives
/// `user:0`, `user:1`, `user:2`). An empty range gives no keys.
///
/// Fails if the template does not hold exactly one `%d` or the range holds more than
/// [`MAX_KEYS`] numbers.
///
/// ```
/// use slotscope::core::workload::numbered_keys;
/// let keys = numbered_keys("user:%d", 7..10).unwrap();
/// assert_eq!(keys.iter().collect::<Vec<_>>(), [&b"user:7"[..], b"user:8", b"user:9"]);
/// ```
pub fn numbered_keys(template: &str, range: core::ops::Range<u64>) -> Result<KeySample, PlanError> {
    Ok(KeyMaker::numbered(template, range)?.make_all())
}

/// SplitMix64 (Steele, Lea and Flood, 2014; the constants of Vigna's reference
/// `splitmix64.c`): a 64-bit state advanced by the golden-ratio increment
/// `0x9e3779b97f4a7c15`, each output mixed by two xor-shift-multiply steps
/// (`0xbf58476d1ce4e5b9`, `0x94d049bb133111eb`). Only `u64` wrapping arithmetic, so native
/// and wasm32 builds draw the same numbers from the same seed. Not for cryptography.
///
/// ```
/// use slotscope::core::workload::SplitMix64;
/// let mut rng = SplitMix64::new(1234567);
/// assert_eq!(rng.next_u64(), 6457827717110365317);
/// assert_eq!(rng.next_u64(), 3203168211198807973);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), by Lemire's multiply-shift: the high 64 bits of
    /// `next_u64() * n`. No rejection step, so it always takes one draw; the bias is below
    /// `n / 2^64`.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// H3's resolution of the generated cells (about 0.1 km², a city block).
pub const H3_RESOLUTION: u64 = 9;
/// H3 has 122 base cells (0..=121).
const H3_BASE_CELLS: u64 = 122;
/// How many leading digits a route's destination shares with its origin: the two cells are
/// near each other, like the two ids of the case study's keys.
const H3_SHARED_DIGITS: u64 = 6;

/// An H3-like cell index: mode 1 (cell) at bit 59, [`H3_RESOLUTION`] at bits 52..56, the
/// base cell at bits 45..52, then 15 three-bit digits, the first `H3_RESOLUTION` given and
/// the rest 7 ("unused"), as H3 lays out a cell index.
pub(super) fn h3_cell(base: u64, digits: &[u64; H3_RESOLUTION as usize]) -> u64 {
    let mut h = (1u64 << 59) | (H3_RESOLUTION << 52) | ((base & 0x7f) << 45);
    for r in 1..=15u64 {
        let d = digits.get(r as usize - 1).copied().unwrap_or(7) & 7;
        h |= d << ((15 - r) * 3);
    }
    h
}

/// Appends the low 60 bits of `v` as 15 lower-case hex digits (how H3 writes a cell).
pub(super) fn push_hex15(buf: &mut Vec<u8>, v: u64) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut digits = [0u8; 15];
    for (k, d) in digits.iter_mut().rev().enumerate() {
        *d = HEX[((v >> (k * 4)) & 0xf) as usize];
    }
    buf.extend_from_slice(&digits);
}

/// `n` route-cache keys like the case study's, `prefix` then two H3-like cell ids joined by
/// `:` (`route:8928308280fffff:8928308281bffff` with prefix `route:`), drawn from `seed`
/// with [`SplitMix64`].
///
/// Each origin is a resolution-9 cell with a random base cell (0..=121) and nine random
/// digits (0..=6); its destination keeps the base cell and the first six digits and draws the
/// last three again. The ids are laid out exactly as H3 cell indexes are (mode 1, resolution,
/// base cell, digits, unused digits 7), but pentagon rules are ignored, so a few ids would not
/// be valid H3 cells. The same seed gives the same keys on every platform. Two keys can repeat
/// (about one chance in 10^16 per pair).
///
/// Fails with more than [`MAX_KEYS`] keys.
///
/// ```
/// use slotscope::core::workload::h3_pair_keys;
/// let keys = h3_pair_keys("route:", 2, 42).unwrap();
/// let first = keys.get(0).unwrap();
/// assert_eq!(first.len(), "route:".len() + 15 + 1 + 15);
/// assert_eq!(keys, h3_pair_keys("route:", 2, 42).unwrap());
/// ```
pub fn h3_pair_keys(prefix: &str, n: u32, seed: u64) -> Result<KeySample, PlanError> {
    Ok(KeyMaker::h3_pairs(prefix, n, seed)?.make_all())
}

/// A generator's keys made a slice at a time ([`KeyMaker::make`]): the planner makes a
/// million keys in pieces so the page keeps answering (issue 17). The keys are those of
/// [`numbered_keys`] and [`h3_pair_keys`] (which make them all at once), wherever the
/// pieces end.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyMaker {
    keys: KeySample,
    total: u32,
    how: Making,
}

#[derive(Clone, Debug, PartialEq)]
enum Making {
    Numbered { template: Template, first: u64 },
    H3 { prefix: String, rng: SplitMix64 },
}

impl KeyMaker {
    /// The keys of [`numbered_keys`], none made yet; its errors.
    pub fn numbered(template: &str, range: core::ops::Range<u64>) -> Result<Self, PlanError> {
        let template = Template::parse(template)?;
        let total = check_count(range.end.saturating_sub(range.start))?;
        Ok(KeyMaker::new(
            total,
            Making::Numbered {
                template,
                first: range.start,
            },
        ))
    }

    /// The keys of [`h3_pair_keys`], none made yet; its errors.
    pub fn h3_pairs(prefix: &str, n: u32, seed: u64) -> Result<Self, PlanError> {
        let total = check_count(u64::from(n))?;
        let how = Making::H3 {
            prefix: prefix.to_string(),
            rng: SplitMix64::new(seed),
        };
        Ok(KeyMaker::new(total, how))
    }

    fn new(total: u32, how: Making) -> Self {
        KeyMaker {
            keys: KeySample::with_capacity(total as usize),
            total,
            how,
        }
    }

    /// How many keys it makes in all.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// How many keys it has made.
    pub fn made(&self) -> u32 {
        self.keys.len() as u32
    }

    /// Makes up to `max` more keys; says whether all are made.
    pub fn make(&mut self, max: u32) -> bool {
        let end = self.total.min(self.made().saturating_add(max));
        for i in self.made()..end {
            match &mut self.how {
                Making::Numbered { template, first } => self
                    .keys
                    .push_with(|buf| template.write(buf, *first + u64::from(i))),
                Making::H3 { prefix, rng } => self.keys.push_with(|buf| h3_pair(buf, prefix, rng)),
            }
        }
        self.made() == self.total
    }

    /// Makes every key left and returns them all.
    pub fn make_all(mut self) -> KeySample {
        self.make(u32::MAX);
        self.keys
    }

    /// The keys, once all are made (`None` before).
    pub fn finished(self) -> Option<KeySample> {
        (self.made() == self.total).then_some(self.keys)
    }
}

/// One route-cache key of [`h3_pair_keys`], drawn from `rng`, appended to `buf`.
fn h3_pair(buf: &mut Vec<u8>, prefix: &str, rng: &mut SplitMix64) {
    let base = rng.below(H3_BASE_CELLS);
    let mut digits = [0u64; H3_RESOLUTION as usize];
    for d in digits.iter_mut() {
        *d = rng.below(7);
    }
    let origin = h3_cell(base, &digits);
    for d in digits.iter_mut().skip(H3_SHARED_DIGITS as usize) {
        *d = rng.below(7);
    }
    let destination = h3_cell(base, &digits);
    buf.extend_from_slice(prefix.as_bytes());
    push_hex15(buf, origin);
    buf.push(b':');
    push_hex15(buf, destination);
}
