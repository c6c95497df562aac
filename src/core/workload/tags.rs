//! Hash tags that land where you want: per-master tags from a template, and the shortest tag for any slot.
//!
//! # Per-master tags
//!
//! [`generate_tags`] takes a template for the **inside** of the braces with one `%d`, such
//! as `routing:v1:%d`, and tries 0, 1, 2, … in turn: the tag `{routing:v1:17}` hashes its
//! content `routing:v1:17` (CRC-16/XMODEM `& 0x3FFF`, exactly as Redis hashes the part of a
//! key between the first `{` and the first `}` after it), and a value is kept for the master
//! owning that slot until every master holds the number asked for. A template written with
//! its braces, `{routing:v1:%d}`, means the same; apart from those outer braces the content
//! may not contain `}` (Redis would end the tag there). Any key that starts with a kept tag,
//! `{routing:v1:17}:route:…`, lives on that tag's master, and keys sharing one tag can be
//! read by one `MGET` ([`super::Strategy::Tagged`]).
//!
//! # Shortest tags
//!
//! [`shortest_tag_for_slot`] gives the tag the Redis source uses for each slot
//! (`src/crc16_slottable.h`, used by `redis-benchmark` and the test suite's
//! `slot_prefixes`: slot 0 → `{06S}`, 1 → `{Qi}`, 16383 → `{6ZJ}`). Its rule, checked
//! against that table: over the alphabet `0-9`, `a-z`, `A-Z` in that order, the first string
//! that lands on the slot among all strings of length 1, then 2, then 3, each length in
//! lexicographic order. Every slot has one of at most 3 characters. [`ShortestTags`] holds
//! all 16384, built once on first use (about a quarter of a million 1–3 byte CRCs).

use super::KeySample;
use super::{Template, TemplateError};
use crate::core::cluster::topology::SlotMap;
use crate::core::key::slot::{key_slot, N_SLOTS};
use core::fmt;
use std::sync::OnceLock;

/// The most tags [`generate_tags`] keeps per master.
pub const MAX_PER_MASTER: usize = 10_000;

/// Why tags could not be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    /// The template does not hold exactly one `%d`.
    Template(TemplateError),
    /// The tag's content holds a `}`, which would end the tag early.
    CloseBrace {
        /// The template as given.
        template: String,
    },
    /// The cluster has no master.
    NoMasters,
    /// These masters own no slot, so no tag can land on them (checked before trying).
    MastersWithoutSlots {
        /// Their addresses.
        masters: Vec<String>,
    },
    /// More tags per master than [`MAX_PER_MASTER`].
    TooManyPerMaster {
        /// How many were asked for.
        per_master: usize,
    },
    /// `max_tries` integers were tried before every master had its tags.
    Exhausted {
        /// Integers tried (0 to `tries - 1`).
        tries: u64,
        /// Tags kept.
        found: u64,
        /// Tags wanted (`per_master` × masters).
        wanted: u64,
        /// The master furthest behind.
        master: String,
        /// How many tags it got.
        master_found: usize,
        /// How many it needed.
        per_master: usize,
    },
}

impl From<TemplateError> for TagError {
    fn from(e: TemplateError) -> Self {
        TagError::Template(e)
    }
}

/// One kept tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The integer put in place of `%d`.
    pub value: u64,
    /// The tag with its braces, `{routing:v1:17}`.
    pub tag: String,
    /// The slot of its content.
    pub slot: u16,
    /// The index of the master that owns the slot.
    pub master: usize,
}

/// Tags for every master, from [`generate_tags`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagSet {
    /// The template of the tag's content (without braces).
    pub template: String,
    /// Tags per master.
    pub per_master: usize,
    /// The kept tags, by ascending value.
    pub tags: Vec<Tag>,
    /// How many integers were tried (0 to `tries - 1`); the last one tried was kept.
    pub tries: u64,
}

impl TagSet {
    /// Master `master`'s tags, by ascending value.
    pub fn for_master(&self, master: usize) -> impl Iterator<Item = &Tag> + '_ {
        self.tags.iter().filter(move |t| t.master == master)
    }

    /// The first tag of every master, by master index (`None` for a master with none).
    pub fn first_per_master(&self, n_masters: usize) -> Vec<Option<&Tag>> {
        let mut out = vec![None; n_masters];
        for t in &self.tags {
            if let Some(cell @ None) = out.get_mut(t.master) {
                *cell = Some(t);
            }
        }
        out
    }
}

