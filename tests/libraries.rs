//! Each client library in five situations, as its source at the tag in core/client/library.rs
//! behaves (the source line each assertion follows is named beside it): a stale route (MOVED),
//! a key already migrated (ASK), keys split by a migration (TRYAGAIN), a redirection loop (the
//! redirect limit), and keys in two slots. The nodes' replies are compared with the recorded
//! transcripts 02, 04 and 07, never retyped from the engine's output.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use slotscope::core::client::{
    run, Client, ClientLibrary, Endpoint, Event, EventKind, GiveUpReason, Narration, SendReason,
};
use slotscope::core::key::args::split_args;
use slotscope::core::server::{Cluster, Redirect, Reply, Session};
use slotscope::core::SlotMap;

const M0: &str = "127.0.0.1:7000";
const M1: &str = "127.0.0.1:7001";
const M2: &str = "127.0.0.1:7002";
const ID_7001: &str = "f7c6b5d608aefdd517b33641eb638ce56252d0b4";
const ID_7002: &str = "44084a172411812451c56a0a3330ec6daa733083";

fn args(line: &str) -> Vec<Vec<u8>> {
    split_args(line).unwrap()
}

/// The line after `$ <command>` in a transcript (its first output line), as recorded.
fn recorded(name: &str, command: &str, nth: usize) -> String {
    let path = common::fixtures_dir().join("transcripts").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            l.strip_prefix("$ ") == Some(command)
                || l.split_once("> ").map(|x| x.1) == Some(command)
        })
        .nth(nth)
        .map(|(i, _)| format!("{}\n", lines[i + 1]))
        .unwrap_or_else(|| panic!("{name}: no #{nth} {command}"))
}

fn op(cluster: &mut Cluster, addr: &str, line: &str) {
    cluster.exec(addr, &args(line), &mut Session::new());
}

/// A stale route: slot 9779 (user:1002) is 7001's, the client's table says 7000.
fn stale(lib: ClientLibrary) -> (Client, Vec<Event>) {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    op(&mut cluster, M1, "SET user:1002 alice");
    let mut client = Client::library(lib, &SlotMap::fixture_cluster());
    client.set_route(9779, M0);
    let events = run(&mut cluster, &mut client, &args("GET user:1002"));
    (client, events)
}

/// Transcript 07 up to the MIGRATE of `{user:1001}:profile` (with `importing`: 7002 opened
/// too).
fn migrating(importing: bool) -> Cluster {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    op(&mut cluster, M1, "SET {user:1001}:profile alice");
    op(&mut cluster, M1, "SET {user:1001}:orders 3");
    if importing {
        op(
            &mut cluster,
            M2,
            &format!("CLUSTER SETSLOT 5712 IMPORTING {ID_7001}"),
        );
    }
    op(
        &mut cluster,
        M1,
        &format!("CLUSTER SETSLOT 5712 MIGRATING {ID_7002}"),
    );
    if importing {
        op(
            &mut cluster,
            M1,
            "MIGRATE 127.0.0.1 7002 {user:1001}:profile 0 5000",
        );
    }
    cluster
}

fn client_run(lib: ClientLibrary, cluster: &mut Cluster, line: &str) -> Vec<Event> {
    let mut client = Client::library(lib, &SlotMap::fixture_cluster());
    run(cluster, &mut client, &args(line))
}

fn ask(lib: ClientLibrary) -> Vec<Event> {
    client_run(lib, &mut migrating(true), "GET {user:1001}:profile")
}

fn tryagain(lib: ClientLibrary) -> Vec<Event> {
    client_run(
        lib,
        &mut migrating(true),
        "MGET {user:1001}:profile {user:1001}:orders",
    )
}

/// 7001 migrating slot 5712 to a 7002 that is not importing it: a key that exists nowhere is
/// ASKed to 7002, which (not importing) MOVEs it back to 7001, for ever.
fn ping_pong(lib: ClientLibrary) -> Vec<Event> {
    client_run(lib, &mut migrating(false), "GET {user:1001}:newkey")
}

/// hello (866) and bar (5061): both 7000's, two slots.
fn cross(lib: ClientLibrary, line: &str) -> Vec<Event> {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    op(&mut cluster, M0, "SET hello 1");
    op(&mut cluster, M0, "SET bar 2");
    client_run(lib, &mut cluster, line)
}

