//! Sets against a real redis-server 7.0.15: `tests/data/recorded/sets.txt` was recorded from
//! one (`record.py sets.cmds`) and is replayed on the engine's key space byte for byte; SPOP
//! and SRANDMEMBER, random in Redis, are checked for what any valid answer must satisfy.
#![cfg(not(target_arch = "wasm32"))]

#[path = "data/recorded.rs"]
mod recorded;

use recorded::run_line;
use slotscope::core::server::data::Db;

#[test]
fn sets_answer_as_recorded_from_redis() {
    recorded::replay(include_str!("data/recorded/sets.txt"));
}

fn members(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split_once(") ").map(|(_, v)| v.to_owned()))
        .collect()
}

#[test]
fn random_picks_are_valid() {
    let mut db = Db::default();
    run_line(&mut db, "SADD s a b c d e f g h i j");
    let distinct = members(&run_line(&mut db, "SRANDMEMBER s 4"));
    assert_eq!(distinct.len(), 4);
    let mut sorted = distinct.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        4,
        "SRANDMEMBER with a positive count repeats nothing"
    );
    let repeated = members(&run_line(&mut db, "SRANDMEMBER s -25"));
    assert_eq!(repeated.len(), 25);
    let popped = members(&run_line(&mut db, "SPOP s 3"));
    assert_eq!(popped.len(), 3);
    assert_eq!(run_line(&mut db, "SCARD s"), "(integer) 7\n");
    for p in &popped {
        assert_eq!(
            run_line(&mut db, &format!("SISMEMBER s {p}")),
            "(integer) 0\n"
        );
    }
    let one = run_line(&mut db, "SPOP s");
    assert!(one.starts_with('"'), "{one}");
    assert_eq!(run_line(&mut db, "SCARD s"), "(integer) 6\n");
    // A huge negative count is answered without building an impossible reply.
    let huge = run_line(&mut db, "SRANDMEMBER s -9223372036854775807");
    assert!(!huge.is_empty());
}