/// Tries `template` with 0, 1, 2, … (at most `max_tries` integers) and keeps a value for the
/// master owning its tag's slot until every master of `map` owns `per_master` tags; a value
/// whose master is already full, or whose slot nobody owns, is skipped. So each master's
/// tags are the smallest integers that land on it.
///
/// `template` is the inside of the braces with one `%d` (`routing:v1:%d`, or
/// `{routing:v1:%d}` with the braces, which are then dropped). Fails before trying anything
/// if a master owns no slots (naming it), the template is unusable, or `per_master` is over
/// [`MAX_PER_MASTER`]; fails with [`TagError::Exhausted`] (saying how far it got) if
/// `max_tries` run out. `per_master = 0` gives an empty set.
///
/// ```
/// use slotscope::core::workload::tags::generate_tags;
/// use slotscope::core::cluster::topology::SlotMap;
/// use slotscope::core::key_slot;
/// let map = SlotMap::fixture_cluster();
/// let set = generate_tags("routing:v1:%d", 2, &map, 1000).unwrap();
/// assert_eq!(set.tags.len(), 6);
/// for t in &set.tags {
///     assert_eq!(key_slot(t.tag.as_bytes()), t.slot);
///     assert_eq!(map.owner(t.slot), Some(t.master));
/// }
/// ```
pub fn generate_tags(
    template: &str,
    per_master: usize,
    map: &SlotMap,
    max_tries: u64,
) -> Result<TagSet, TagError> {
    let inner = template
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(template);
    let parsed = Template::parse(inner)?;
    if inner.contains('}') {
        return Err(TagError::CloseBrace {
            template: template.to_owned(),
        });
    }
    if per_master > MAX_PER_MASTER {
        return Err(TagError::TooManyPerMaster { per_master });
    }
    let n_masters = map.n_masters();
    if n_masters == 0 {
        return Err(TagError::NoMasters);
    }
    let mut set = TagSet {
        template: inner.to_owned(),
        per_master,
        tags: Vec::new(),
        tries: 0,
    };
    if per_master == 0 {
        return Ok(set);
    }
    let empty: Vec<String> = map
        .slot_counts()
        .iter()
        .zip(map.masters())
        .filter(|&(&c, _)| c == 0)
        .map(|(_, m)| m.addr.clone())
        .collect();
    if !empty.is_empty() {
        return Err(TagError::MastersWithoutSlots { masters: empty });
    }

    let mut have = vec![0usize; n_masters];
    let mut unfinished = n_masters;
    let mut buf = Vec::with_capacity(inner.len() + 22);
    let mut value = 0u64;
    while value < max_tries && unfinished > 0 {
        buf.clear();
        buf.push(b'{');
        parsed.write(&mut buf, value);
        buf.push(b'}');
        let slot = key_slot(&buf);
        if let Some(m) = map.owner(slot)
            && let Some(h) = have.get_mut(m)
            && *h < per_master
        {
            *h += 1;
            if *h == per_master {
                unfinished -= 1;
            }
            set.tags.push(Tag {
                value,
                tag: String::from_utf8_lossy(&buf).into_owned(),
                slot,
                master: m,
            });
        }
        value += 1;
    }
    set.tries = value;
    if unfinished > 0 {
        let (behind, &got) = have
            .iter()
            .enumerate()
            .min_by_key(|&(_, h)| *h)
            .unwrap_or((0, &0));
        return Err(TagError::Exhausted {
            tries: value,
            found: set.tags.len() as u64,
            wanted: (per_master as u64).saturating_mul(n_masters as u64),
            master: map
                .masters()
                .get(behind)
                .map(|m| m.addr.clone())
                .unwrap_or_default(),
            master_found: got,
            per_master,
        });
    }
    Ok(set)
}

