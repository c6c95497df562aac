//! WATCH / UNWATCH / MULTI / EXEC through the cluster, two connections on one node: a watched
//! key written (by either connection) or expired before EXEC makes EXEC answer the nil array;
//! WATCH inside MULTI is refused without failing the transaction; EXEC, DISCARD and UNWATCH
//! forget the watched keys; WATCH across slots is CROSSSLOT. Every expected reply is the RESP
//! a real redis-server 7.0.15 in cluster mode sent for the same sequence on two connections
//! (recorded with a socket client; `{w}` keys, 100 ms expiry, 300 ms pause).

use slotscope::core::key::args::split_args;
use slotscope::core::server::{Cluster, Route, Session};
use slotscope::core::SlotMap;

/// The node that serves `key` in the fixture cluster.
fn owner(c: &Cluster, key: &str) -> String {
    let first = "127.0.0.1:7000";
    let args = vec![b"GET".to_vec(), key.as_bytes().to_vec()];
    match c.route(first, &args, &Session::new()) {
        Ok(Route::Moved { addr, .. }) => addr,
        _ => first.to_owned(),
    }
}

/// One step: which connection (`A`, `B`), the command, the RESP Redis sent; a `+ms` step
/// moves the simulated clock.
const STEPS: &[(&str, &str, &str)] = &[
    ("A", "WATCH {w}a", "+OK\r\n"),
    ("B", "SET {w}a 1", "+OK\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "SET {w}b 2", "+QUEUED\r\n"),
    ("A", "EXEC", "*-1\r\n"),
    ("A", "GET {w}b", "$-1\r\n"),
    ("A", "WATCH {w}a", "+OK\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    (
        "A",
        "WATCH {w}a",
        "-ERR WATCH inside MULTI is not allowed\r\n",
    ),
    ("A", "SET {w}b 3", "+QUEUED\r\n"),
    ("A", "EXEC", "*1\r\n+OK\r\n"),
    (
        "A",
        "WATCH {w}a {x}b",
        "-CROSSSLOT Keys in request don't hash to the same slot\r\n",
    ),
    ("A", "WATCH {w}a", "+OK\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "DISCARD", "+OK\r\n"),
    ("B", "SET {w}a 9", "+OK\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "INCR {w}a", "+QUEUED\r\n"),
    ("A", "EXEC", "*1\r\n:10\r\n"),
    ("A", "WATCH {w}a", "+OK\r\n"),
    ("A", "UNWATCH", "+OK\r\n"),
    ("B", "SET {w}a 7", "+OK\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "EXEC", "*0\r\n"),
    ("A", "WATCH {w}a", "+OK\r\n"),
    ("A", "SET {w}a own", "+OK\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "EXEC", "*-1\r\n"),
    ("A", "SET {w}e v PX 100", "+OK\r\n"),
    ("A", "WATCH {w}e", "+OK\r\n"),
    ("+", "300", ""),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "EXEC", "*-1\r\n"),
    ("A", "WATCH {w}none", "+OK\r\n"),
    ("B", "GET {w}none", "$-1\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "EXEC", "*0\r\n"),
    ("A", "WATCH {w}a", "+OK\r\n"),
    ("B", "SET {w}a 7 XX NX", "-ERR syntax error\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "EXEC", "*0\r\n"),
    ("A", "WATCH {w}a", "+OK\r\n"),
    ("B", "EXPIRE {w}a 100", ":1\r\n"),
    ("A", "MULTI", "+OK\r\n"),
    ("A", "EXEC", "*-1\r\n"),
];

/// Inside MULTI a blocking command with nothing to pop answers at once, whatever its
/// timeout: BLPOP, BLMPOP and BRPOP the nil array, BLMOVE and BRPOPLPUSH the nil bulk.
/// Recorded from a redis-server 7.0.15 cluster node.
#[test]
fn blocking_commands_in_multi_answer_at_once() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let node = owner(&c, "{w}n");
    let mut s = Session::new();
    let steps = [
        ("MULTI", "+OK\r\n"),
        ("BLPOP {w}n 0", "+QUEUED\r\n"),
        ("BLMOVE {w}n {w}m LEFT LEFT 0", "+QUEUED\r\n"),
        ("BRPOPLPUSH {w}n {w}m 1", "+QUEUED\r\n"),
        ("BLMPOP 0 1 {w}n LEFT", "+QUEUED\r\n"),
        ("BRPOP {w}n 1", "+QUEUED\r\n"),
        ("EXEC", "*5\r\n*-1\r\n$-1\r\n$-1\r\n*-1\r\n*-1\r\n"),
    ];
    for (line, want) in steps {
        let args = split_args(line).unwrap_or_default();
        let got = c.exec(&node, &args, &mut s).to_resp();
        assert_eq!(String::from_utf8_lossy(&got), want, "{line}");
    }
}

#[test]
fn watch_multi_exec_as_redis_7_0_15() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let node = owner(&c, "{w}a");
    let (mut a, mut b) = (Session::new(), Session::new());
    for (who, line, want) in STEPS {
        if *who == "+" {
            let ms: i64 = line.parse().unwrap_or(0);
            c.set_clock(c.clock() + ms);
            continue;
        }
        let args = split_args(line).unwrap_or_default();
        let session = if *who == "A" { &mut a } else { &mut b };
        let got = c.exec(&node, &args, session).to_resp();
        assert_eq!(String::from_utf8_lossy(&got), *want, "{who}: {line}");
    }
}
