//! A stream laid out as Redis 7.0.15 lays it out (`t_stream.c`): a radix tree of listpack
//! nodes, each with a master entry (the first entry's field names) and entries delta-encoded
//! against it, a new node when the tail holds 100 entries (`stream-node-max-entries`) or its
//! listpack would reach 4096 bytes (`stream-node-max-bytes`), deletions that only flag an
//! entry until its node is empty, and trimming that removes whole nodes (`~`) or flags entries.
//! The listpack's byte size and the radix tree's node count are computed exactly, because they
//! decide what XADD `~`, XTRIM and XINFO STREAM show.

use super::{Fields, Stream, StreamId};
use crate::core::server::command::parse_i64;

/// `stream-node-max-entries`, Redis's default.
pub(super) const NODE_MAX_ENTRIES: usize = 100;
/// `stream-node-max-bytes`, Redis's default.
const NODE_MAX_BYTES: usize = 4096;
/// `STREAM_LISTPACK_MAX_SIZE`: the most an entry's fields and values may hold.
pub(super) const LISTPACK_MAX_SIZE: usize = 1 << 30;

const FLAG_DELETED: i64 = 1;
const FLAG_SAMEFIELDS: i64 = 2;

/// One entry in a listpack node.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Item {
    pub(super) id: StreamId,
    pub(super) fields: Fields,
    pub(super) deleted: bool,
    /// Its field names equal the master entry's (Redis then stores only the values).
    same_fields: bool,
}

/// One radix tree node: a listpack keyed by its master id.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Node {
    pub(super) master: StreamId,
    master_fields: Vec<Vec<u8>>,
    pub(super) items: Vec<Item>,
    /// Entries not flagged deleted (the master entry's `count`).
    pub(super) live: u64,
}

/// The size of a listpack integer's encoding (`lpEncodeIntegerGetType`).
fn int_len(v: i64) -> usize {
    match v {
        0..=127 => 1,
        -4096..=4095 => 2,
        -32768..=32767 => 3,
        -8_388_608..=8_388_607 => 4,
        -2_147_483_648..=2_147_483_647 => 5,
        _ => 9,
    }
}

/// The size of a listpack element: its encoding and its back length (`lpEncodeBacklen`).
fn element(enclen: usize) -> usize {
    let back = match enclen {
        0..=127 => 1,
        128..=16382 => 2,
        16383..=2_097_150 => 3,
        2_097_151..=268_435_454 => 4,
        _ => 5,
    };
    enclen + back
}

fn int_element(v: i64) -> usize {
    element(int_len(v))
}

/// A string element: stored as an integer when it reads as one (`lpEncodeGetType`).
fn str_element(s: &[u8]) -> usize {
    match parse_i64(s) {
        Some(v) => int_element(v),
        None if s.len() < 64 => element(1 + s.len()),
        None if s.len() < 4096 => element(2 + s.len()),
        None => element(5 + s.len()),
    }
}

impl Node {
    fn new(id: StreamId, fields: Fields) -> Node {
        Node {
            master: id,
            master_fields: fields.iter().map(|(f, _)| f.clone()).collect(),
            items: vec![Item {
                id,
                fields,
                deleted: false,
                same_fields: true,
            }],
            live: 1,
        }
    }

    /// The listpack's total bytes (`lpBytes`).
    fn bytes(&self) -> usize {
        let deleted = (self.items.len() as u64 - self.live) as i64;
        let mut n = 6 + 1;
        n += int_element(self.live as i64) + int_element(deleted);
        n += int_element(self.master_fields.len() as i64);
        n += self
            .master_fields
            .iter()
            .map(|f| str_element(f))
            .sum::<usize>();
        n += int_element(0);
        for item in &self.items {
            let flags = i64::from(item.deleted) * FLAG_DELETED
                + i64::from(item.same_fields) * FLAG_SAMEFIELDS;
            n += int_element(flags);
            n += int_element(item.id.0.wrapping_sub(self.master.0) as i64);
            n += int_element(item.id.1.wrapping_sub(self.master.1) as i64);
            let nf = item.fields.len();
            let mut pieces = nf + 3;
            if !item.same_fields {
                n += int_element(nf as i64);
                pieces += nf + 1;
            }
            for (f, v) in &item.fields {
                if !item.same_fields {
                    n += str_element(f);
                }
                n += str_element(v);
            }
            n += int_element(pieces as i64);
        }
        n
    }