fn is_request(e: &Event, to: &str, line: &str) -> bool {
    matches!(&e.kind, EventKind::Request { args: a } if *a == args(line))
        && e.from == Endpoint::Client
        && e.to == Endpoint::Node(to.to_owned())
}

fn kinds(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| match &e.kind {
            EventKind::Request { args } => format!(
                "> {} {}",
                match &e.to {
                    Endpoint::Node(a) => a.as_str(),
                    _ => "?",
                },
                String::from_utf8_lossy(&args[0])
            ),
            EventKind::Reply { .. } => "<".to_owned(),
            EventKind::Asking => "ASKING".to_owned(),
            EventKind::TableUpdate { slot, .. } => format!("update {slot}"),
            EventKind::TableRefresh { .. } => "refresh".to_owned(),
            EventKind::Backoff { .. } => "backoff".to_owned(),
            EventKind::GiveUp { .. } => "give up".to_owned(),
            EventKind::Split { parts } => format!("split {}", parts.len()),
            EventKind::Reassembled { .. } => "reassembled".to_owned(),
        })
        .collect()
}

/// Sends of the command itself (not ASKING, not a refresh).
fn sends(events: &[Event], name: &str) -> usize {
    events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Request { args } if args[0] == name.as_bytes()))
        .count()
}

fn backoffs(events: &[Event]) -> Vec<(u32, u32)> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Backoff { min_ms, max_ms, .. } => Some((min_ms, max_ms)),
            _ => None,
        })
        .collect()
}

fn give_up(events: &[Event]) -> Option<&GiveUpReason> {
    match &events.last()?.kind {
        EventKind::GiveUp { reason } => Some(reason),
        _ => None,
    }
}

fn last_reply(events: &[Event]) -> Option<&Reply> {
    events.iter().rev().find_map(|e| match &e.kind {
        EventKind::Reply { reply } => Some(reply),
        _ => None,
    })
}

/// The redirect loop: `n` redirections followed, `n + 1` sends, then the library gives up.
fn assert_loop_limit(events: &[Event], n: u32) {
    assert_eq!(sends(events, "GET"), n as usize + 1, "{:?}", kinds(events));
    assert_eq!(
        give_up(events),
        Some(&GiveUpReason::TooManyRedirects {
            followed: n,
            limit: n
        })
    );
}

const T02: &str = "02_moved.txt";
const T04: &str = "04_crossslot_mset_mget.txt";
const T07: &str = "07_slot_migration_ask_tryagain.txt";

fn moved_9779() -> String {
    recorded(T02, "redis-cli -p 7000 GET user:1002", 0)
}

fn ask_5712() -> String {
    recorded(T07, "redis-cli -p 7001 GET {user:1001}:profile", 1)
}

fn tryagain_text() -> String {
    recorded(
        T07,
        "redis-cli -p 7001 MGET {user:1001}:profile {user:1001}:orders",
        0,
    )
}

#[test]
fn ioredis() {
    let lib = ClientLibrary::Ioredis;
    // MOVED: `_this.slots[slot][0] = key` (lib/cluster/index.ts:543), the retry, and
    // `refreshSlotsCache()` (index.ts:551): CLUSTER SLOTS (index.ts:931), every slot replaced.
    let (client, ev) = stale(lib);
    assert_eq!(
        kinds(&ev),
        [
            "> 127.0.0.1:7000 GET",
            "<",
            "update 9779",
            "> 127.0.0.1:7001 CLUSTER",
            "<",
            "refresh",
            "> 127.0.0.1:7001 GET",
            "<"
        ]
    );
    assert_eq!(ev[1].cli, moved_9779());
    assert!(is_request(&ev[3], M1, "CLUSTER SLOTS"));
    assert!(matches!(
        ev[3].narration,
        Narration::RefreshSends {
            background: true,
            ..
        }
    ));
    assert_eq!(client.route(9779), Some(M1));
    // ASK: `redis.asking()` then the command at the named node (index.ts:659); no refresh.
    let ev = ask(lib);
    assert_eq!(
        kinds(&ev),
        [
            "> 127.0.0.1:7001 GET",
            "<",
            "ASKING",
            "<",
            "> 127.0.0.1:7002 GET",
            "<"
        ]
    );
    assert_eq!(ev[1].cli, ask_5712());
    // TRYAGAIN: `retryDelayOnTryAgain: 100` (ClusterOptions.ts:247) and a retry on a random
    // master (`partialTry = tryConnection.bind(null, true)`, index.ts:537, 560); each counts
    // towards `maxRedirections` 16 (index.ts:733-741): 16 followed, the 17th error returned.
    let ev = tryagain(lib);
    assert_eq!(ev[1].cli, tryagain_text());
    assert!(backoffs(&ev).iter().all(|&d| d == (100, 100)));
    assert!(matches!(
        &ev[3].narration,
        Narration::ClientSends {
            why: SendReason::RandomMaster,
            ..
        }
    ));
    let followed = ev
        .iter()
        .filter(|e| {
            matches!(&e.kind, EventKind::Backoff { .. })
                || matches!(&e.kind, EventKind::Reply { reply } if Redirect::of(reply).is_some())
        })
        .count();
    assert_eq!(followed, 16 + 1, "16 followed and the last one returned");
    assert!(give_up(&ev).is_some());
    // The limit: 16 redirections followed, then "Too many Cluster redirections".
    assert_loop_limit(&ping_pong(lib), 16);
    // Keys across slots: routed by the first key (lib/Command.ts:277), CROSSSLOT from 7000.
    let ev = cross(lib, "MGET hello bar");
    assert_eq!(ev.len(), 2);
    assert_eq!(
        ev[1].cli,
        recorded(T04, "redis-cli -p 7000 MGET hello bar", 0)
    );
}

