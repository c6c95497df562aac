//! Planning a batch of keys on a cluster: which slots and masters it touches, and what each way of sending it costs.
//!
//! # The case study
//!
//! A route cache answered each request with one `MGET` of hundreds of keys such as
//! `route:8928308280fffff:8928308281bffff` (two H3 cell ids). On a cluster that one command
//! is `CROSSSLOT`, so the client split it into one `MGET` per slot: hundreds of commands,
//! spread over every master, for every request. The fix was to give each master its own hash
//! tags (see [`super::tags`]) so that the keys one master holds can be fetched with a single
//! command, and to sort keys by slot before cutting a batch into chunks, so that each chunk
//! touches as few masters as possible ([`chunk_masters`]).
//!
//! # The cost model
//!
//! Every number [`plan`] reports follows these definitions:
//!
//! - A **command** is one Redis command (`GET` or `MGET`).
//! - A **round trip** is one exchange with one master: the client writes one or more commands
//!   to that master's connection, then reads all their replies. A pipeline (many commands
//!   written back to back before reading) is one round trip. Exchanges with different masters
//!   are counted separately, whether the client overlaps them in time or not: a client that
//!   waits for each in turn pays `round_trips` network latencies; one that talks to all
//!   masters at once pays about one per round trip to the busiest master.
//! - The **pipeline depth** of a strategy is the largest number of commands sent in one round
//!   trip. `commands_per_master[m]` is how many commands master `m` receives for the batch
//!   (its queue).
//! - Keys whose slot no master owns cannot be sent anywhere (Redis answers `CLUSTERDOWN Hash
//!   slot not served`). They form the group [`Plan::unserved`] and are left out of every
//!   strategy's counts.
//!
//! With `K` served keys, `S` slots and `M` masters touched:
//!
//! | strategy | round trips | commands | depth | keys in largest command | atomic together |
//! |---|---|---|---|---|---|
//! | [`Strategy::PerKey`]: one `GET` per key, each awaited | `K` | `K` | 1 | 1 | nothing |
//! | [`Strategy::PerSlot`]: one `MGET` per slot, pipelined per master (redis-py's `mget_nonatomic`, Lettuce) | `M` | `S` | most slots on one master | most keys in one slot | each slot's keys |
//! | [`Strategy::PerMaster`]: one `GET` per key, pipelined per master | `M` | `K` | most keys on one master | 1 | nothing |
//! | [`Strategy::Tagged`]: keys rewritten with their master's tag, one `MGET` per master | `M` | `M` | 1 | most keys on one master | each master's keys |
//!
//! "Atomic together" means one command reads those keys at one instant: a multi-key command
//! on one slot is atomic, a pipeline is not. For [`Strategy::Tagged`] each key keeps its
//! master: it is rewritten as `{tag}key` with a tag that master owns ([`super::tags::retag`]).
//!
//! # Generated keys
//!
//! [`numbered_keys`] fills a template with one `%d` over a range (`user:%d`, `0..100000`).
//! [`h3_pair_keys`] makes route-cache keys from a caller-given seed with [`SplitMix64`]. Both
//! return a [`KeySample`]: all keys back to back in one buffer, never one `String` per key.
//! At most [`MAX_KEYS`] keys are generated or planned.
//!
//! # The hot-spot experiment
//!
//! [`hot_spot`] puts 100,000 keys `{user1}:item:<i>`, `{user1:<i mod k>}:item:<i>` or
//! `key:<i>` on a cluster and counts keys and tags per master; on
//! [`SlotMap::fixture_cluster`] it reproduces the `DBSIZE` counts of the fixtures'
//! `distribution.tsv`, recorded from a real Redis 7.0.15 cluster.

use super::compare::{push_decimal, KeySample};
use super::escape::format_key;
use super::hashtag::{hashed_span, TagRule};
use super::slot::{key_slot, N_SLOTS};
use super::topology::SlotMap;
use core::fmt;
use slotscope_kernel::slot::count_numbered_key_slots;
#[cfg(test)]
use slotscope_kernel::NumberedKey;

/// The most keys a generator makes and [`plan`] or [`chunk_masters`] looks at.
pub const MAX_KEYS: usize = 1_000_000;

/// The most sub-tags the hot-spot experiment splits one tag into.
pub const MAX_SUB_TAGS: u32 = 1024;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Why a template with one `%d` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemplateError::NoPlaceholder { template } => write!(
                f,
                "\"{}\" has no %d: put %d where the number goes",
                format_key(template.as_bytes())
            ),
            TemplateError::ManyPlaceholders { template, count } => write!(
                f,
                "\"{}\" has {count} %d: it needs exactly one",
                format_key(template.as_bytes())
            ),
        }
    }
}