    /// The id of the listpack's last entry, flagged deleted or not (`lpGetEdgeStreamID`).
    fn last_id(&self) -> StreamId {
        self.items.last().map_or(self.master, |i| i.id)
    }
}

impl Stream {
    /// `streamAppendItem` once the id is decided: into the tail node, or a new one.
    pub(super) fn append(&mut self, id: StreamId, fields: Fields) {
        let totelelen: usize = fields.iter().map(|(f, v)| f.len() + v.len()).sum();
        let full = self.nodes.last().is_none_or(|tail| {
            tail.bytes() + totelelen >= NODE_MAX_BYTES || tail.items.len() >= NODE_MAX_ENTRIES
        });
        match self.nodes.last_mut() {
            Some(tail) if !full => {
                let same_fields = fields.len() == tail.master_fields.len()
                    && fields
                        .iter()
                        .zip(&tail.master_fields)
                        .all(|((f, _), m)| f == m);
                tail.items.push(Item {
                    id,
                    fields,
                    deleted: false,
                    same_fields,
                });
                tail.live += 1;
            }
            _ => self.nodes.push(Node::new(id, fields)),
        }
        self.length += 1;
        self.entries_added += 1;
        self.last_id = id;
        if self.length == 1 {
            self.first_id = id;
        }
    }

    /// Live entries from `start` to `end` inclusive, in order or reversed.
    pub(super) fn range(
        &self,
        start: StreamId,
        end: StreamId,
        rev: bool,
    ) -> Box<dyn Iterator<Item = &Item> + '_> {
        let wanted = move |i: &&Item| !i.deleted && i.id >= start && i.id <= end;
        if rev {
            Box::new(
                self.nodes
                    .iter()
                    .rev()
                    .flat_map(|n| n.items.iter().rev())
                    .filter(wanted),
            )
        } else {
            Box::new(
                self.nodes
                    .iter()
                    .flat_map(|n| n.items.iter())
                    .filter(wanted),
            )
        }
    }

    /// The first live id, or the largest id if there is none (`streamGetEdgeID`).
    fn first_live(&self) -> StreamId {
        self.range((0, 0), (u64::MAX, u64::MAX), false)
            .next()
            .map_or((u64::MAX, u64::MAX), |i| i.id)
    }

    /// The last live id (`streamLastValidID`).
    pub(super) fn last_live(&self) -> Option<StreamId> {
        self.range((0, 0), (u64::MAX, u64::MAX), true)
            .next()
            .map(|i| i.id)
    }

    /// `streamDeleteItem`: flags the live entry `id` deleted, removing its node when it was
    /// the node's last live entry; whether there was one.
    pub(super) fn delete(&mut self, id: StreamId) -> bool {
        let Some(ni) = self
            .nodes
            .iter()
            .position(|n| n.items.iter().any(|i| i.id == id && !i.deleted))
        else {
            return false;
        };
        let node = &mut self.nodes[ni];
        if node.live == 1 {
            self.nodes.remove(ni);
        } else {
            node.live -= 1;
            if let Some(item) = node.items.iter_mut().find(|i| i.id == id) {
                item.deleted = true;
            }
        }
        self.length -= 1;
        true
    }

    /// After XDEL: the recorded first id (`xdelCommand`).
    pub(super) fn after_delete(&mut self, first_deleted: bool) {
        if self.length == 0 {
            self.first_id = (0, 0);
        } else if first_deleted {
            self.first_id = self.first_live();
        }
    }

    /// `streamTrim`: how many entries it removed.
    pub(super) fn trim(&mut self, how: Trim, approx: bool, limit: i64) -> i64 {
        let mut deleted: i64 = 0;
        // Whole nodes go from the head; the first that stays is trimmed inside, or not at all.
        let i = 0;
        while i < self.nodes.len() {
            if let Trim::MaxLen(max) = how
                && self.length <= max
            {
                break;
            }
            let node = &self.nodes[i];
            let entries = node.live;
            if limit != 0 && deleted.saturating_add(entries as i64) > limit {
                break;
            }
            let remove = match how {
                Trim::MaxLen(max) => self.length - entries >= max,
                Trim::MinId(min) => node.last_id() < min,
            };
            if remove {
                self.nodes.remove(i);
                self.length -= entries;
                deleted += entries as i64;
                continue;
            }
            if approx {
                break;
            }
            let mut length = self.length;
            let node = &mut self.nodes[i];
            for item in node.items.iter_mut() {
                let stop = match how {
                    Trim::MaxLen(max) => length <= max,
                    Trim::MinId(min) => item.id >= min,
                };
                if stop {
                    break;
                }
                if !item.deleted {
                    item.deleted = true;
                    node.live -= 1;
                    length -= 1;
                    deleted += 1;
                }
            }
            self.length = length;
            break;
        }
        if self.length == 0 {
            self.first_id = (0, 0);
        } else if deleted > 0 {
            self.first_id = self.first_live();
        }
        deleted
    }

    /// How many listpack nodes the radix tree holds (`raxSize`).
    pub(super) fn rax_keys(&self) -> usize {
        self.nodes.len()
    }

    /// How many radix tree nodes hold those keys (`rax->numnodes`): the compressed trie over
    /// the 16-byte big-endian master ids, as Redis's rax keeps it.
    pub(super) fn rax_nodes(&self) -> usize {
        let keys: Vec<[u8; 16]> = self
            .nodes
            .iter()
            .map(|n| {
                let mut k = [0u8; 16];
                k[..8].copy_from_slice(&n.master.0.to_be_bytes());
                k[8..].copy_from_slice(&n.master.1.to_be_bytes());
                k
            })
            .collect();
        if keys.is_empty() {
            1
        } else {
            subtree(&keys, 0)
        }
    }
}

