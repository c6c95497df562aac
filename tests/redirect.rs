//! Client policies and the Redirections scenarios against the recorded redis-cli transcripts
//! (02, 03, 04, 07): replies read from the files, not retyped; and properties of the policies
//! (termination, ASK never moves a slot's entry, after MOVED the table names the node it
//! named, MOVED-only gives up on time). Each library's own behaviour is in tests/libraries.rs.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use slotscope::core::client::{
    run, scenarios, Client, ClientLibrary, Endpoint, Event, EventKind, Narration, Policy, Scenario,
    SendReason, LIBRARIES,
};
use slotscope::core::key::args::split_args;
use slotscope::core::server::{Cluster, Redirect, Reply, Session};
use slotscope::core::SlotMap;
use std::collections::BTreeMap;

const M0: &str = "127.0.0.1:7000";
const M1: &str = "127.0.0.1:7001";
const M2: &str = "127.0.0.1:7002";
const ID_7001: &str = "f7c6b5d608aefdd517b33641eb638ce56252d0b4";
const ID_7002: &str = "44084a172411812451c56a0a3330ec6daa733083";

/// A transcript's outputs, by the command line that produced them (the text after `$ `, or
/// after an interactive prompt), in file order.
fn outputs(name: &str) -> BTreeMap<String, Vec<String>> {
    let path = common::fixtures_dir().join("transcripts").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let command = |line: &str| -> Option<String> {
        if let Some(c) = line.strip_prefix("$ ") {
            return Some(c.to_owned());
        }
        let rest = line.strip_prefix("127.0.0.1:")?;
        let (_, typed) = rest.split_once("> ")?;
        Some(format!("> {typed}"))
    };
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines().skip(1) {
        if let Some(c) = command(line) {
            if let Some((k, v)) = current.take() {
                out.entry(k).or_default().push(v);
            }
            current = Some((c, String::new()));
        } else if let Some((_, v)) = current.as_mut() {
            v.push_str(line);
            v.push('\n');
        }
    }
    if let Some((k, v)) = current {
        out.entry(k).or_default().push(v);
    }
    out
}

/// The `nth` (0-based) output of `command` in transcript `name`.
fn expected(name: &str, command: &str, nth: usize) -> String {
    outputs(name)
        .get(command)
        .and_then(|v| v.get(nth).cloned())
        .unwrap_or_else(|| panic!("{name}: no output #{nth} for `{command}`"))
}

fn scenario(id: &str) -> Scenario {
    scenarios()
        .into_iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no scenario {id}"))
}

fn replies(events: &[Event]) -> Vec<&Event> {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Reply { .. }))
        .collect()
}

fn table_updates(events: &[Event]) -> Vec<(u16, Option<String>, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TableUpdate { slot, old, new } => Some((*slot, old.clone(), new.clone())),
            _ => None,
        })
        .collect()
}

fn gave_up(events: &[Event]) -> bool {
    matches!(
        events.last().map(|e| &e.kind),
        Some(EventKind::GiveUp { .. })
    )
}

/// Each library's redirect budget as its source counts it (the numbers read at the tags in
/// core/client/library.rs): ioredis `maxRedirections: 16` (lib/cluster/ClusterOptions.ts:243,
/// the 17th error is returned), go-redis `MaxRedirects = 3` (osscluster.go:217), Lettuce
/// `DEFAULT_MAX_REDIRECTS = 5` (ClusterClientOptions.java:48), Jedis `DEFAULT_MAX_ATTEMPTS = 5`
/// sends (JedisCluster.java:42), redis-py `RedisClusterRequestTTL = 16` sends
/// (redis/cluster.py:396), redis-rs `DEFAULT_RETRIES: u32 = 16` (client.rs:94).
#[test]
fn budgets_are_the_libraries_defaults() {
    let got: Vec<(&str, &str, u32, u32)> = LIBRARIES
        .iter()
        .map(|l| {
            let b = l.behaviour();
            (b.name, b.limit_option.0, b.limit_option.1, b.max_redirects)
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("ioredis", "maxRedirections", 16, 16),
            ("go-redis", "MaxRedirects", 3, 3),
            ("Lettuce", "maxRedirects", 5, 5),
            ("Jedis", "maxAttempts", 5, 4),
            ("redis-py", "RedisClusterRequestTTL", 16, 15),
            ("redis-rs", "retries", 16, 16),
        ]
    );
}