impl std::error::Error for TemplateError {}

/// Why keys could not be generated or an experiment run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Template(e) => e.fmt(f),
            PlanError::TooManyKeys { asked } => write!(
                f,
                "{asked} keys is more than this page generates at once ({MAX_KEYS})"
            ),
            PlanError::SubTags { k } => {
                write!(f, "{k} sub-tags: choose between 1 and {MAX_SUB_TAGS}")
            }
        }
    }
}

impl std::error::Error for PlanError {}

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
    /// use slotscope::core::plan::Template;
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

fn check_count(n: u64) -> Result<u32, PlanError> {
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
/// use slotscope::core::plan::numbered_keys;
/// let keys = numbered_keys("user:%d", 7..10).unwrap();
/// assert_eq!(keys.iter().collect::<Vec<_>>(), [&b"user:7"[..], b"user:8", b"user:9"]);
/// ```
pub fn numbered_keys(template: &str, range: core::ops::Range<u64>) -> Result<KeySample, PlanError> {
    let template = Template::parse(template)?;
    let n = check_count(range.end.saturating_sub(range.start))?;
    let first = range.start;
    Ok(KeySample::from_fn(n, |i, buf| {
        template.write(buf, first + u64::from(i))
    }))
}

/// SplitMix64 (Steele, Lea and Flood, 2014; the constants of Vigna's reference
/// `splitmix64.c`): a 64-bit state advanced by the golden-ratio increment
/// `0x9e3779b97f4a7c15`, each output mixed by two xor-shift-multiply steps
/// (`0xbf58476d1ce4e5b9`, `0x94d049bb133111eb`). Only `u64` wrapping arithmetic, so native
/// and wasm32 builds draw the same numbers from the same seed. Not for cryptography.
///
/// ```
/// use slotscope::core::plan::SplitMix64;
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
fn h3_cell(base: u64, digits: &[u64; H3_RESOLUTION as usize]) -> u64 {
    let mut h = (1u64 << 59) | (H3_RESOLUTION << 52) | ((base & 0x7f) << 45);
    for r in 1..=15u64 {
        let d = digits.get(r as usize - 1).copied().unwrap_or(7) & 7;
        h |= d << ((15 - r) * 3);
    }
    h
}

/// Appends the low 60 bits of `v` as 15 lower-case hex digits (how H3 writes a cell).
fn push_hex15(buf: &mut Vec<u8>, v: u64) {
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
/// use slotscope::core::plan::h3_pair_keys;
/// let keys = h3_pair_keys("route:", 2, 42).unwrap();
/// let first = keys.get(0).unwrap();
/// assert_eq!(first.len(), "route:".len() + 15 + 1 + 15);
/// assert_eq!(keys, h3_pair_keys("route:", 2, 42).unwrap());
/// ```
pub fn h3_pair_keys(prefix: &str, n: u32, seed: u64) -> Result<KeySample, PlanError> {
    let n = check_count(u64::from(n))?;
    let mut rng = SplitMix64::new(seed);
    Ok(KeySample::from_fn(n, |_, buf| {
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
    }))
}

// ---------------------------------------------------------------------------------------------
// The plan
// ---------------------------------------------------------------------------------------------

/// A way of sending a batch of keys to a cluster (see the module documentation for the cost
/// model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Strategy {
    /// One `GET` per key, each awaited before the next: one round trip per key.
    PerKey,
    /// One `MGET` per slot, the commands for one master pipelined together: what redis-py's
    /// `mget_nonatomic` and Lettuce's cross-slot `MGET` do.
    PerSlot,
    /// One `GET` per key, pipelined per master: one round trip per master.
    PerMaster,
    /// Keys rewritten with a per-master tag, so one `MGET` per master.
    Tagged,
}

impl Strategy {
    /// All strategies, in the order the page lists them.
    pub const ALL: [Strategy; 4] = [
        Strategy::PerKey,
        Strategy::PerSlot,
        Strategy::PerMaster,
        Strategy::Tagged,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::PerKey => "per key",
            Strategy::PerSlot => "per slot",
            Strategy::PerMaster => "per master, pipelined",
            Strategy::Tagged => "per-master tags",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one strategy costs for a batch (served keys only; see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyCost {
    /// The strategy.
    pub strategy: Strategy,
    /// Exchanges with a master (a pipeline is one).
    pub round_trips: u64,
    /// Commands sent in all.
    pub commands: u64,
    /// Commands each master receives, by master index (every master, untouched ones 0).
    pub commands_per_master: Vec<u64>,
    /// The most commands sent in one round trip.
    pub pipeline_depth: u64,
    /// Keys in the largest single command.
    pub largest_command: u64,
    /// How many groups of keys are each read atomically (a key alone counts as a group).
    pub atomic_groups: u64,
    /// Keys in the largest of those groups.
    pub largest_atomic_group: u64,
}

/// The keys of one slot, a range of [`Plan::keys_by_slot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotGroup {
    /// The slot.
    pub slot: u16,
    /// The master that owns it (`None`: unserved).
    pub master: Option<usize>,
    /// Where its keys start in [`Plan::keys_by_slot`].
    pub start: u32,
    /// How many keys it holds.
    pub len: u32,
}

/// The keys bound for one master (or, with `master: None`, for no master).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MasterGroup {
    /// The master's index (`None`: the unserved keys).
    pub master: Option<usize>,
    /// Keys in the group.
    pub n_keys: u64,
    /// Its slots, as indices into [`Plan::slots`], ascending.
    pub slot_groups: Vec<u32>,
}

/// Whether a single multi-key command over the whole batch would be accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// No keys.
    NoKeys,
    /// Every key is in one slot: one `MGET` works (if a master owns the slot).
    OneSlot {
        /// The slot.
        slot: u16,
        /// Its owner (`None`: `CLUSTERDOWN`).
        master: Option<usize>,
    },
    /// The keys span several slots: `CROSSSLOT Keys in request don't hash to the same slot`
    /// (checked before ownership, so even when one master owns them all).
    CrossSlot {
        /// Slots touched.
        slots: u64,
        /// Masters touched.
        masters: u64,
    },
}

/// A batch of keys grouped by slot and by master, and the cost of each [`Strategy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Keys planned (the first [`MAX_KEYS`] given).
    pub n_keys: u64,
    /// Whether more keys than [`MAX_KEYS`] were given (the rest were not planned).
    pub truncated: bool,
    /// The slot of each key, by key index.
    pub slot_of: Vec<u16>,
    /// The slots touched, ascending, each with its keys.
    pub slots: Vec<SlotGroup>,
    /// The masters touched, by ascending index.
    pub masters: Vec<MasterGroup>,
    /// The keys whose slot no master owns (`master: None`; empty if there are none).
    pub unserved: MasterGroup,
    /// [`Strategy::PerKey`].
    pub per_key: StrategyCost,
    /// [`Strategy::PerSlot`].
    pub per_slot: StrategyCost,
    /// [`Strategy::PerMaster`].
    pub per_master: StrategyCost,
    /// [`Strategy::Tagged`].
    pub tagged: StrategyCost,
    /// Key indices ordered by slot (input order within a slot).
    by_slot: Vec<u32>,
}

