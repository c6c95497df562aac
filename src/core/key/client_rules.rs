//! When clients disagree: the slot that well-known client-side hashing rules compute for a key,
//! beside the slot Redis computes, and what the disagreement costs on the wire.
//!
//! A cluster client routes each command by computing the key's slot itself. When its rule
//! differs from the server's (`CRC16(hashed part) & 0x3FFF` on the key's bytes, with Redis's
//! hash-tag rule: see [`crate::core::key::hashtag`]), it sends the command to the master of the
//! wrong slot, which answers `MOVED <real slot> <owner>`. A smart client then updates its
//! table for the *real* slot, which never helps: it keeps looking the key up under its own
//! slot, so every command on that key pays a MOVED.
//!
//! Each rule here is a pure function of the key's bytes. [`divergences`] lists the rules that
//! disagree with Redis on one key, and [`consequence`] says what the first command then meets.

use super::crc16::crc16;
use super::slot::{key_slot, SLOT_MASK};
use crate::core::cluster::topology::SlotMap;

/// A client-side rule for the slot of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientRule {
    /// Redis's own rule (what `CLUSTER KEYSLOT` answers): the hashed part is between the first
    /// `{` and the first `}` after it, unless that is empty or missing, on the key's bytes.
    /// Every correct client (and `redis-cli -c`) computes this.
    Redis,
    /// The npm module `cluster-key-slot` 1.1.x (used by Node.js cluster clients), ported from
    /// its `generate` function. After the first `{` it skips a `}` that comes right after it
    /// (an empty tag) *but keeps looking*: the next `}` closes the tag, and the bytes between
    /// the `{` and that `}` (the skipped `}` left out) are hashed. So `foo{}{bar}` hashes
    /// `{bar` (slot 4015) where Redis hashes the whole key (slot 8363), and `{}}` hashes the
    /// empty string (slot 0). With no later `}`, the whole key is hashed, as Redis does.
    ///
    /// On bytes (a `Buffer`) it works on the bytes, as here. Given a JavaScript string it first
    /// converts it to UTF-8 with its own encoder, which agrees with `TextEncoder` on every
    /// well-formed string but encodes a lone surrogate (`"\uD800"`) as its own three bytes
    /// (`ED A0 80`) where `TextEncoder` writes U+FFFD (`EF BF BD`). Every valid UTF-8 key
    /// comes back from a JS string as the same bytes, so this byte port covers those keys.
    ClusterKeySlot,
    /// Tools that take the *last* brace pair: the last `{` in the key and the first `}` after
    /// it (`key.rfind('{')`, then `find('}')`); an empty or missing tag hashes the whole key.
    /// `{a}{b}` hashes `b` where Redis hashes `a`.
    LastBracePair,
    /// Hashing UTF-16 code units instead of UTF-8 bytes, the classic bug of feeding
    /// `str.charCodeAt(i)` to a byte-wise CRC: the key's bytes are decoded as UTF-8, the
    /// hash-tag rule runs on the UTF-16 code units (a brace is the unit `0x7B` or `0x7D`), and
    /// the CRC takes the low 8 bits of each unit of the hashed part (`é` U+00E9 → `0xE9`,
    /// `用` U+7528 → `0x28`, each half of a surrogate pair on its own). ASCII keys agree with
    /// Redis. A key that is not valid UTF-8 cannot be held in such a client as a string: the
    /// rule does not apply ([`Outcome::NotApplicable`]).
    Utf16CodeUnits,
    /// Tools that treat an empty key as no key at all and send the command to a random node.
    /// Redis puts the empty key in slot 0 (`CLUSTER KEYSLOT ""` → 0), so the command is
    /// served only when the node picked happens to own slot 0. Non-empty keys agree with
    /// Redis.
    EmptyKeyRandom,
}

impl ClientRule {
    /// The rules that can disagree with Redis, in the order the page lists them.
    pub const DIVERGENT: [ClientRule; 4] = [
        ClientRule::ClusterKeySlot,
        ClientRule::LastBracePair,
        ClientRule::Utf16CodeUnits,
        ClientRule::EmptyKeyRandom,
    ];