#[test]
fn scenario_ids_are_unique_and_every_scenario_has_steps() {
    let all = scenarios();
    let mut ids: Vec<&str> = all.iter().map(|s| s.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len());
    assert!(all.len() >= 6);
    for s in &all {
        assert!(!s.steps.is_empty(), "{}", s.id);
        assert!(s.steps.iter().all(|st| !st.events.is_empty()), "{}", s.id);
        // Scenarios are deterministic.
        assert_eq!(Some(s), scenarios().iter().find(|t| t.id == s.id));
        for e in s.events() {
            if let EventKind::Reply { reply } = &e.kind {
                assert_eq!(e.resp, reply.to_resp());
            }
        }
    }
}

#[test]
fn a_stale_route_is_moved_then_direct() {
    let s = scenario("stale-route");
    assert_eq!(
        s.start_table
            .iter()
            .find(|(r, _)| r.contains(9779))
            .map(|(_, a)| a.as_str()),
        Some(M0)
    );
    // ioredis: the MOVED's slot rewritten (lib/cluster/index.ts:543), then CLUSTER SLOTS to
    // a node (index.ts:551, 931) and the whole table replaced, then the retry.
    assert_eq!(s.policy, Policy::Library(ClientLibrary::Ioredis));
    let first = &s.steps[0].events;
    let r = replies(first);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0].from, Endpoint::Node(M0.into()));
    assert!(
        matches!(&first[3].kind, EventKind::Request { args } if args == &split_args("CLUSTER SLOTS").unwrap())
    );
    assert!(matches!(first[5].kind, EventKind::TableRefresh { .. }));
    assert_eq!(
        r[0].cli,
        expected("02_moved.txt", "redis-cli -p 7000 GET user:1002", 0)
    );
    assert_eq!(
        table_updates(first),
        vec![(9779, Some(M0.to_owned()), M1.to_owned())]
    );
    assert_eq!(r[2].from, Endpoint::Node(M1.into()));
    assert_eq!(
        r[2].cli,
        expected("03_cli_c_redirect.txt", "> GET user:1002", 0)
    );
    // The retry follows the MOVED, which the table now agrees with: it is told as the table's.
    let retry = first
        .iter()
        .filter(|e| matches!(e.narration, Narration::ClientSends { .. }))
        .nth(1)
        .expect("a retry");
    assert_eq!(
        retry.narration,
        Narration::ClientSends {
            command: "GET".into(),
            addr: M1.into(),
            why: SendReason::SlotTable { slot: 9779 },
        }
    );
    // The second request goes straight to 7001.
    let second = &s.steps[1].events;
    assert_eq!(second.len(), 2);
    assert_eq!(second[0].to, Endpoint::Node(M1.into()));
    assert_eq!(second[1].cli, r[2].cli);
}

#[test]
fn a_live_migration_matches_transcript_07() {
    const T: &str = "07_slot_migration_ask_tryagain.txt";
    let s = scenario("live-migration");
    let step = |i: usize| &s.steps[i].events;
    // SETSLOT IMPORTING, MIGRATING and the MIGRATE of one key, as recorded.
    let op_reply = |i: usize| replies(step(i))[0].cli.clone();
    assert_eq!(
        op_reply(2),
        expected(
            T,
            &format!("redis-cli -p 7002 CLUSTER SETSLOT 5712 IMPORTING {ID_7001}"),
            0
        )
    );
    assert_eq!(
        op_reply(3),
        expected(
            T,
            &format!("redis-cli -p 7001 CLUSTER SETSLOT 5712 MIGRATING {ID_7002}"),
            0
        )
    );
    assert_eq!(
        op_reply(4),
        expected(
            T,
            "redis-cli -p 7001 MIGRATE 127.0.0.1 7002 {user:1001}:profile 0 5000",
            0
        )
    );
    // GET of the moved key: ASK, ASKING, the value; the table does not change.
    let get = step(5);
    let kinds: Vec<&EventKind> = get.iter().map(|e| &e.kind).collect();
    assert!(matches!(kinds[0], EventKind::Request { .. }));
    assert!(get[1].is_ask());
    assert_eq!(
        get[1].cli,
        expected(T, "redis-cli -p 7001 GET {user:1001}:profile", 1)
    );
    assert_eq!(get[1].resp, b"-ASK 5712 127.0.0.1:7002\r\n");
    assert!(matches!(kinds[2], EventKind::Asking));
    assert_eq!(get[2].to, Endpoint::Node(M2.into()));
    assert_eq!(get[3].cli, expected(T, "> ASKING", 0));
    assert_eq!(get[5].cli, expected(T, "> GET {user:1001}:profile", 1));
    assert_eq!(get.len(), 6);
    assert!(table_updates(get).is_empty());
    // The unmoved key is served by the source.
    let orders = step(6);
    assert_eq!(orders.len(), 2);
    assert_eq!(orders[1].from, Endpoint::Node(M1.into()));
    assert_eq!(
        orders[1].cli,
        expected(T, "redis-cli -p 7001 GET {user:1001}:orders", 0)
    );
    // The target without ASKING, ASKING, one command, and ASKING used up: the interactive
    // session on 7002, line by line.
    let session: Vec<String> = (7..11).map(op_reply).collect();
    assert_eq!(
        session,
        vec![
            expected(T, "> GET {user:1001}:profile", 0),
            expected(T, "> ASKING", 0),
            expected(T, "> GET {user:1001}:profile", 1),
            expected(T, "> GET {user:1001}:profile", 2),
        ]
    );
    assert!(s
        .events()
        .all(|e| !matches!(e.kind, EventKind::TableUpdate { .. })));
}