/// `keys` rewritten for [`super::Strategy::Tagged`]: each key whose slot a master owns
/// becomes `{tag}key` with that master's first tag in `tags`, so it stays on its master and
/// shares one slot with the master's other keys. Keys in unowned slots, or whose master has no
/// tag in `tags`, are kept as they are. `tags` should come from the same `map`.
///
/// ```
/// use slotscope::core::workload::KeySample;
/// use slotscope::core::workload::plan;
/// use slotscope::core::workload::tags::{generate_tags, retag};
/// use slotscope::core::cluster::topology::SlotMap;
/// let map = SlotMap::fixture_cluster();
/// let keys = KeySample::numbered(b"key:", 100);
/// let tags = generate_tags("routing:v1:%d", 1, &map, 1000).unwrap();
/// let tagged = plan(&retag(&keys, &map, &tags), &map);
/// assert_eq!(tagged.per_slot.commands, 3);
/// ```
pub fn retag<'a>(
    keys: impl IntoIterator<Item = &'a [u8]>,
    map: &SlotMap,
    tags: &TagSet,
) -> KeySample {
    let first = tags.first_per_master(map.n_masters());
    let mut out = KeySample::new();
    let mut buf = Vec::new();
    for key in keys.into_iter().take(super::MAX_KEYS) {
        buf.clear();
        let tag = map
            .owner(key_slot(key))
            .and_then(|m| first.get(m).copied().flatten());
        if let Some(t) = tag {
            buf.extend_from_slice(t.tag.as_bytes());
        }
        buf.extend_from_slice(key);
        out.push(&buf);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Shortest tags
// ---------------------------------------------------------------------------------------------

/// The alphabet of shortest tags, in the order they are tried.
pub const SHORTEST_ALPHABET: &[u8; 62] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The shortest tag of every slot (see the module documentation for the rule).
#[derive(Clone, PartialEq, Eq)]
pub struct ShortestTags {
    /// Per slot: length (0 if none was found, which does not happen) and the characters.
    table: Box<[(u8, [u8; 3])]>,
}

impl fmt::Debug for ShortestTags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShortestTags")
            .field("slots", &self.table.len())
            .finish()
    }
}

impl ShortestTags {
    /// Builds the table: every string of 1, 2 and 3 characters of [`SHORTEST_ALPHABET`], in
    /// order, the first to land on a slot kept.
    pub fn build() -> ShortestTags {
        let mut table = vec![(0u8, [0u8; 3]); N_SLOTS].into_boxed_slice();
        let mut missing = N_SLOTS;
        let mut consider = |len: u8, chars: [u8; 3]| {
            let slot = key_slot(&chars[..len as usize]);
            if let Some(cell) = table.get_mut(slot as usize)
                && cell.0 == 0
            {
                *cell = (len, chars);
                missing -= 1;
            }
            missing > 0
        };
        'search: for &a in SHORTEST_ALPHABET {
            if !consider(1, [a, 0, 0]) {
                break 'search;
            }
        }
        'two: for &a in SHORTEST_ALPHABET {
            for &b in SHORTEST_ALPHABET {
                if !consider(2, [a, b, 0]) {
                    break 'two;
                }
            }
        }
        'three: for &a in SHORTEST_ALPHABET {
            for &b in SHORTEST_ALPHABET {
                for &c in SHORTEST_ALPHABET {
                    if !consider(3, [a, b, c]) {
                        break 'three;
                    }
                }
            }
        }
        ShortestTags { table }
    }

    /// The tag's content for `slot` (without braces), or `None` past slot 16383.
    pub fn content(&self, slot: u16) -> Option<&str> {
        let (len, chars) = self.table.get(slot as usize)?;
        let bytes = chars.get(..*len as usize)?;
        core::str::from_utf8(bytes).ok().filter(|s| !s.is_empty())
    }

    /// The tag for `slot` with its braces (`{06S}`), or `None` past slot 16383.
    pub fn tag(&self, slot: u16) -> Option<String> {
        self.content(slot).map(|c| format!("{{{c}}}"))
    }
}

/// The table of shortest tags, built on first use and kept.
pub fn shortest_tags() -> &'static ShortestTags {
    static TABLE: OnceLock<ShortestTags> = OnceLock::new();
    TABLE.get_or_init(ShortestTags::build)
}

/// A shortest tag, with its braces, whose content lands on `slot`: the one the Redis source's
/// `crc16_slottable.h` lists. An empty string for a slot past 16383.
///
/// ```
/// use slotscope::core::workload::tags::shortest_tag_for_slot;
/// assert_eq!(shortest_tag_for_slot(0), "{06S}");
/// assert_eq!(shortest_tag_for_slot(1), "{Qi}");
/// assert_eq!(shortest_tag_for_slot(16383), "{6ZJ}");
/// assert_eq!(shortest_tag_for_slot(16384), "");
/// ```
pub fn shortest_tag_for_slot(slot: u16) -> String {
    shortest_tags().tag(slot).unwrap_or_default()
}