/// Nodes of the subtree whose node sits at `depth`, over sorted keys sharing `depth` bytes:
/// a compressed node runs to the next branching point (or the leaf), where a branching node
/// has one child per distinct next byte.
fn subtree(keys: &[[u8; 16]], depth: usize) -> usize {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
        return 0;
    };
    if keys.len() == 1 {
        return if depth >= 16 { 1 } else { 2 };
    }
    let mut lcp = depth;
    while lcp < 16 && first[lcp] == last[lcp] {
        lcp += 1;
    }
    if lcp >= 16 {
        // Equal keys (master ids never repeat): one leaf.
        return 1;
    }
    if lcp > depth {
        1 + branch(keys, lcp)
    } else {
        branch(keys, depth)
    }
}

fn branch(keys: &[[u8; 16]], depth: usize) -> usize {
    let mut n = 1;
    let mut start = 0;
    while start < keys.len() {
        let byte = keys[start][depth];
        let mut end = start;
        while end < keys.len() && keys[end][depth] == byte {
            end += 1;
        }
        n += subtree(&keys[start..end], depth + 1);
        start = end;
    }
    n
}

/// A trimming strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Trim {
    /// Keep at most this many entries.
    MaxLen(u64),
    /// Keep no entry below this id.
    MinId(StreamId),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listpack sizes of `t_stream.c`'s layout, worked by hand from `listpack.c`: an
    /// empty listpack is 7 bytes; master entry `1 0 1 "f" 0` adds 2+2+2+3+2; the first entry
    /// `2 0 0 "v" 4` (same fields, value only) adds 2+2+2+3+2.
    #[test]
    fn node_bytes_follow_listpack_encodings() {
        let node = Node::new((1, 0), vec![(b"f".to_vec(), b"v".to_vec())]);
        assert_eq!(node.bytes(), 7 + 11 + 11);
        assert_eq!(int_len(-4096), 2);
        assert_eq!(int_len(4096), 3);
        assert_eq!(str_element(b"007"), element(4));
        assert_eq!(str_element(b"7"), 2);
    }

    #[test]
    fn rax_node_count_of_small_trees() {
        let mut s = Stream::default();
        assert_eq!(s.rax_nodes(), 1);
        s.nodes.push(Node::new((1, 0), Vec::new()));
        assert_eq!(s.rax_nodes(), 2);
        s.nodes.push(Node::new((2, 0), Vec::new()));
        // A compressed run of 7 bytes, the branch on the 8th, two compressed tails and leaves.
        assert_eq!(s.rax_nodes(), 1 + 1 + 2 * 2);
    }
}
