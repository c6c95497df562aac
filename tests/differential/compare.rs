//! How an engine reply is held against the real node's: byte for byte as RESP, unless the
//! command's entry in Redis's own table (its `tips`) says the output is not deterministic.
//!
//! The rules, in the order they are tried:
//! 1. An error reply on either side is compared byte for byte, always: Redis's error text is
//!    deterministic (and the page's own `NotRun` note is counted apart, see `run.rs`).
//! 2. [`Rule::Clock`] — TTL, PTTL, EXPIRETIME, PEXPIRETIME (and the TTL-like tips of nothing
//!    else): the engine's clock is set to the wall clock just before the command is sent to the
//!    real node, so the two differ by the time the request takes to reach the node, well under a
//!    millisecond on loopback. One millisecond of skew moves PTTL / PEXPIRETIME by at most 1,
//!    and TTL / EXPIRETIME (milliseconds rounded to seconds) by at most 1 when the value sits on
//!    a rounding edge; so integers ≥ 0 may differ by 1, negative ones (-1 no expiry, -2 no key)
//!    must be equal.
//! 3. [`Rule::Multiset`] — tip `nondeterministic_output_order` (KEYS, SMEMBERS, SINTER, HKEYS,
//!    …): the top-level array's elements compared as multisets; for HGETALL (field, value)
//!    pairs, so a value cannot move to another field. For `COMMAND`, `COMMAND INFO` and
//!    `COMMAND DOCS` without names ([`Rule::DeepMultiset`]) every array at every depth: the
//!    server lists commands, and each container its subcommands, in its dict's order, which
//!    depends on the node's random hash seed.
//! 4. [`Rule::Shape`] — tip `nondeterministic_output` (RANDOMKEY, SPOP, SRANDMEMBER, TIME,
//!    SCAN, XADD with `*`, OBJECT ENCODING, …): type and shape only — the same RESP type, the
//!    same nil-ness, arrays of the same length whose elements have the same shape; status
//!    replies must say the same; integers and bulk contents may differ.
//!    Exception: `CLUSTER GETKEYSINSLOT` carries that tip but is compared exactly: 7.0.15 keeps
//!    a slot's keys in one list, newest first (`slotToKeyAdd` in cluster.c), which the engine
//!    promises to follow.
//! 5. [`Rule::Exact`] — everything else: the engine's `Reply::to_resp()` must equal the bytes
//!    the node sent.

use super::resp::{parse, Value};
use super::table::Table;

/// How a reply is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Byte for byte.
    Exact,
    /// Top-level elements as a multiset.
    Multiset,
    /// Every array, at every depth, as a multiset (the whole command table).
    DeepMultiset,
    /// Top-level (field, value) pairs as a multiset (HGETALL).
    Pairs,
    /// Type and shape only.
    Shape,
    /// Integers within one of each other (a millisecond of clock skew).
    Clock,
}

/// The rule for a command, by its table name (`ttl`, `cluster|getkeysinslot`).
pub fn rule_for(table: &Table, name: &str) -> Rule {
    match name {
        "ttl" | "pttl" | "expiretime" | "pexpiretime" => Rule::Clock,
        "hgetall" => Rule::Pairs,
        "cluster|getkeysinslot" => Rule::Exact,
        "command" | "command|info" | "command|docs" => Rule::DeepMultiset,
        _ if table.has_tip(name, "nondeterministic_output_order") => Rule::Multiset,
        _ if table.has_tip(name, "nondeterministic_output") => Rule::Shape,
        _ => Rule::Exact,
    }
}

/// Whether `engine` matches `real` under `rule` (both raw RESP).
pub fn matches(rule: Rule, engine: &[u8], real: &[u8]) -> bool {
    if engine == real {
        return true;
    }
    if rule == Rule::Exact {
        return false;
    }
    match (parse(engine), parse(real)) {
        (Some(e), Some(r)) => values_match(rule, &e, &r),
        _ => false,
    }
}