impl Plan {
    /// Every key index, ordered by slot and, within a slot, by input order.
    pub fn keys_by_slot(&self) -> &[u32] {
        &self.by_slot
    }

    /// The key indices of one slot group.
    pub fn keys_in(&self, group: &SlotGroup) -> &[u32] {
        let start = group.start as usize;
        self.by_slot
            .get(start..start.saturating_add(group.len as usize))
            .unwrap_or(&[])
    }

    /// The key indices bound for one master group, slot by slot.
    pub fn keys_of<'a>(&'a self, group: &'a MasterGroup) -> impl Iterator<Item = u32> + 'a {
        group
            .slot_groups
            .iter()
            .filter_map(|&g| self.slots.get(g as usize))
            .flat_map(|g| self.keys_in(g).iter().copied())
    }

    /// The cost of `strategy`.
    pub fn cost(&self, strategy: Strategy) -> &StrategyCost {
        match strategy {
            Strategy::PerKey => &self.per_key,
            Strategy::PerSlot => &self.per_slot,
            Strategy::PerMaster => &self.per_master,
            Strategy::Tagged => &self.tagged,
        }
    }

    /// Keys some master serves.
    pub fn n_served(&self) -> u64 {
        self.n_keys - self.unserved.n_keys
    }

    /// What one multi-key command over the whole batch would get.
    pub fn verdict(&self) -> Verdict {
        match self.slots.as_slice() {
            [] => Verdict::NoKeys,
            [one] => Verdict::OneSlot {
                slot: one.slot,
                master: one.master,
            },
            many => Verdict::CrossSlot {
                slots: many.len() as u64,
                masters: self.masters.len() as u64,
            },
        }
    }
}

/// Below this many keys a comparison sort beats a counting sort, whose two 16384-entry tables
/// cost more than sorting a few hundred indices.
const SMALL_SORT: usize = 512;

