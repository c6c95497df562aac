//! Sorted sets against a real redis-server 7.0.15: `tests/data/recorded/zsets.txt` was
//! recorded from one (`record.py zsets.cmds`) and is replayed on the engine's key space byte
//! for byte (ZADD's options and their conflicts, scores such as `inf`, `1e-320`, `0x10`, `-0`,
//! every range form, pops, blocking pops with and without data, ZUNION/ZINTER/ZDIFF,
//! encodings); ZRANDMEMBER, random in Redis, is checked for what a valid answer must satisfy.
#![cfg(not(target_arch = "wasm32"))]

#[path = "data/recorded.rs"]
mod recorded;

use recorded::run_line;
use slotscope::core::server::data::Db;

#[test]
fn sorted_sets_answer_as_recorded_from_redis() {
    recorded::replay(include_str!("data/recorded/zsets.txt"));
}

#[test]
fn random_members_are_valid() {
    let mut db = Db::default();
    run_line(&mut db, "ZADD z 1 a 2 b 3 c 4 d 5 e 6 f");
    let picked = run_line(&mut db, "ZRANDMEMBER z 3 WITHSCORES");
    let lines: Vec<&str> = picked.lines().collect();
    assert_eq!(lines.len(), 6, "{picked}");
    let mut members: Vec<&str> = lines.iter().step_by(2).copied().collect();
    members.sort();
    members.dedup();
    assert_eq!(
        members.len(),
        3,
        "a positive count repeats nothing: {picked}"
    );
    assert_eq!(run_line(&mut db, "ZRANDMEMBER z -10").lines().count(), 10);
    assert!(run_line(&mut db, "ZRANDMEMBER z").starts_with('"'));
}

/// SORT and SORT_RO, recorded from a real redis-server 7.0.15 in cluster mode
/// (`record.py sort.cmds` on a one-node cluster, every key tagged `{t}`): BY patterns and GET
/// refused as a cluster node refuses them, LIMIT's clamping, STORE, BY a constant, and the
/// listpack sorted set SORT turns into a skip list.
#[test]
fn sort_answers_as_recorded_from_a_cluster_node() {
    recorded::replay(include_str!("data/recorded/sort.txt"));
}

/// More edges, recorded from a real redis-server 7.0.15 (`record.py edges.cmds`): score
/// formatting, NaN from INCR, GT/LT on new members, equal scores, sources that are also the
/// destination, plain sets as ZUNION/ZINTER inputs, pops over missing and wrong-typed keys,
/// geo searches at the poles and with infinite radii.
#[test]
fn edges_answer_as_recorded_from_redis() {
    recorded::replay(include_str!("data/recorded/edges.txt"));
}
