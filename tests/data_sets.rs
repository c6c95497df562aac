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

mod through_the_cluster {
    use slotscope::core::key::args::split_args;
    use slotscope::core::server::{Cluster, ErrorReply, Reply, Session};
    use slotscope::core::SlotMap;

    const M0: &str = "127.0.0.1:7000";
    const R0: &str = "127.0.0.1:7004"; // replica of 7000

    fn run(c: &mut Cluster, addr: &str, s: &mut Session, line: &str) -> Reply {
        c.exec(addr, &split_args(line).expect("a command line"), s)
    }

    #[test]
    fn set_commands_run_on_the_master_and_reach_its_replica() {
        let mut c = Cluster::new(SlotMap::fixture_cluster());
        let mut s = Session::new();
        // `hello` is served by 7000 in the fixture cluster.
        assert_eq!(run(&mut c, M0, &mut s, "SADD hello b a 1"), Reply::Int(3));
        assert_eq!(
            run(&mut c, M0, &mut s, "ZADD {hello}z 2 b 1 a"),
            Reply::Int(2)
        );
        let on_master = run(&mut c, M0, &mut s, "SMEMBERS hello");
        let mut r = Session::new();
        assert_eq!(run(&mut c, R0, &mut r, "READONLY"), Reply::Ok);
        assert_eq!(run(&mut c, R0, &mut r, "SMEMBERS hello"), on_master);
        assert_eq!(
            run(&mut c, R0, &mut r, "ZRANGE {hello}z 0 -1"),
            Reply::Array(vec![
                Reply::Bulk(Some(b"a".to_vec())),
                Reply::Bulk(Some(b"b".to_vec()))
            ])
        );
        // Keys in different slots are refused before the command runs, as Redis does.
        assert_eq!(
            run(&mut c, M0, &mut s, "SUNIONSTORE hello other"),
            Reply::Error(ErrorReply::CrossSlot)
        );
        // SORT's GET is refused on a cluster node (recorded: "ERR GET option of SORT denied
        // in Cluster mode.").
        assert_eq!(
            run(&mut c, M0, &mut s, "SORT hello GET #").to_cli(),
            "(error) ERR GET option of SORT denied in Cluster mode.\n"
        );
        // A write on the replica is redirected to the master.
        assert!(matches!(
            run(&mut c, R0, &mut r, "SADD hello c"),
            Reply::Error(ErrorReply::Moved { .. })
        ));
    }
}

mod no_panics {
    use super::run_line;
    use proptest::prelude::*;
    use slotscope::core::server::data::Db;

    const COMMANDS: &[&str] = &[
        "SADD",
        "SREM",
        "SMEMBERS",
        "SISMEMBER",
        "SMISMEMBER",
        "SCARD",
        "SPOP",
        "SRANDMEMBER",
        "SMOVE",
        "SINTER",
        "SINTERCARD",
        "SINTERSTORE",
        "SUNION",
        "SUNIONSTORE",
        "SDIFF",
        "SDIFFSTORE",
        "SSCAN",
        "ZADD",
        "ZINCRBY",
        "ZREM",
        "ZSCORE",
        "ZMSCORE",
        "ZCARD",
        "ZCOUNT",
        "ZLEXCOUNT",
        "ZRANGE",
        "ZRANGESTORE",
        "ZREVRANGE",
        "ZRANGEBYSCORE",
        "ZREVRANGEBYSCORE",
        "ZRANGEBYLEX",
        "ZREVRANGEBYLEX",
        "ZRANK",
        "ZREVRANK",
        "ZREMRANGEBYRANK",
        "ZREMRANGEBYSCORE",
        "ZREMRANGEBYLEX",
        "ZPOPMIN",
        "ZPOPMAX",
        "BZPOPMIN",
        "BZPOPMAX",
        "BZMPOP",
        "ZMPOP",
        "ZUNION",
        "ZINTER",
        "ZDIFF",
        "ZUNIONSTORE",
        "ZINTERSTORE",
        "ZDIFFSTORE",
        "ZINTERCARD",
        "ZRANDMEMBER",
        "ZSCAN",
        "GEOADD",
        "GEOPOS",
        "GEODIST",
        "GEOHASH",
        "GEOSEARCH",
        "GEOSEARCHSTORE",
        "GEORADIUS",
        "GEORADIUS_RO",
        "GEORADIUSBYMEMBER",
        "GEORADIUSBYMEMBER_RO",
        "SORT",
        "SORT_RO",
    ];
    const WORDS: &[&str] = &[
        "k",
        "k2",
        "s",
        "z",
        "a",
        "b",
        "0",
        "1",
        "2",
        "-1",
        "3",
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551616",
        "inf",
        "-inf",
        "+inf",
        "nan",
        "1e400",
        "-0",
        "0.5",
        "(1",
        "[a",
        "(a",
        "-",
        "+",
        "(",
        "[",
        "",
        "LIMIT",
        "COUNT",
        "ANY",
        "MATCH",
        "*",
        "WITHSCORES",
        "WITHDIST",
        "WITHHASH",
        "WITHCOORD",
        "BYSCORE",
        "BYLEX",
        "REV",
        "WEIGHTS",
        "AGGREGATE",
        "MIN",
        "MAX",
        "SUM",
        "NX",
        "XX",
        "GT",
        "LT",
        "CH",
        "INCR",
        "FROMMEMBER",
        "FROMLONLAT",
        "BYRADIUS",
        "BYBOX",
        "km",
        "m",
        "ASC",
        "DESC",
        "STORE",
        "STOREDIST",
        "BY",
        "GET",
        "ALPHA",
        "nosort",
        "180",
        "-180",
        "85",
        "13.36",
        "38.1",
        "1e308",
        "0x10",
    ];

    fn line(cmd: usize, words: &[usize]) -> String {
        let mut l = COMMANDS[cmd % COMMANDS.len()].to_owned();
        for w in words {
            l.push(' ');
            let word = WORDS[w % WORDS.len()];
            if word.is_empty() {
                l.push_str("\"\"");
            } else {
                l.push_str(word);
            }
        }
        l
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn any_command_line_gets_a_reply(
            script in proptest::collection::vec(
                (0usize..1000, proptest::collection::vec(0usize..1000, 1..9)),
                1..25,
            )
        ) {
            let mut db = Db::default();
            run_line(&mut db, "SADD s 1 2 3 a");
            run_line(&mut db, "ZADD z 1 a 2 b 3 c");
            run_line(&mut db, "GEOADD k 13.36 38.1 a 15 37 b");
            for (cmd, words) in script {
                let text = run_line(&mut db, &line(cmd, &words));
                prop_assert!(text.ends_with('\n'));
            }
        }
    }
}