/// Stable sort of key indices by slot: (each used slot with its number of keys, in slot order;
/// key indices by slot).
fn sort_by_slot(slot_of: &[u16]) -> (Vec<(u16, u32)>, Vec<u32>) {
    if slot_of.len() < SMALL_SORT {
        comparison_sort_by_slot(slot_of)
    } else {
        counting_sort_by_slot(slot_of)
    }
}

fn comparison_sort_by_slot(slot_of: &[u16]) -> (Vec<(u16, u32)>, Vec<u32>) {
    let mut order: Vec<u32> = (0u32..).take(slot_of.len()).collect();
    crate::core::sort::sort_by_key(&mut order, |&i| {
        slot_of.get(i as usize).copied().unwrap_or(u16::MAX)
    });
    let mut used: Vec<(u16, u32)> = Vec::new();
    for &i in &order {
        let Some(&slot) = slot_of.get(i as usize) else {
            continue;
        };
        match used.last_mut() {
            Some((s, n)) if *s == slot => *n += 1,
            _ => used.push((slot, 1)),
        }
    }
    (used, order)
}

fn counting_sort_by_slot(slot_of: &[u16]) -> (Vec<(u16, u32)>, Vec<u32>) {
    let mut counts = vec![0u32; N_SLOTS];
    for &s in slot_of {
        if let Some(c) = counts.get_mut(s as usize) {
            *c += 1;
        }
    }
    let mut next = vec![0u32; N_SLOTS];
    let mut acc = 0u32;
    for (n, &c) in next.iter_mut().zip(counts.iter()) {
        *n = acc;
        acc += c;
    }
    let mut order = vec![0u32; slot_of.len()];
    for (i, &s) in (0u32..).zip(slot_of) {
        if let Some(n) = next.get_mut(s as usize) {
            if let Some(cell) = order.get_mut(*n as usize) {
                *cell = i;
            }
            *n += 1;
        }
    }
    let used = (0u16..).zip(counts).filter(|&(_, n)| n > 0).collect();
    (used, order)
}

fn slots_of<'a>(keys: impl IntoIterator<Item = &'a [u8]>) -> (Vec<u16>, bool) {
    let mut iter = keys.into_iter();
    let mut slot_of = Vec::with_capacity(iter.size_hint().0.min(MAX_KEYS));
    for key in iter.by_ref().take(MAX_KEYS) {
        slot_of.push(key_slot(key));
    }
    let truncated = iter.next().is_some();
    (slot_of, truncated)
}