#[test]
fn tryagain_until_the_last_key_moves() {
    const T: &str = "07_slot_migration_ask_tryagain.txt";
    let s = scenario("tryagain");
    let mget = "redis-cli -p 7001 MGET {user:1001}:profile {user:1001}:orders";
    let first = &s.steps[5].events;
    let r = replies(first);
    assert_eq!(r.len(), 4, "one try and three retries");
    assert!(r.iter().all(|e| e.cli == expected(T, mget, 0)));
    let backoffs = first
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Backoff { .. }))
        .count();
    assert_eq!(backoffs, 3);
    assert!(gave_up(first));
    assert_eq!(
        replies(&s.steps[6].events)[0].cli,
        expected(
            T,
            "redis-cli -p 7001 MIGRATE 127.0.0.1 7002 \"\" 0 5000 KEYS {user:1001}:orders",
            0
        )
    );
    // Now the source has none of the keys: ASK, ASKING, both values from the target.
    let last = &s.steps[7].events;
    assert!(last[1].is_ask());
    assert_eq!(
        replies(last).last().map(|e| e.cli.clone()),
        Some(expected(
            T,
            "redis-cli -p 7002 MGET {user:1001}:profile {user:1001}:orders",
            0
        ))
    );
}

#[test]
fn crossslot_matches_transcript_04() {
    let s = scenario("crossslot");
    let r0 = replies(&s.steps[0].events);
    let r1 = replies(&s.steps[1].events);
    assert_eq!(
        r0[0].cli,
        expected(
            "04_crossslot_mset_mget.txt",
            "redis-cli -p 7000 MSET hello 1 bar 2",
            0
        )
    );
    assert_eq!(
        r1[0].cli,
        expected(
            "04_crossslot_mset_mget.txt",
            "redis-cli -p 7000 MGET hello bar",
            0
        )
    );
}