    /// A stable name for links and test hooks (`cluster-key-slot`, `last-brace-pair`,
    /// `utf16`, `empty-random`; `redis` for Redis's own rule).
    pub fn id(self) -> &'static str {
        match self {
            ClientRule::Redis => "redis",
            ClientRule::ClusterKeySlot => "cluster-key-slot",
            ClientRule::LastBracePair => "last-brace-pair",
            ClientRule::Utf16CodeUnits => "utf16",
            ClientRule::EmptyKeyRandom => "empty-random",
        }
    }

    /// What this rule computes for `key`.
    pub fn outcome(self, key: &[u8]) -> Outcome {
        match self {
            ClientRule::Redis => Outcome::Slot(key_slot(key)),
            ClientRule::ClusterKeySlot => Outcome::Slot(cluster_key_slot(key)),
            ClientRule::LastBracePair => Outcome::Slot(last_brace_pair_slot(key)),
            ClientRule::Utf16CodeUnits => {
                utf16_code_unit_slot(key).map_or(Outcome::NotApplicable, Outcome::Slot)
            }
            ClientRule::EmptyKeyRandom => empty_key_random(key),
        }
    }

    /// The slot a client with this rule looks the key up under: `None` when it sends the
    /// command to any node (an empty key under [`ClientRule::EmptyKeyRandom`]). Where the rule
    /// does not apply, the client is taken to compute Redis's slot.
    pub fn route_slot(self, key: &[u8]) -> Option<u16> {
        match self.outcome(key) {
            Outcome::Slot(s) => Some(s),
            Outcome::AnyNode => None,
            Outcome::NotApplicable => Some(key_slot(key)),
        }
    }
}

/// What a client rule computes for one key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A slot.
    Slot(u16),
    /// No fixed slot: the command goes to whichever node the client picks.
    AnyNode,
    /// The rule cannot be applied to this key (a UTF-16 client cannot hold bytes that are not
    /// valid UTF-8 as a string).
    NotApplicable,
}

/// A rule whose outcome for a key differs from Redis's slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Divergence {
    /// The rule.
    pub rule: ClientRule,
    /// What it computes.
    pub outcome: Outcome,
    /// The slot Redis computes.
    pub redis: u16,
}

/// The rules of [`ClientRule::DIVERGENT`] whose outcome for `key` differs from Redis's slot,
/// in that order. A rule that does not apply to the key is not listed.
pub fn divergences(key: &[u8]) -> Vec<Divergence> {
    let redis = key_slot(key);
    ClientRule::DIVERGENT
        .iter()
        .filter_map(|&rule| {
            let outcome = rule.outcome(key);
            let differs = match outcome {
                Outcome::Slot(s) => s != redis,
                Outcome::AnyNode => true,
                Outcome::NotApplicable => false,
            };
            differs.then_some(Divergence {
                rule,
                outcome,
                redis,
            })
        })
        .collect()
}

/// `cluster-key-slot` 1.1.2's `generate`, on bytes. Its loop, with `start` the index after the
/// first `{`: before a `{`, nothing; after it, every byte but `}` goes into the tag's CRC, and
/// a `}` ends the tag unless it sits at `start` (right after the `{`), where it is skipped.
/// Every byte goes into the whole key's CRC, returned when no tag ends.
pub fn cluster_key_slot(key: &[u8]) -> u16 {
    let mut start: Option<usize> = None;
    for (i, &b) in key.iter().enumerate() {
        match start {
            None => {
                if b == b'{' {
                    start = Some(i + 1);
                }
            }
            Some(s) => {
                if b == b'}' && i != s {
                    // The tag's CRC saw key[s..i] minus a `}` skipped at `s`.
                    let from = if key.get(s) == Some(&b'}') { s + 1 } else { s };
                    let tag = key.get(from..i).unwrap_or_default();
                    return crc16(tag) & SLOT_MASK;
                }
            }
        }
    }
    crc16(key) & SLOT_MASK
}

/// The slot under [`ClientRule::LastBracePair`]: the last `{`, the first `}` after it; an
/// empty or missing tag hashes the whole key.
pub fn last_brace_pair_slot(key: &[u8]) -> u16 {
    let tag = key.iter().rposition(|&b| b == b'{').and_then(|open| {
        let rest = key.get(open + 1..)?;
        let close = rest.iter().position(|&b| b == b'}')?;
        rest.get(..close).filter(|t| !t.is_empty())
    });
    crc16(tag.unwrap_or(key)) & SLOT_MASK
}

/// The slot under [`ClientRule::Utf16CodeUnits`], or `None` when `key` is not valid UTF-8.
pub fn utf16_code_unit_slot(key: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(key).ok()?;
    // A brace is one byte in UTF-8 and one code unit in UTF-16, and no other character's
    // units or bytes equal it, so the tag rule finds the same braces in the text as in its
    // units; only the hashed part is turned into units.
    let tag = text.find('{').and_then(|open| {
        let rest = text.get(open + 1..)?;
        let close = rest.find('}')?;
        rest.get(..close).filter(|t| !t.is_empty())
    });
    let hashed = tag.unwrap_or(text);
    // ASCII: each unit's low byte is the byte itself.
    if hashed.is_ascii() {
        return Some(crc16(hashed.as_bytes()) & SLOT_MASK);
    }
    let low: Vec<u8> = hashed.encode_utf16().map(|u| u.to_le_bytes()[0]).collect();
    Some(crc16(&low) & SLOT_MASK)
}