#[test]
fn go_redis() {
    let lib = ClientLibrary::GoRedis;
    // MOVED: `c.state.LazyReload()` (osscluster.go:1356), CLUSTER SLOTS from a node in
    // `rand.Perm` order (osscluster.go:1573, 1584); the retry goes to the named node and the
    // current state is not rewritten.
    let (client, ev) = stale(lib);
    assert_eq!(
        kinds(&ev),
        [
            "> 127.0.0.1:7000 GET",
            "<",
            "> 127.0.0.1:7001 CLUSTER",
            "<",
            "refresh",
            "> 127.0.0.1:7001 GET",
            "<"
        ]
    );
    assert_eq!(ev[1].cli, moved_9779());
    assert_eq!(client.route(9779), Some(M1));
    // ASK: LazyReload as well (osscluster.go:1356), then ASKING and the command in one
    // pipeline (osscluster.go:1323).
    let ev = ask(lib);
    assert_eq!(
        kinds(&ev),
        [
            "> 127.0.0.1:7001 GET",
            "<",
            "> 127.0.0.1:7002 CLUSTER",
            "<",
            "refresh",
            "ASKING",
            "<",
            "> 127.0.0.1:7002 GET",
            "<"
        ]
    );
    // TRYAGAIN is retryable (error.go:161): attempts 0..=MaxRedirects 3 (osscluster.go:217,
    // 1299), each after RetryBackoff (internal/internal.go:16-21: 10 ms + rand(10 ms << n)).
    let ev = tryagain(lib);
    assert_eq!(sends(&ev, "MGET"), 4);
    assert_eq!(backoffs(&ev), [(10, 29), (10, 49), (10, 89)]);
    assert_eq!(give_up(&ev), Some(&GiveUpReason::StillSplit { retries: 3 }));
    assert!(matches!(last_reply(&ev), Some(Reply::Error(_))));
    assert_eq!(ev[ev.len() - 2].cli, tryagain_text());
    assert_loop_limit(&ping_pong(lib), 3);
    let ev = cross(lib, "MGET hello bar");
    assert_eq!(
        ev[1].cli,
        recorded(T04, "redis-cli -p 7000 MGET hello bar", 0)
    );
}