#[test]
fn the_end_of_a_migration_is_moved_and_updates_the_table() {
    const T: &str = "07_slot_migration_ask_tryagain.txt";
    let s = scenario("end-of-migration");
    for (i, port) in [(6, 7002), (7, 7001), (8, 7000)] {
        assert_eq!(
            replies(&s.steps[i].events)[0].cli,
            expected(
                T,
                &format!("redis-cli -p {port} CLUSTER SETSLOT 5712 NODE {ID_7002}"),
                0
            )
        );
    }
    let get = &s.steps[9].events;
    assert!(get[1].is_moved());
    assert_eq!(
        get[1].cli,
        expected(T, "redis-cli -p 7001 GET {user:1001}:profile", 2)
    );
    // Jedis renews its whole slot cache with CLUSTER SLOTS on the connection that answered
    // MOVED, before following it (ClusterCommandExecutor.java:142, JedisClusterInfoCache.java:199):
    // no one-entry rewrite, and the refreshed table already names 7002.
    assert!(table_updates(get).is_empty());
    assert_eq!(get[2].to, Endpoint::Node(M1.into()));
    assert!(
        matches!(&get[2].kind, EventKind::Request { args } if args == &split_args("CLUSTER SLOTS").unwrap())
    );
    match &get[4].kind {
        EventKind::TableRefresh { table } => assert_eq!(
            table
                .iter()
                .find(|(r, _)| r.contains(5712))
                .map(|(_, a)| a.as_str()),
            Some(M2)
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(get[5].to, Endpoint::Node(M2.into()));
    assert_eq!(
        replies(get).last().map(|e| e.cli.clone()),
        Some(expected(T, "redis-cli -p 7002 GET {user:1001}:profile", 1))
    );
    let orders = &s.steps[10].events;
    assert_eq!(orders.len(), 2, "direct to the new owner");
    assert_eq!(
        orders[1].cli,
        expected(T, "redis-cli -c -p 7001 GET {user:1001}:orders", 0)
    );
}

#[test]
fn a_moved_only_client_bounces_until_go_redis_gives_up() {
    const T: &str = "07_slot_migration_ask_tryagain.txt";
    let s = scenario("moved-only-client");
    assert_eq!(s.policy, Policy::MovedOnly);
    assert_eq!(s.max_redirects, 3);
    let get = &s.steps[5].events;
    let r = replies(get);
    assert_eq!(r.len(), 4);
    let ask = expected(T, "redis-cli -p 7001 GET {user:1001}:profile", 1);
    let moved_back = expected(T, "redis-cli -p 7002 GET {user:1001}:profile", 0);
    let texts: Vec<&str> = r.iter().map(|e| e.cli.as_str()).collect();
    assert_eq!(texts, vec![&ask, &moved_back, &ask, &moved_back]);
    assert_eq!(table_updates(get).len(), 3);
    assert!(get.iter().all(|e| !matches!(e.kind, EventKind::Asking)));
    assert!(gave_up(get));
}

#[test]
fn an_uncovered_slot_is_clusterdown() {
    // No fixture records an uncovered slot; the text is Redis 7.0's.
    let s = scenario("uncovered-slot");
    assert_eq!(
        replies(&s.steps[0].events)[0].cli,
        "(error) CLUSTERDOWN Hash slot not served\n"
    );
}

/// `redis-cli -c` as a policy prints what transcript 03 shows, one-shot and interactive.
#[test]
fn redis_cli_c_policy_prints_transcript_03() {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    cluster.exec(M2, &split_args("SET foo bar").unwrap(), &mut Session::new());
    let map = cluster.map().clone();
    let cli = |port: u16| {
        Client::new(Policy::RedisCliC, 16, &map).connected_to(format!("127.0.0.1:{port}"))
    };
    let printed = |events: Vec<Event>| -> String {
        replies(&events).iter().map(|e| e.cli.as_str()).collect()
    };
    let args = |line: &str| split_args(line).unwrap();
    const T: &str = "03_cli_c_redirect.txt";
    // One-shot: redirects are followed silently.
    let mut c = cli(7000);
    let out = run(&mut cluster, &mut c, &args("GET foo"));
    assert_eq!(
        replies(&out).last().unwrap().cli,
        expected(T, "redis-cli -c -p 7000 GET foo", 0)
    );
    let mut c = cli(7000);
    let out = run(&mut cluster, &mut c, &args("SET user:1002 alice"));
    assert_eq!(
        replies(&out).last().unwrap().cli,
        expected(T, "redis-cli -c -p 7000 SET user:1002 alice", 0)
    );
    // Interactive: the `-> Redirected` lines, and the connection moves with them.
    let mut c = cli(7000);
    let lines = [
        ("GET foo", 0),
        ("SET hello world", 0),
        ("GET hello", 0),
        ("SET {user1}:profile alice", 0),
        ("GET {user1}:profile", 0),
        ("GET user:1002", 0),
    ];
    for (line, nth) in lines {
        let text = printed(run(&mut cluster, &mut c, &args(line)));
        assert_eq!(text, expected(T, &format!("> {line}"), nth), "{line}");
    }
    assert_eq!(c.connected(), M1);
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/// A cluster with slot 5712 in a given migration state and `{user:1001}:a`/`:b` placed.
#[derive(Clone, Debug)]
struct State {
    migrating: bool,
    importing: bool,
    /// Where each key is: 0 nowhere, 1 on the source (7001), 2 on the target (7002).
    a: u8,
    b: u8,
    /// The client's entry for slot 5712: 0-2 a master, 3 no entry (left as the map gives).
    route: u8,
}

fn build(state: &State) -> Cluster {
    let mut map = SlotMap::fixture_cluster();
    let src = map.master_by_id(ID_7001).unwrap();
    let dst = map.master_by_id(ID_7002).unwrap();
    if state.migrating {
        map.master_mut(src)
            .unwrap()
            .migrating
            .push((5712, ID_7002.into()));
    }
    if state.importing {
        map.master_mut(dst)
            .unwrap()
            .importing
            .push((5712, ID_7001.into()));
    }
    // Write the keys before opening the slot, then move the map in.
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let mut put = |key: &str, at: u8| {
        let addr = match at {
            1 => M1,
            2 => M2,
            _ => return,
        };
        let mut session = Session::new();
        if at == 2 {
            // 7002 does not own 5712: store it as MIGRATE would, with ASKING on an open slot,
            // or by owning it for a moment.
            let mut tmp = SlotMap::fixture_cluster();
            tmp.assign(5712, Some(dst));
            let saved = cluster.map().clone();
            cluster.set_map(tmp);
            cluster.exec(
                addr,
                &split_args(&format!("SET {key} v")).unwrap(),
                &mut session,
            );
            cluster.set_map(saved);
        } else {
            cluster.exec(
                addr,
                &split_args(&format!("SET {key} v")).unwrap(),
                &mut session,
            );
        }
    };
    put("{user:1001}:a", state.a);
    put("{user:1001}:b", state.b);
    cluster.set_map(map);
    cluster
}

fn client_for(state: &State, cluster: &Cluster, policy: Policy, max: u32) -> Client {
    let mut c = Client::of_cluster(policy, max, cluster);
    if let Some(addr) = [M0, M1, M2].get(usize::from(state.route)) {
        c.set_route(5712, addr);
    }
    c
}

fn state() -> impl Strategy<Value = State> {
    (any::<bool>(), any::<bool>(), 0u8..3, 0u8..3, 0u8..4).prop_map(
        |(migrating, importing, a, b, route)| State {
            migrating,
            importing,
            a,
            b,
            route,
        },
    )
}

fn command() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "GET {user:1001}:a",
        "GET {user:1001}:b",
        "SET {user:1001}:a x",
        "SET {user:1001}:c x",
        "MGET {user:1001}:a {user:1001}:b",
        "MSET {user:1001}:a 1 {user:1001}:b 2",
        "DEL {user:1001}:a",
        "EXISTS {user:1001}:a {user:1001}:b",
        "MGET {user:1001}:a hello",
        "PING",
    ])
}