/// Groups `keys` by slot and by master on `map` and works out what each [`Strategy`] costs.
///
/// Keys are numbered in the order given (duplicates count as separate keys, as they would in
/// an `MGET`). Only the first [`MAX_KEYS`] are planned ([`Plan::truncated`] says if there
/// were more).
///
/// ```
/// use slotscope::core::plan::{plan, Verdict};
/// use slotscope::core::topology::SlotMap;
/// let keys: [&[u8]; 3] = [b"{user1}:a", b"{user1}:b", b"foo"];
/// let p = plan(keys, &SlotMap::fixture_cluster());
/// assert_eq!(p.verdict(), Verdict::CrossSlot { slots: 2, masters: 2 });
/// assert_eq!((p.per_slot.round_trips, p.per_slot.commands), (2, 2));
/// assert_eq!(p.per_key.round_trips, 3);
/// ```
pub fn plan<'a>(keys: impl IntoIterator<Item = &'a [u8]>, map: &SlotMap) -> Plan {
    let (slot_of, truncated) = slots_of(keys);
    let (used, by_slot) = sort_by_slot(&slot_of);
    let n_masters = map.n_masters();

    let mut slots = Vec::new();
    let mut groups: Vec<MasterGroup> = (0..n_masters)
        .map(|m| MasterGroup {
            master: Some(m),
            ..MasterGroup::default()
        })
        .collect();
    let mut unserved = MasterGroup::default();
    let mut start = 0u32;
    for (slot, len) in used {
        let master = map.owner(slot);
        let group = match master.and_then(|m| groups.get_mut(m)) {
            Some(g) => g,
            None => &mut unserved,
        };
        group.n_keys += u64::from(len);
        group.slot_groups.push(slots.len() as u32);
        slots.push(SlotGroup {
            slot,
            master,
            start,
            len,
        });
        start += len;
    }
    let masters: Vec<MasterGroup> = groups.into_iter().filter(|g| g.n_keys > 0).collect();

    let keys_per_master = {
        let mut v = vec![0u64; n_masters];
        for g in &masters {
            if let Some(c) = g.master.and_then(|m| v.get_mut(m)) {
                *c = g.n_keys;
            }
        }
        v
    };
    let slots_per_master = {
        let mut v = vec![0u64; n_masters];
        for g in &masters {
            if let Some(c) = g.master.and_then(|m| v.get_mut(m)) {
                *c = g.slot_groups.len() as u64;
            }
        }
        v
    };
    let served: u64 = keys_per_master.iter().sum();
    let n_slots_served = slots.iter().filter(|g| g.master.is_some()).count() as u64;
    let n_masters_touched = masters.len() as u64;
    let max_keys_master = keys_per_master.iter().copied().max().unwrap_or(0);
    let max_slots_master = slots_per_master.iter().copied().max().unwrap_or(0);
    let max_keys_slot = slots
        .iter()
        .filter(|g| g.master.is_some())
        .map(|g| u64::from(g.len))
        .max()
        .unwrap_or(0);
    let one_if_any = u64::from(served > 0);

    let per_key = StrategyCost {
        strategy: Strategy::PerKey,
        round_trips: served,
        commands: served,
        commands_per_master: keys_per_master.clone(),
        pipeline_depth: one_if_any,
        largest_command: one_if_any,
        atomic_groups: served,
        largest_atomic_group: one_if_any,
    };
    let per_slot = StrategyCost {
        strategy: Strategy::PerSlot,
        round_trips: n_masters_touched,
        commands: n_slots_served,
        commands_per_master: slots_per_master,
        pipeline_depth: max_slots_master,
        largest_command: max_keys_slot,
        atomic_groups: n_slots_served,
        largest_atomic_group: max_keys_slot,
    };
    let per_master = StrategyCost {
        strategy: Strategy::PerMaster,
        round_trips: n_masters_touched,
        commands: served,
        commands_per_master: keys_per_master.clone(),
        pipeline_depth: max_keys_master,
        largest_command: one_if_any,
        atomic_groups: served,
        largest_atomic_group: one_if_any,
    };
    let tagged = StrategyCost {
        strategy: Strategy::Tagged,
        round_trips: n_masters_touched,
        commands: n_masters_touched,
        commands_per_master: keys_per_master.iter().map(|&k| u64::from(k > 0)).collect(),
        pipeline_depth: one_if_any,
        largest_command: max_keys_master,
        atomic_groups: n_masters_touched,
        largest_atomic_group: max_keys_master,
    };

    Plan {
        n_keys: slot_of.len() as u64,
        truncated,
        slot_of,
        slots,
        masters,
        unserved,
        per_key,
        per_slot,
        per_master,
        tagged,
        by_slot,
    }
}

// ---------------------------------------------------------------------------------------------
// Chunks
// ---------------------------------------------------------------------------------------------

/// How many masters (and slots) each chunk of a batch touches.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkStats {
    /// Keys per chunk (the last chunk may hold fewer).
    pub chunk: usize,
    /// Whether the keys were sorted by slot before chunking.
    pub sorted: bool,
    /// Keys looked at (the first [`MAX_KEYS`]).
    pub n_keys: u64,
    /// Chunks.
    pub n_chunks: u64,
    /// Masters touched per chunk, on average (keys in unowned slots touch no master).
    pub mean_masters: f64,
    /// The most masters one chunk touches.
    pub max_masters: u64,
    /// Slots touched per chunk, on average.
    pub mean_slots: f64,
    /// The most slots one chunk touches.
    pub max_slots: u64,
}