/// [`matches`] on parsed replies.
pub fn values_match(rule: Rule, e: &Value, r: &Value) -> bool {
    if matches!(e, Value::Error(_)) || matches!(r, Value::Error(_)) {
        return e == r;
    }
    match rule {
        Rule::Exact => e == r,
        Rule::Clock => match (e, r) {
            (Value::Int(a), Value::Int(b)) if *a >= 0 && *b >= 0 => a.abs_diff(*b) <= 1,
            _ => e == r,
        },
        Rule::Multiset => match (e, r) {
            (Value::Array(Some(a)), Value::Array(Some(b))) => {
                let (mut a, mut b) = (a.clone(), b.clone());
                a.sort();
                b.sort();
                a == b
            }
            _ => e == r,
        },
        Rule::Pairs => match (e, r) {
            (Value::Array(Some(a)), Value::Array(Some(b))) if a.len() % 2 == 0 => {
                let pairs = |v: &[Value]| {
                    let mut p: Vec<(Value, Value)> = v
                        .chunks(2)
                        .filter_map(|c| Some((c.first()?.clone(), c.get(1)?.clone())))
                        .collect();
                    p.sort();
                    p
                };
                pairs(a) == pairs(b)
            }
            _ => e == r,
        },
        Rule::DeepMultiset => canonical(e) == canonical(r),
        Rule::Shape => same_shape(e, r),
    }
}

/// `v` with every array sorted, recursively.
fn canonical(v: &Value) -> Value {
    match v {
        Value::Array(Some(items)) => {
            let mut items: Vec<Value> = items.iter().map(canonical).collect();
            items.sort();
            Value::Array(Some(items))
        }
        other => other.clone(),
    }
}

fn same_shape(e: &Value, r: &Value) -> bool {
    match (e, r) {
        (Value::Status(a), Value::Status(b)) => a == b,
        (Value::Error(a), Value::Error(b)) => a == b,
        (Value::Int(_), Value::Int(_)) => true,
        (Value::Bulk(a), Value::Bulk(b)) => a.is_some() == b.is_some(),
        (Value::Array(None), Value::Array(None)) => true,
        (Value::Array(Some(a)), Value::Array(Some(b))) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_shape(x, y))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_accept_what_they_say_and_nothing_more() {
        let arr = |items: &[&[u8]]| {
            let mut out = format!("*{}\r\n", items.len()).into_bytes();
            for i in items {
                out.extend_from_slice(format!("${}\r\n", i.len()).as_bytes());
                out.extend_from_slice(i);
                out.extend_from_slice(b"\r\n");
            }
            out
        };
        assert!(matches(
            Rule::Multiset,
            &arr(&[b"a", b"b"]),
            &arr(&[b"b", b"a"])
        ));
        assert!(!matches(
            Rule::Exact,
            &arr(&[b"a", b"b"]),
            &arr(&[b"b", b"a"])
        ));
        assert!(!matches(
            Rule::Multiset,
            &arr(&[b"a", b"a"]),
            &arr(&[b"a", b"b"])
        ));
        assert!(matches(
            Rule::Pairs,
            &arr(&[b"f", b"1", b"g", b"2"]),
            &arr(&[b"g", b"2", b"f", b"1"])
        ));
        assert!(!matches(
            Rule::Pairs,
            &arr(&[b"f", b"1", b"g", b"2"]),
            &arr(&[b"f", b"2", b"g", b"1"])
        ));
        assert!(matches(Rule::Shape, b"$1\r\na\r\n", b"$2\r\nbc\r\n"));
        assert!(!matches(Rule::Shape, b"$1\r\na\r\n", b"$-1\r\n"));
        assert!(!matches(Rule::Shape, b"-ERR x\r\n", b"-ERR y\r\n"));
        assert!(matches(Rule::Clock, b":99\r\n", b":100\r\n"));
        assert!(!matches(Rule::Clock, b":98\r\n", b":100\r\n"));
        assert!(!matches(Rule::Clock, b":-1\r\n", b":0\r\n"));
    }
}