#[test]
fn lettuce() {
    let lib = ClientLibrary::Lettuce;
    // MOVED: the command goes to the named node (ClusterDistributionChannelWriter.java:142) and
    // the adaptive refresh, on by default since 7.0 (ClusterTopologyRefreshOptions.java:42),
    // asks every known node for CLUSTER NODES (topology/Connections.java:93).
    let (client, ev) = stale(lib);
    assert_eq!(
        kinds(&ev),
        [
            "> 127.0.0.1:7000 GET",
            "<",
            "> 127.0.0.1:7000 CLUSTER",
            "<",
            "> 127.0.0.1:7001 CLUSTER",
            "<",
            "> 127.0.0.1:7002 CLUSTER",
            "<",
            "refresh",
            "> 127.0.0.1:7001 GET",
            "<"
        ]
    );
    assert!(is_request(&ev[2], M0, "CLUSTER NODES"));
    assert_eq!(client.route(9779), Some(M1));
    // ASK triggers the refresh too (ASK_REDIRECT, line 505 of the options; channel writer line
    // 150), then ASKING and the command (line 149).
    let ev = ask(lib);
    assert_eq!(sends(&ev, "CLUSTER"), 3);
    assert!(ev.iter().any(|e| matches!(e.kind, EventKind::Asking)));
    // TRYAGAIN is not a redirection (ClusterCommand.java:36 retries only MOVED/ASK): the error
    // goes to the application at once.
    let ev = tryagain(lib);
    assert_eq!(kinds(&ev), ["> 127.0.0.1:7001 MGET", "<"]);
    assert_eq!(ev[1].cli, tryagain_text());
    // `maxRedirects` 5 (ClusterClientOptions.java:48; ClusterCommand.java:38).
    assert_loop_limit(&ping_pong(lib), 5);
    // MGET split by slot and put back in the keys' order
    // (RedisAdvancedClusterAsyncCommandsImpl.java:414-441); DEL's counts summed (line 232).
    let ev = cross(lib, "MGET hello bar");
    assert_eq!(
        kinds(&ev),
        [
            "split 2",
            "> 127.0.0.1:7000 MGET",
            "<",
            "> 127.0.0.1:7000 MGET",
            "<",
            "reassembled"
        ]
    );
    assert_eq!(ev[5].cli, "1) \"1\"\n2) \"2\"\n");
    let ev = cross(lib, "DEL hello bar");
    assert_eq!(ev.last().map(|e| e.cli.as_str()), Some("(integer) 2\n"));
    // MSET across slots is split too (line 494): OK.
    let ev = cross(lib, "MSET hello 1 bar 2");
    assert_eq!(ev.last().map(|e| e.cli.as_str()), Some("OK\n"));
}

#[test]
fn jedis() {
    let lib = ClientLibrary::Jedis;
    // MOVED: `provider.renewSlotCache(connection)` (ClusterCommandExecutor.java:142): CLUSTER
    // SLOTS on the connection that answered (JedisClusterInfoCache.java:199, 517), before the
    // next attempt goes to the named node.
    let (client, ev) = stale(lib);
    assert_eq!(
        kinds(&ev),
        [
            "> 127.0.0.1:7000 GET",
            "<",
            "> 127.0.0.1:7000 CLUSTER",
            "<",
            "refresh",
            "> 127.0.0.1:7001 GET",
            "<"
        ]
    );
    assert!(matches!(
        ev[2].narration,
        Narration::RefreshSends {
            background: false,
            ..
        }
    ));
    assert_eq!(client.route(9779), Some(M1));
    // ASK: ASKING on the target's connection (ClusterCommandExecutor.java:110); no refresh.
    let ev = ask(lib);
    assert_eq!(sends(&ev, "CLUSTER"), 0);
    assert_eq!(ev[1].cli, ask_5712());
    // TRYAGAIN: a plain JedisDataException, not retried.
    assert_eq!(kinds(&tryagain(lib)), ["> 127.0.0.1:7001 MGET", "<"]);
    // maxAttempts 5 sends (JedisCluster.java:42; ClusterCommandExecutor.java:103): 4 followed.
    assert_loop_limit(&ping_pong(lib), 4);
    // Keys across slots refused while the command is built (ClusterCommandArguments.java:25).
    let ev = cross(lib, "MGET hello bar");
    assert_eq!(kinds(&ev), ["give up"]);
    assert_eq!(
        give_up(&ev),
        Some(&GiveUpReason::KeysInSeveralSlots {
            exception: "JedisClusterOperationException",
            message: "Keys must belong to same hashslot.".to_owned()
        })
    );
}