/// Cuts `keys` into chunks of `chunk` consecutive keys (at least 1; the last may be shorter),
/// either in the order given or after a stable sort by slot, and counts the masters and slots
/// each chunk touches: with [`Strategy::PerSlot`] a chunk costs that many round trips and
/// commands. Only the first [`MAX_KEYS`] keys are looked at.
///
/// ```
/// use slotscope::core::compare::KeySample;
/// use slotscope::core::plan::chunk_masters;
/// use slotscope::core::topology::SlotMap;
/// let keys = KeySample::numbered(b"key:", 1000);
/// let map = SlotMap::fixture_cluster();
/// let unsorted = chunk_masters(&keys, &map, 100, false);
/// let sorted = chunk_masters(&keys, &map, 100, true);
/// assert_eq!(unsorted.max_masters, 3);
/// assert!(sorted.max_masters <= 2 && sorted.mean_masters < unsorted.mean_masters);
/// ```
pub fn chunk_masters<'a>(
    keys: impl IntoIterator<Item = &'a [u8]>,
    map: &SlotMap,
    chunk: usize,
    sorted: bool,
) -> ChunkStats {
    let chunk = chunk.max(1);
    let (slot_of, _) = slots_of(keys);
    let order: Vec<u32> = if sorted {
        sort_by_slot(&slot_of).1
    } else {
        (0..slot_of.len() as u32).collect()
    };
    // `seen_*[x] == c + 1` when chunk `c` already counted master or slot `x`.
    let mut seen_master = vec![0u32; map.n_masters()];
    let mut seen_slot = vec![0u32; N_SLOTS];
    let (mut n_chunks, mut sum_m, mut sum_s, mut max_m, mut max_s) = (0u32, 0u64, 0u64, 0, 0);
    for part in order.chunks(chunk) {
        n_chunks += 1;
        let stamp = n_chunks;
        let (mut m_count, mut s_count) = (0u64, 0u64);
        for &i in part {
            let Some(&slot) = slot_of.get(i as usize) else {
                continue;
            };
            if let Some(seen) = seen_slot.get_mut(slot as usize) {
                if *seen != stamp {
                    *seen = stamp;
                    s_count += 1;
                }
            }
            if let Some(seen) = map.owner(slot).and_then(|m| seen_master.get_mut(m)) {
                if *seen != stamp {
                    *seen = stamp;
                    m_count += 1;
                }
            }
        }
        sum_m += m_count;
        sum_s += s_count;
        max_m = max_m.max(m_count);
        max_s = max_s.max(s_count);
    }
    let mean = |sum: u64| {
        if n_chunks == 0 {
            0.0
        } else {
            sum as f64 / f64::from(n_chunks)
        }
    };
    ChunkStats {
        chunk,
        sorted,
        n_keys: slot_of.len() as u64,
        n_chunks: u64::from(n_chunks),
        mean_masters: mean(sum_m),
        max_masters: max_m,
        mean_slots: mean(sum_s),
        max_slots: max_s,
    }
}

// ---------------------------------------------------------------------------------------------
// The hot-spot experiment
// ---------------------------------------------------------------------------------------------

/// The tag the hot-spot experiment's keys share.
pub const HOT_SPOT_TAG: &str = "user1";

/// How the hot-spot experiment names its keys (`i` = 0, 1, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tagging {
    /// `key:<i>`: no tag, every key hashed whole (the fixtures' `no_tag_key_i_100k`).
    NoTag,
    /// `k` = 1: `{user1}:item:<i>`, one tag (`tag_user1_100k`); `k` ≥ 2:
    /// `{user1:<i mod k>}:item:<i>`, the tag split into `k` sub-tags (`k` = 64 is
    /// `tags64_user1_100k`).
    SubTags(u32),
}

impl Tagging {
    fn check(self) -> Result<Self, PlanError> {
        match self {
            Tagging::SubTags(k) if k == 0 || k > MAX_SUB_TAGS => Err(PlanError::SubTags { k }),
            t => Ok(t),
        }
    }

    /// How many distinct tags the keys use (0 without a tag).
    pub fn n_tags(self) -> u32 {
        match self {
            Tagging::NoTag => 0,
            Tagging::SubTags(k) => k,
        }
    }

    /// Appends tag `j` with its braces (`{user1}` or `{user1:<j>}`); nothing without a tag.
    pub fn write_tag(self, buf: &mut Vec<u8>, j: u32) {
        match self {
            Tagging::NoTag => {}
            Tagging::SubTags(k) => {
                buf.push(b'{');
                buf.extend_from_slice(HOT_SPOT_TAG.as_bytes());
                if k >= 2 {
                    buf.push(b':');
                    push_decimal(buf, j.into());
                }
                buf.push(b'}');
            }
        }
    }

    /// Appends key `i` of the experiment.
    pub fn write_key(self, buf: &mut Vec<u8>, i: u32) {
        match self {
            Tagging::NoTag => buf.extend_from_slice(b"key:"),
            Tagging::SubTags(k) => {
                self.write_tag(buf, i % k.max(1));
                buf.extend_from_slice(b":item:");
            }
        }
        push_decimal(buf, i.into());
    }
}

/// One tag of the hot-spot experiment and the keys that carry it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagLoad {
    /// The tag, braces included (`{user1:7}`).
    pub tag: String,
    /// Its slot.
    pub slot: u16,
    /// The master that owns the slot (`None`: unserved).
    pub master: Option<usize>,
    /// Keys carrying the tag.
    pub keys: u64,
}

/// Where the hot-spot experiment's keys land.
#[derive(Clone, Debug, PartialEq)]
pub struct HotSpot {
    /// How the keys were named.
    pub tagging: Tagging,
    /// Keys placed.
    pub n_keys: u32,
    /// Keys on each master, by index: what `DBSIZE` would say.
    pub keys_per_master: Vec<u64>,
    /// Distinct tags on each master, by index (all 0 without a tag).
    pub tags_per_master: Vec<u64>,
    /// Keys in slots no master owns.
    pub unserved_keys: u64,
    /// Each tag, in order `0..k` (empty without a tag).
    pub tags: Vec<TagLoad>,
    /// The master with the most keys (the lowest index on a tie; `None` with no keys served).
    pub busiest: Option<usize>,
    /// The busiest master's keys as a fraction of all keys (0 with no keys).
    pub busiest_share: f64,
}