fn policy() -> impl Strategy<Value = Policy> {
    let mut all: Vec<Policy> = LIBRARIES.iter().map(|l| Policy::Library(*l)).collect();
    all.extend([Policy::RedisCliC, Policy::MovedOnly]);
    prop::sample::select(all)
}

fn library() -> impl Strategy<Value = ClientLibrary> {
    prop::sample::select(LIBRARIES.to_vec())
}

/// An arrow of a whole-map refresh: its requests, their replies, the table replaced.
fn is_refresh(e: &Event) -> bool {
    matches!(e.kind, EventKind::TableRefresh { .. })
        || matches!(
            e.narration,
            Narration::RefreshSends { .. } | Narration::MapReply { .. }
        )
}

/// The client's table as the events show it: the start, every one-entry rewrite and every
/// whole-table refresh applied in order; checked at each request after a MOVED.
fn replay(before: &Client, events: &[Event]) -> Result<Client, TestCaseError> {
    let mut table = before.clone();
    let mut pending: Option<(u16, String)> = None;
    for e in events {
        match &e.kind {
            EventKind::TableUpdate { slot, new, .. } => table.set_route(*slot, new),
            EventKind::TableRefresh { table: fresh } => {
                for (range, addr) in fresh {
                    for s in range.first..=range.last {
                        table.set_route(s, addr);
                    }
                }
            }
            EventKind::Reply { reply } => {
                if let Some(r) = Redirect::of(reply).filter(|r| !r.ask) {
                    pending = Some((r.slot, r.addr));
                }
            }
            EventKind::Request { args } if e.from == Endpoint::Client && !args.is_empty() => {
                if let Some((slot, addr)) = pending.take() {
                    // Not a refresh request: the retry the MOVED caused.
                    if args != &split_args("CLUSTER SLOTS").unwrap()
                        && args != &split_args("CLUSTER NODES").unwrap()
                    {
                        prop_assert_eq!(table.route(slot), Some(addr.as_str()));
                    } else {
                        pending = Some((slot, addr));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(table)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every policy stops within its budgets, on any migration state, and a followed
    /// redirection count never exceeds max_redirects.
    #[test]
    fn every_policy_terminates(st in state(), cmd in command(), policy in policy(), max in 0u32..20) {
        let mut cluster = build(&st);
        let mut client = client_for(&st, &cluster, policy, max);
        let events = run(&mut cluster, &mut client, &split_args(cmd).unwrap());
        // A library that splits a command by slot gives each part its own budget.
        let parts = match events.first().map(|e| &e.kind) {
            Some(EventKind::Split { parts }) => parts.len() as u32,
            _ => 1,
        };
        let redirects = replies(&events)
            .iter()
            .filter(|e| matches!(&e.kind, EventKind::Reply { reply } if Redirect::of(reply).is_some()))
            .count() as u32;
        prop_assert!(redirects <= parts * (max + 1));
        // Per send at most: ASKING and its reply, the request, its reply, a rewrite, a
        // refresh from every node (three here) and the table replaced, a back-off.
        prop_assert!(events.len() <= parts as usize * 14 * (max as usize + 1) + 2);
        let last = events.last().unwrap();
        let ends_in_reply_to_client = matches!(last.kind, EventKind::Reply { .. }) && last.to == Endpoint::Client;
        let reassembled = matches!(last.kind, EventKind::Reassembled { .. });
        prop_assert!(ends_in_reply_to_client || reassembled || gave_up(&events));
    }

    /// ASK never rewrites a library's entry (a library that refreshes on ASK replaces its table
    /// with the cluster's own map, in which the source still owns the slot), and `ASKING` or a
    /// give-up comes next once any refresh is done; after every MOVED a library follows, its
    /// table names the node the MOVED named before the retry goes out (rewritten or refreshed);
    /// the client's table is what the events say.
    #[test]
    fn ask_keeps_the_table_and_moved_changes_it(st in state(), cmd in command(), max in 0u32..20, lib in library()) {
        let mut cluster = build(&st);
        let mut client = client_for(&st, &cluster, Policy::Library(lib), max);
        let before = client.clone();
        let events = run(&mut cluster, &mut client, &split_args(cmd).unwrap());
        for (i, e) in events.iter().enumerate() {
            if let EventKind::Reply { reply } = &e.kind {
                let Some(r) = Redirect::of(reply) else { continue };
                if r.ask {
                    let next = events[i + 1..]
                        .iter()
                        .find(|e| !is_refresh(e))
                        .map(|e| &e.kind);
                    let asking_next = matches!(next, Some(EventKind::Asking) | Some(EventKind::GiveUp { .. }));
                    prop_assert!(asking_next, "{:?}", next);
                    let rewrites = events[i + 1..]
                        .iter()
                        .take_while(|e| !matches!(e.kind, EventKind::Asking))
                        .any(|e| matches!(e.kind, EventKind::TableUpdate { .. }));
                    prop_assert!(!rewrites);
                }
            }
        }
        let replayed = replay(&before, &events)?;
        prop_assert_eq!(client.table(), replayed.table());
    }

    /// On a consistent migration (both sides open, or neither), every library with a budget of
    /// 2 always reaches the key's holder: it never gives up on a single-key command.
    #[test]
    fn a_library_reaches_the_holder(st in state(), key in prop::sample::select(vec!["a", "b", "c"]), lib in library()) {
        let st = State { importing: st.migrating, ..st };
        let mut cluster = build(&st);
        let mut client = client_for(&st, &cluster, Policy::Library(lib), 2);
        let events = run(&mut cluster, &mut client, &split_args(&format!("GET {{user:1001}}:{key}")).unwrap());
        prop_assert!(!gave_up(&events));
        // Stable slot: the owner (7001) answers. Open slot: the source if it still has the
        // key, else the target after ASKING.
        let on_source = (key == "a" && st.a == 1) || (key == "b" && st.b == 1);
        let holder = if !st.migrating || on_source { M1 } else { M2 };
        let last = events.last().unwrap();
        prop_assert_eq!(&last.from, &Endpoint::Node(holder.to_owned()));
        let is_bulk = matches!(&last.kind, EventKind::Reply { reply: Reply::Bulk(_) });
        prop_assert!(is_bulk || !st.migrating);
    }

    /// During a migration where the key sits on the target, a MOVED-only client follows
    /// exactly max_redirects redirections, then gives up.
    #[test]
    fn a_moved_only_client_gives_up_after_exactly_max(max in 0u32..24) {
        let st = State { migrating: true, importing: true, a: 2, b: 1, route: 1 };
        let mut cluster = build(&st);
        let mut client = client_for(&st, &cluster, Policy::MovedOnly, max);
        let events = run(&mut cluster, &mut client, &split_args("GET {user:1001}:a").unwrap());
        prop_assert!(gave_up(&events));
        prop_assert_eq!(table_updates(&events).len() as u32, max);
        let requests = events.iter().filter(|e| matches!(e.kind, EventKind::Request { .. })).count() as u32;
        prop_assert_eq!(requests, max + 1);
    }
}

/// A client hashing with cluster-key-slot 1.1.x's rule (ioredis's dependency), redirected as ioredis is: `foo{}{bar}` is slot 4015 to it
/// (7000's) and 8363 to Redis (7001's), so every GET pays a MOVED, and the table update for
/// 8363 never helps.
#[test]
fn a_client_that_disagrees_pays_a_moved_on_every_command() {
    use slotscope::core::client::{moved_loop_scenario, MOVED_LOOPS};
    use slotscope::core::key::client_rules::{cluster_key_slot, ClientRule};
    use slotscope::core::key_slot;
    assert_eq!(key_slot(b"foo{}{bar}"), 8363);
    assert_eq!(cluster_key_slot(b"foo{}{bar}"), 4015);
    // redis-cli's MOVED line for 7000, as transcript 02 prints one.
    let recorded = expected("02_moved.txt", "redis-cli -p 7000 GET user:1002", 0);
    assert_eq!(recorded, "(error) MOVED 9779 127.0.0.1:7001\n");

    // Each rule's scenario: (id, the client's slot and its master, Redis's slot and its master).
    // `{a}{b}`: Redis hashes `a` (the recorded 15495), the last brace pair `b` (3300, as the
    // key `b` is recorded). `naïve` in UTF-16 code units is the bytes `na\xefve`.
    let cases = [
        (
            "client-disagrees",
            ClientRule::ClusterKeySlot,
            4015,
            M0,
            8363,
            M1,
        ),
        (
            "client-last-brace",
            ClientRule::LastBracePair,
            common::redis_slot("b"),
            M0,
            common::redis_slot("{a}{b}"),
            M2,
        ),
        (
            "client-utf16",
            ClientRule::Utf16CodeUnits,
            key_slot(b"na\xefve"),
            M2,
            key_slot("naïve".as_bytes()),
            M0,
        ),
    ];
    assert_eq!(MOVED_LOOPS.len(), cases.len());
    assert_eq!(moved_loop_scenario(ClientRule::EmptyKeyRandom), None);
    for (id, rule, client_slot, wrong, slot, owner) in cases {
        assert_eq!(moved_loop_scenario(rule), Some(id));
        assert_ne!(client_slot, slot, "{id}");
        let moved_line = recorded
            .replace("9779", &slot.to_string())
            .replace(M1, owner);
        let s = scenario(id);
        // Each follows redirections as ioredis does: the MOVED's entry rewritten, the whole
        // map refreshed with CLUSTER SLOTS (lib/cluster/index.ts:543, 551), then the retry.
        assert_eq!(s.policy, Policy::Library(ClientLibrary::Ioredis));
        assert_eq!(s.rule, rule);
        assert!(s.steps.len() >= 3);
        for (i, step) in s.steps.iter().enumerate() {
            let ev = &step.events;
            let kinds: Vec<String> = ev.iter().map(|e| format!("{:?}", e.kind)).collect();
            assert_eq!(ev.len(), 8, "{id} step {i}: {kinds:?}");
            assert_eq!(
                ev[0].to,
                Endpoint::Node(wrong.into()),
                "{id} step {i} routes by slot {client_slot}"
            );
            assert!(ev[1].is_moved(), "{id} step {i}");
            assert_eq!(ev[1].from, Endpoint::Node(wrong.into()));
            assert_eq!(ev[1].cli, moved_line);
            assert_eq!(
                ev[1].resp,
                format!("-MOVED {slot} {owner}\r\n").into_bytes()
            );
            assert_eq!(
                table_updates(ev),
                vec![(slot, Some(owner.to_owned()), owner.to_owned())]
            );
            assert!(
                matches!(ev[5].kind, EventKind::TableRefresh { .. }),
                "{id} step {i}"
            );
            assert_eq!(ev[6].to, Endpoint::Node(owner.into()));
            // It goes there because the MOVED said so: its table still says `wrong` for its
            // own slot.
            assert_eq!(
                ev[6].narration,
                Narration::ClientSends {
                    command: "GET".into(),
                    addr: owner.into(),
                    why: SendReason::Moved { slot },
                },
                "{id} step {i}"
            );
            assert_eq!(
                ev[0].narration,
                Narration::ClientSends {
                    command: "GET".into(),
                    addr: wrong.into(),
                    why: SendReason::SlotTable { slot: client_slot },
                },
                "{id} step {i}"
            );
            assert_eq!(
                ev[7].kind,
                EventKind::Reply {
                    reply: Reply::Bulk(Some(b"hello".to_vec()))
                }
            );
        }
    }
    // The engine alone gives the same reply to the misrouted command.
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let get = split_args("GET foo{}{bar}").unwrap();
    let reply = cluster.exec(M0, &get, &mut Session::new());
    assert_eq!(
        Redirect::of(&reply).map(|r| (r.slot, r.addr)),
        Some((8363, M1.to_owned()))
    );

    // The client's table afterwards: 8363 → 7001, and 4015 still → 7000.
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let set = split_args("SET foo{}{bar} hello").unwrap();
    cluster.exec(M1, &set, &mut Session::new());
    let mut client = Client::library(ClientLibrary::Ioredis, &SlotMap::fixture_cluster())
        .with_rule(ClientRule::ClusterKeySlot);
    for _ in 0..4 {
        let events = run(&mut cluster, &mut client, &get);
        assert_eq!(events.iter().filter(|e| e.is_moved()).count(), 1);
    }
    assert_eq!(client.route(8363), Some(M1));
    assert_eq!(client.route(4015), Some(M0));
    // With Redis's rule the same client goes straight to 7001.
    let mut redis = Client::library(ClientLibrary::Ioredis, &SlotMap::fixture_cluster());
    let events = run(&mut cluster, &mut redis, &get);
    assert_eq!(events.len(), 2);
    assert_eq!(events[0].to, Endpoint::Node(M1.into()));
}

/// Whatever a narration says of the client's slot table is what the table (the scenario's
/// start, with every update shown so far) says: where a send went by the table, the old entry
/// an update replaced, the entry an update did not help, and a slot with no entry.
#[test]
fn every_narration_of_the_table_is_what_the_table_says() {
    for s in scenarios() {
        let mut updates: BTreeMap<u16, String> = BTreeMap::new();
        let mut base = s.start_table.clone();
        let says = |base: &[(slotscope::core::SlotRange, String)],
                    updates: &BTreeMap<u16, String>,
                    slot: u16| {
            updates.get(&slot).cloned().or_else(|| {
                base.iter()
                    .find(|(r, _)| r.contains(slot))
                    .map(|(_, a)| a.clone())
            })
        };
        for (i, step) in s.steps.iter().enumerate() {
            for e in &step.events {
                let at = format!("{} step {i}: {:?}", s.id, e.narration);
                match &e.narration {
                    Narration::ClientSends { addr, why, .. } => match why {
                        SendReason::SlotTable { slot } => {
                            assert_eq!(says(&base, &updates, *slot).as_ref(), Some(addr), "{at}")
                        }
                        SendReason::NoRoute { slot } => {
                            assert_eq!(says(&base, &updates, *slot), None, "{at}")
                        }
                        _ => {}
                    },
                    Narration::TableUpdateInVain {
                        own_slot, own_addr, ..
                    } => assert_eq!(
                        says(&base, &updates, *own_slot).as_ref(),
                        Some(own_addr),
                        "{at}"
                    ),
                    _ => {}
                }
                if let EventKind::TableUpdate { slot, old, new } = &e.kind {
                    assert_eq!(&says(&base, &updates, *slot), old, "{at}");
                    updates.insert(*slot, new.clone());
                }
                if let EventKind::TableRefresh { table } = &e.kind {
                    base = table.clone();
                    updates.clear();
                }
            }
        }
    }
}