/// The outcome under [`ClientRule::EmptyKeyRandom`]: any node for the empty key, else Redis's
/// slot.
fn empty_key_random(key: &[u8]) -> Outcome {
    if key.is_empty() {
        Outcome::AnyNode
    } else {
        Outcome::Slot(key_slot(key))
    }
}

/// What a command on the key meets when a client routes it by a diverging rule, on `map`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Consequence {
    /// The client's slot belongs to the same master as Redis's: the command is served, by
    /// luck (until the two slots are split between masters).
    SameNode {
        /// The master both slots belong to.
        addr: String,
    },
    /// The client sends to `sent_to`, which answers `MOVED <slot> <owner>`, on every command.
    Moved {
        /// Where the client sends the command.
        sent_to: String,
        /// Redis's slot, as the MOVED names it.
        slot: u16,
        /// The master that owns it.
        owner: String,
    },
    /// The client sends to any node; every master but `owner` answers `MOVED <slot> <owner>`.
    AnyNode {
        /// Redis's slot.
        slot: u16,
        /// The master that owns it.
        owner: String,
    },
    /// No master owns the client's slot: its table has no node for the key.
    NoRoute {
        /// The client's slot.
        slot: u16,
    },
    /// No master owns Redis's slot: the cluster answers CLUSTERDOWN whatever the client does.
    Unserved {
        /// Redis's slot.
        slot: u16,
    },
}

/// What a command on the key meets on `map` when a client routes it by `d`'s rule (with a
/// slot table equal to `map`).
pub fn consequence(d: &Divergence, map: &SlotMap) -> Consequence {
    let addr = |slot: u16| map.owner_master(slot).map(|m| m.addr.clone());
    let Some(owner) = addr(d.redis) else {
        return Consequence::Unserved { slot: d.redis };
    };
    match d.outcome {
        Outcome::Slot(s) => match addr(s) {
            None => Consequence::NoRoute { slot: s },
            Some(sent_to) if sent_to == owner => Consequence::SameNode { addr: owner },
            Some(sent_to) => Consequence::Moved {
                sent_to,
                slot: d.redis,
                owner,
            },
        },
        Outcome::AnyNode | Outcome::NotApplicable => Consequence::AnyNode {
            slot: d.redis,
            owner,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_example() {
        assert_eq!(cluster_key_slot(b"foo{}{bar}"), 4015);
        assert_eq!(cluster_key_slot(b"{}}"), 0);
        assert_eq!(last_brace_pair_slot(b"{a}{b}"), key_slot(b"b"));
        assert_eq!(utf16_code_unit_slot(b"\xff"), None);
    }

    /// The rule as first written, on the key's UTF-16 code units (the units collected, the
    /// braces found among them): the scan on bytes must agree with it on every key.
    fn utf16_on_units(key: &[u8]) -> Option<u16> {
        let units: Vec<u16> = std::str::from_utf8(key).ok()?.encode_utf16().collect();
        let tag = units.iter().position(|&u| u == 0x7B).and_then(|open| {
            let rest = units.get(open + 1..)?;
            let close = rest.iter().position(|&u| u == 0x7D)?;
            rest.get(..close).filter(|t| !t.is_empty())
        });
        let low: Vec<u8> = tag
            .unwrap_or(&units)
            .iter()
            .map(|&u| u.to_le_bytes()[0])
            .collect();
        Some(crc16(&low) & SLOT_MASK)
    }

    #[test]
    fn utf16_units_found_in_the_bytes_agree_with_the_units() {
        let pieces: [&[u8]; 9] = [
            b"{",
            b"}",
            b"a",
            "\u{e9}".as_bytes(),
            "\u{7528}".as_bytes(),
            "\u{1f600}".as_bytes(),
            b"\xff",
            b"",
            b"{}",
        ];
        // Every key of up to four pieces (6,561 + shorter), valid UTF-8 or not.
        let mut keys: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            let longer: Vec<Vec<u8>> = keys
                .iter()
                .flat_map(|k| pieces.iter().map(move |p| [k.as_slice(), p].concat()))
                .collect();
            keys.extend(longer);
            keys.sort();
            keys.dedup();
        }
        for key in &keys {
            assert_eq!(utf16_code_unit_slot(key), utf16_on_units(key), "{key:?}");
        }
        // `用` is U+7528: its low byte 0x28 is hashed where Redis hashes its three UTF-8 bytes.
        assert_eq!(
            utf16_code_unit_slot("用".as_bytes()),
            Some(crc16(&[0x28]) & SLOT_MASK)
        );
    }
}