/// Runs the hot-spot experiment: `n_keys` keys named by `tagging`, each formatted into one
/// reused buffer and placed by [`key_slot`] on `map`.
///
/// Fails with more than [`MAX_KEYS`] keys or with `k` outside `1..=`[`MAX_SUB_TAGS`].
///
/// ```
/// use slotscope::core::plan::{hot_spot, Tagging};
/// use slotscope::core::topology::SlotMap;
/// let map = SlotMap::fixture_cluster();
/// let one = hot_spot(Tagging::SubTags(1), 100_000, &map).unwrap();
/// assert_eq!(one.keys_per_master, [0, 100_000, 0]);
/// assert_eq!(one.busiest_share, 1.0);
/// ```
pub fn hot_spot(tagging: Tagging, n_keys: u32, map: &SlotMap) -> Result<HotSpot, PlanError> {
    let tagging = tagging.check()?;
    let n_keys = check_count(u64::from(n_keys))?;
    let n_masters = map.n_masters();
    let mut keys_per_master = vec![0u64; n_masters];
    let mut tags_per_master = vec![0u64; n_masters];
    let mut unserved_keys = 0u64;

    let mut buf = Vec::with_capacity(64);
    let k = tagging.n_tags();
    let mut tags: Vec<TagLoad> = (0..k)
        .map(|j| {
            buf.clear();
            tagging.write_tag(&mut buf, j);
            let slot = key_slot(&buf);
            let master = map.owner(slot);
            if let Some(c) = master.and_then(|m| tags_per_master.get_mut(m)) {
                *c += 1;
            }
            TagLoad {
                tag: String::from_utf8_lossy(&buf).into_owned(),
                slot,
                master,
                keys: 0,
            }
        })
        .collect();

    let mut per_slot = vec![0u64; N_SLOTS];
    let mut per_tag = vec![0u64; tags.len()];
    if tags.is_empty() {
        // Untagged keys (`key:<i>`, the bytes of `Tagging::write_key`): every key is hashed
        // whole, in the speed-compiled kernel.
        count_numbered_key_slots(b"key:", n_keys, &mut per_slot);
    } else {
        // Key `i` is `{tag i mod k}:item:<i>`. Its first `{` and the first `}` after it both lie
        // in the tag, so Redis hashes the tag alone and every key of a tag shares its slot
        // (`tag_fixes_slot` checks this rather than assuming it). Tag `j` gets the keys
        // `i ≡ j (mod k)`: ⌊n/k⌋ of them, one more for the first n mod k tags.
        let k = tags.len() as u64;
        let (base, extra) = (u64::from(n_keys) / k, u64::from(n_keys) % k);
        for (j, (t, count)) in (0u64..).zip(tags.iter().zip(per_tag.iter_mut())) {
            debug_assert!(tag_fixes_slot(t.tag.as_bytes()));
            *count = base + u64::from(j < extra);
            if let Some(c) = per_slot.get_mut(t.slot as usize) {
                *c += *count;
            }
        }
    }
    for (t, &c) in tags.iter_mut().zip(per_tag.iter()) {
        t.keys = c;
    }
    for (slot, &count) in (0u16..).zip(per_slot.iter()) {
        if count == 0 {
            continue;
        }
        match map.owner(slot).and_then(|m| keys_per_master.get_mut(m)) {
            Some(c) => *c += count,
            None => unserved_keys += count,
        }
    }
    let busiest = keys_per_master
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .max_by(|(i, a), (j, b)| a.cmp(b).then(j.cmp(i)))
        .map(|(m, _)| m);
    let busiest_share = match busiest.and_then(|m| keys_per_master.get(m)) {
        Some(&c) if n_keys > 0 => c as f64 / f64::from(n_keys),
        _ => 0.0,
    };
    Ok(HotSpot {
        tagging,
        n_keys,
        keys_per_master,
        tags_per_master,
        unserved_keys,
        tags,
        busiest,
        busiest_share,
    })
}

/// Whether every key that starts with `prefix` hashes exactly as `prefix` does: true when the
/// prefix holds a complete, non-empty hash tag (its first `{` and the first `}` after it).
pub fn tag_fixes_slot(prefix: &[u8]) -> bool {
    matches!(hashed_span(prefix).0, TagRule::Tag { .. })
}