#[test]
fn redis_py() {
    let lib = ClientLibrary::RedisPy;
    // MOVED: `move_slot` rewrites the one slot (redis/cluster.py:1902) ...
    let (client, ev) = stale(lib);
    assert_eq!(
        kinds(&ev),
        [
            "> 127.0.0.1:7000 GET",
            "<",
            "update 9779",
            "> 127.0.0.1:7001 GET",
            "<"
        ]
    );
    assert_eq!(client.route(9779), Some(M1));
    // ... but every `reinitialize_steps`-th MOVED (5, line 713; counter line 1892) calls
    // `initialize()` (line 1896): CLUSTER SLOTS to its startup nodes (line 2689).
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    op(&mut cluster, M1, "SET user:1002 alice");
    let mut client = Client::library(lib, &SlotMap::fixture_cluster());
    for n in 1..=5 {
        client.set_route(9779, M0);
        let ev = run(&mut cluster, &mut client, &args("GET user:1002"));
        let refreshed = ev
            .iter()
            .any(|e| matches!(e.kind, EventKind::TableRefresh { .. }));
        assert_eq!(refreshed, n == 5, "MOVED #{n}: {:?}", kinds(&ev));
        if n == 5 {
            assert!(is_request(&ev[2], M0, "CLUSTER SLOTS"));
        }
    }
    // ASK: ASKING then the command (line 1754).
    assert_eq!(sends(&ask(lib), "CLUSTER"), 0);
    // TRYAGAIN: again to the same node, 50 ms once the TTL of 16 is below 8 (lines 1922-1923):
    // no wait after sends 1-8, then 50 ms; 16 sends, then "TTL exhausted." (line 2011).
    let ev = tryagain(lib);
    assert_eq!(sends(&ev, "MGET"), 16);
    let mut expect = vec![(0, 0); 8];
    expect.extend(vec![(50, 50); 7]);
    assert_eq!(backoffs(&ev), expect);
    assert!(ev
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Request { .. }))
        .all(|e| e.to == Endpoint::Node(M1.to_owned())));
    assert_loop_limit(&ping_pong(lib), 15);
    // MGET across slots: RedisClusterException before sending (line 1494).
    let ev = cross(lib, "MGET hello bar");
    assert_eq!(
        give_up(&ev),
        Some(&GiveUpReason::KeysInSeveralSlots {
            exception: "RedisClusterException",
            message: "MGET - all keys must map to the same key slot".to_owned()
        })
    );
    // DEL is split by slot and the counts summed (redis/commands/cluster.py:276-286, 321).
    let ev = cross(lib, "DEL hello bar");
    assert_eq!(kinds(&ev)[0], "split 2");
    assert_eq!(ev.last().map(|e| e.cli.as_str()), Some("(integer) 2\n"));
}

#[test]
fn redis_rs() {
    let lib = ClientLibrary::RedisRs;
    // MOVED: `refresh_slots()` before the retry (sync_connection/mod.rs:888): CLUSTER SLOTS
    // (mod.rs:510; cluster_handling/mod.rs:119), the whole map replaced.
    let (client, ev) = stale(lib);
    assert_eq!(
        kinds(&ev),
        [
            "> 127.0.0.1:7000 GET",
            "<",
            "> 127.0.0.1:7001 CLUSTER",
            "<",
            "refresh",
            "> 127.0.0.1:7001 GET",
            "<"
        ]
    );
    assert_eq!(client.route(9779), Some(M1));
    // ASK: `Redirect::Ask`, ASKING and the command (mod.rs:883); no refresh.
    assert_eq!(sends(&ask(lib), "CLUSTER"), 0);
    // TRYAGAIN: WaitAndRetry (errors/server_error.rs:65), 1280 ms up to 10·2^retry ms
    // (client.rs:96, 127); retries until 16 (client.rs:94; mod.rs:877): 17 sends.
    let ev = tryagain(lib);
    assert_eq!(sends(&ev, "MGET"), 17);
    let waits = backoffs(&ev);
    assert_eq!(waits.len(), 16);
    assert_eq!(waits[0], (1280, 1280));
    assert_eq!(waits[7], (1280, 2559));
    assert_loop_limit(&ping_pong(lib), 16);
    // MGET split by slot (routing.rs:666).
    let ev = cross(lib, "MGET hello bar");
    assert_eq!(kinds(&ev)[0], "split 2");
    assert_eq!(
        ev.last().map(|e| e.cli.as_str()),
        Some("1) \"1\"\n2) \"2\"\n")
    );
}

/// A key that exists nowhere yet is ASKed during a migration, as transcript 07 records
/// (`SET {user:1001}:newkey x` → ASK): every library follows it with ASKING.
#[test]
fn ask_answers_a_key_that_exists_nowhere() {
    for lib in slotscope::core::client::LIBRARIES {
        let ev = client_run(lib, &mut migrating(true), "SET {user:1001}:newkey x");
        assert_eq!(
            ev[1].cli,
            recorded(T07, "redis-cli -p 7001 SET {user:1001}:newkey x", 0)
        );
        assert!(ev.iter().any(|e| matches!(e.kind, EventKind::Asking)));
        assert_eq!(ev.last().map(|e| e.cli.as_str()), Some("OK\n"), "{lib:?}");
    }
}