/// The hot-spot experiment's keys themselves, for planning or display.
///
/// ```
/// use slotscope::core::plan::{hot_spot_keys, Tagging};
/// let keys = hot_spot_keys(Tagging::SubTags(64), 66).unwrap();
/// assert_eq!(keys.get(65), Some(&b"{user1:1}:item:65"[..]));
/// ```
pub fn hot_spot_keys(tagging: Tagging, n_keys: u32) -> Result<KeySample, PlanError> {
    let tagging = tagging.check()?;
    let n_keys = check_count(u64::from(n_keys))?;
    Ok(KeySample::from_fn(n_keys, |i, buf| {
        tagging.write_key(buf, i)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sorts_by_slot_agree() {
        // A small LCG: slots bunched into few values (ties) and spread over all 16384.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for (len, spread) in [
            (0, 1),
            (1, 1),
            (7, 3),
            (300, 16384),
            (511, 40),
            (2000, 16384),
        ] {
            let slots: Vec<u16> = (0..len)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 33) % spread) as u16
                })
                .collect();
            assert_eq!(
                comparison_sort_by_slot(&slots),
                counting_sort_by_slot(&slots),
                "{len} keys over {spread} slots"
            );
        }
    }

    #[test]
    fn hot_spot_counts_equal_hashing_every_key() {
        let map = SlotMap::fixture_cluster();
        for tagging in [
            Tagging::NoTag,
            Tagging::SubTags(1),
            Tagging::SubTags(2),
            Tagging::SubTags(7),
            Tagging::SubTags(64),
        ] {
            for n in [0u32, 1, 99, 1000, 4099] {
                let h = hot_spot(tagging, n, &map).unwrap();
                let mut want = vec![0u64; map.n_masters()];
                for key in hot_spot_keys(tagging, n).unwrap().iter() {
                    want[map.owner(key_slot(key)).unwrap()] += 1;
                }
                assert_eq!(h.keys_per_master, want, "{tagging:?} n={n}");
                assert_eq!(
                    h.tags.iter().map(|t| t.keys).sum::<u64>(),
                    u64::from(n) * u64::from(tagging.n_tags() > 0)
                );
            }
        }
    }

    #[test]
    fn a_prefix_fixes_the_slot_only_with_a_complete_tag() {
        assert!(tag_fixes_slot(b"{user1}"));
        assert!(tag_fixes_slot(b"x{a}{b"));
        assert!(!tag_fixes_slot(b"{user1"));
        assert!(!tag_fixes_slot(b"{}x"));
        assert!(!tag_fixes_slot(b"plain"));
    }

    #[test]
    fn h3_layout_matches_the_case_study_ids() {
        // 8928308280fffff: base cell 20, digits 0 6 0 4 0 5 0 0 3.
        let cell = h3_cell(20, &[0, 6, 0, 4, 0, 5, 0, 0, 3]);
        let mut buf = Vec::new();
        push_hex15(&mut buf, cell);
        assert_eq!(buf, b"8928308280fffff");
        buf.clear();
        push_hex15(&mut buf, h3_cell(20, &[0, 6, 0, 4, 0, 5, 0, 0, 6]));
        assert_eq!(buf, b"8928308281bffff");
    }

    #[test]
    fn a_numbered_key_counts_in_place() {
        let mut key = NumberedKey::new(b"{a}:", b":z");
        let mut buf = Vec::new();
        for n in 0..100_000u64 {
            buf.clear();
            buf.extend_from_slice(b"{a}:");
            push_decimal(&mut buf, n);
            assert_eq!(key.digits(), &buf[4..]);
            buf.extend_from_slice(b":z");
            assert_eq!(key.bytes(), &buf[..]);
            key.increment();
        }
    }

    #[test]
    fn below_stays_below() {
        let mut rng = SplitMix64::new(7);
        assert_eq!(rng.below(0), 0);
        for n in [1u64, 2, 7, 122, u64::MAX] {
            for _ in 0..1000 {
                assert!(rng.below(n) < n);
            }
        }
    }

    #[test]
    fn empty_batch() {
        let p = plan(core::iter::empty::<&[u8]>(), &SlotMap::fixture_cluster());
        assert_eq!(p.verdict(), Verdict::NoKeys);
        for s in Strategy::ALL {
            assert_eq!(p.cost(s).round_trips, 0);
            assert_eq!(p.cost(s).largest_command, 0);
        }
        let c = chunk_masters(
            core::iter::empty::<&[u8]>(),
            &SlotMap::fixture_cluster(),
            0,
            true,
        );
        assert_eq!((c.n_chunks, c.mean_masters, c.chunk), (0, 0.0, 1));
    }
}
