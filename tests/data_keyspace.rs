//! Keyspace commands (DEL EXISTS TYPE OBJECT RENAME COPY) and expiry (EXPIRE NX XX GT LT, TTL, PERSIST) on the typed key space.
//! Every expected reply below is the RESP that a real redis-server 7.0.15 sent for the same
//! command sequence (recorded with a small socket client against a fresh server, then pasted
//! in); the page's key space must answer byte for byte the same.

mod common_data;

/// Recorded from redis-server 7.0.15.
const CASES: &[(&[&[u8]], &[u8])] = &[
        (&[b"SET" as &[u8], b"a" as &[u8], b"1" as &[u8]], b"+OK\r\n"),
        (&[b"SET" as &[u8], b"b" as &[u8], b"hello" as &[u8]], b"+OK\r\n"),
        (&[b"RPUSH" as &[u8], b"l" as &[u8], b"x" as &[u8], b"y" as &[u8]], b":2\r\n"),
        (&[b"HSET" as &[u8], b"h" as &[u8], b"f" as &[u8], b"v" as &[u8]], b":1\r\n"),
        (&[b"EXISTS" as &[u8], b"a" as &[u8], b"b" as &[u8], b"nokey" as &[u8], b"a" as &[u8]], b":3\r\n"),
        (&[b"TYPE" as &[u8], b"a" as &[u8]], b"+string\r\n"),
        (&[b"TYPE" as &[u8], b"l" as &[u8]], b"+list\r\n"),
        (&[b"TYPE" as &[u8], b"h" as &[u8]], b"+hash\r\n"),
        (&[b"TYPE" as &[u8], b"nokey" as &[u8]], b"+none\r\n"),
        (&[b"DEL" as &[u8], b"a" as &[u8], b"nokey" as &[u8]], b":1\r\n"),
        (&[b"UNLINK" as &[u8], b"b" as &[u8]], b":1\r\n"),
        (&[b"TOUCH" as &[u8], b"l" as &[u8], b"h" as &[u8], b"nokey" as &[u8]], b":2\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"l" as &[u8]], b"$9\r\nquicklist\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"h" as &[u8]], b"$8\r\nlistpack\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"nokey" as &[u8]], b"$-1\r\n"),
        (&[b"OBJECT" as &[u8], b"FOO" as &[u8]], b"-ERR unknown subcommand 'FOO'. Try OBJECT HELP.\r\n"),
        (&[b"OBJECT" as &[u8], b"HELP" as &[u8]], b"*15\r\n+OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+ENCODING <key>\r\n+    Return the kind of internal representation used in order to store the value\r\n+    associated with a <key>.\r\n+FREQ <key>\r\n+    Return the access frequency index of the <key>. The returned integer is\r\n+    proportional to the logarithm of the recent access frequency of the key.\r\n+IDLETIME <key>\r\n+    Return the idle time of the <key>, that is the approximated number of\r\n+    seconds elapsed since the last access to the key.\r\n+REFCOUNT <key>\r\n+    Return the number of references of the value associated with the specified\r\n+    <key>.\r\n+HELP\r\n+    Prints this help.\r\n"),
        (&[b"SET" as &[u8], b"i" as &[u8], b"123" as &[u8]], b"+OK\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"i" as &[u8]], b"$3\r\nint\r\n"),
        (&[b"OBJECT" as &[u8], b"REFCOUNT" as &[u8], b"i" as &[u8]], b":2147483647\r\n"),
        (&[b"SET" as &[u8], b"e" as &[u8], b"abcdef" as &[u8]], b"+OK\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"e" as &[u8]], b"$6\r\nembstr\r\n"),
        (&[b"OBJECT" as &[u8], b"REFCOUNT" as &[u8], b"e" as &[u8]], b":1\r\n"),
        (&[b"APPEND" as &[u8], b"e" as &[u8], b"x" as &[u8]], b":7\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"e" as &[u8]], b"$3\r\nraw\r\n"),
        (&[b"INCRBYFLOAT" as &[u8], b"fl" as &[u8], b"3" as &[u8]], b"$1\r\n3\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"fl" as &[u8]], b"$6\r\nembstr\r\n"),
        (&[b"SETRANGE" as &[u8], b"sr" as &[u8], b"0" as &[u8], b"ab" as &[u8]], b":2\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"sr" as &[u8]], b"$3\r\nraw\r\n"),
        (&[b"OBJECT" as &[u8], b"FREQ" as &[u8], b"i" as &[u8]], b"-ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.\r\n"),
        (&[b"SET" as &[u8], b"r1" as &[u8], b"v" as &[u8], b"EX" as &[u8], b"100" as &[u8]], b"+OK\r\n"),
        (&[b"RENAME" as &[u8], b"r1" as &[u8], b"r2" as &[u8]], b"+OK\r\n"),
        (&[b"TTL" as &[u8], b"r2" as &[u8]], b":100\r\n"),
        (&[b"EXISTS" as &[u8], b"r1" as &[u8]], b":0\r\n"),
        (&[b"RENAME" as &[u8], b"nokey" as &[u8], b"x" as &[u8]], b"-ERR no such key\r\n"),
        (&[b"RENAME" as &[u8], b"r2" as &[u8], b"r2" as &[u8]], b"+OK\r\n"),
        (&[b"RENAMENX" as &[u8], b"r2" as &[u8], b"i" as &[u8]], b":0\r\n"),
        (&[b"RENAMENX" as &[u8], b"r2" as &[u8], b"r3" as &[u8]], b":1\r\n"),
        (&[b"COPY" as &[u8], b"r3" as &[u8], b"r4" as &[u8]], b":1\r\n"),
        (&[b"TTL" as &[u8], b"r4" as &[u8]], b":100\r\n"),
        (&[b"COPY" as &[u8], b"r3" as &[u8], b"r4" as &[u8]], b":0\r\n"),
        (&[b"COPY" as &[u8], b"r3" as &[u8], b"r4" as &[u8], b"REPLACE" as &[u8]], b":1\r\n"),
        (&[b"COPY" as &[u8], b"r3" as &[u8], b"r3" as &[u8]], b"-ERR source and destination objects are the same\r\n"),
        (&[b"COPY" as &[u8], b"nokey" as &[u8], b"r5" as &[u8]], b":0\r\n"),
        (&[b"COPY" as &[u8], b"r3" as &[u8], b"r5" as &[u8], b"DB" as &[u8], b"x" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"COPY" as &[u8], b"r3" as &[u8], b"r5" as &[u8], b"FOO" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"100" as &[u8]], b":1\r\n"),
        (&[b"TTL" as &[u8], b"i" as &[u8]], b":100\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"50" as &[u8], b"GT" as &[u8]], b":0\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"500" as &[u8], b"GT" as &[u8]], b":1\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"50" as &[u8], b"LT" as &[u8]], b":1\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"10" as &[u8], b"NX" as &[u8]], b":0\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"10" as &[u8], b"XX" as &[u8]], b":1\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"10" as &[u8], b"NX" as &[u8], b"XX" as &[u8]], b"-ERR NX and XX, GT or LT options at the same time are not compatible\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"10" as &[u8], b"GT" as &[u8], b"LT" as &[u8]], b"-ERR GT and LT options at the same time are not compatible\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"10" as &[u8], b"FOO" as &[u8]], b"-ERR Unsupported option FOO\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"abc" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"EXPIRE" as &[u8], b"nokey" as &[u8], b"10" as &[u8]], b":0\r\n"),
        (&[b"EXPIRE" as &[u8], b"i" as &[u8], b"9223372036854775807" as &[u8]], b"-ERR invalid expire time in 'expire' command\r\n"),
        (&[b"PEXPIRE" as &[u8], b"i" as &[u8], b"5500" as &[u8]], b":1\r\n"),
        (&[b"TTL" as &[u8], b"i" as &[u8]], b":6\r\n"),
        (&[b"PTTL" as &[u8], b"i" as &[u8]], b":5500\r\n"),
        (&[b"PERSIST" as &[u8], b"i" as &[u8]], b":1\r\n"),
        (&[b"PERSIST" as &[u8], b"i" as &[u8]], b":0\r\n"),
        (&[b"TTL" as &[u8], b"i" as &[u8]], b":-1\r\n"),
        (&[b"EXPIRE" as &[u8], b"l" as &[u8], b"10" as &[u8], b"XX" as &[u8]], b":0\r\n"),
        (&[b"EXPIRE" as &[u8], b"l" as &[u8], b"10" as &[u8], b"GT" as &[u8]], b":0\r\n"),
        (&[b"EXPIRE" as &[u8], b"l" as &[u8], b"10" as &[u8], b"LT" as &[u8]], b":1\r\n"),
        (&[b"TTL" as &[u8], b"l" as &[u8]], b":10\r\n"),
        (&[b"EXPIRE" as &[u8], b"l" as &[u8], b"-1" as &[u8]], b":1\r\n"),
        (&[b"EXISTS" as &[u8], b"l" as &[u8]], b":0\r\n"),
        (&[b"EXPIRETIME" as &[u8], b"h" as &[u8]], b":-1\r\n"),
        (&[b"EXPIRETIME" as &[u8], b"nokey" as &[u8]], b":-2\r\n"),
        (&[b"PEXPIREAT" as &[u8], b"h" as &[u8], b"1" as &[u8]], b":1\r\n"),
        (&[b"EXISTS" as &[u8], b"h" as &[u8]], b":0\r\n"),
        (&[b"SCAN" as &[u8], b"abc" as &[u8]], b"-ERR invalid cursor\r\n"),
        (&[b"SCAN" as &[u8], b"0" as &[u8], b"COUNT" as &[u8], b"0" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"SCAN" as &[u8], b"0" as &[u8], b"FOO" as &[u8], b"bar" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"DUMP" as &[u8], b"nokey" as &[u8]], b"$-1\r\n"),
        (&[b"SET" as &[u8], b"big" as &[u8], b"v" as &[u8]], b"+OK\r\n"),
        (&[b"PEXPIREAT" as &[u8], b"big" as &[u8], b"9223372036854775807" as &[u8]], b":1\r\n"),
        (&[b"EXPIRETIME" as &[u8], b"big" as &[u8]], b":9223372036854776\r\n"),
        (&[b"PEXPIREAT" as &[u8], b"big" as &[u8], b"9223372036854775500" as &[u8]], b":1\r\n"),
        (&[b"EXPIRETIME" as &[u8], b"big" as &[u8]], b":9223372036854776\r\n"),
        (&[b"EXPIRE" as &[u8], b"big" as &[u8], b"9223372036854775" as &[u8]], b"-ERR invalid expire time in 'expire' command\r\n"),
        (&[b"EXPIREAT" as &[u8], b"big" as &[u8], b"-9223372036854775" as &[u8]], b":1\r\n"),
        (&[b"EXISTS" as &[u8], b"big" as &[u8]], b":0\r\n"),
];

#[test]
fn replies_equal_redis_7_0_15() {
    common_data::check(CASES);
}

/// OBJECT IDLETIME on the simulated clock. Recorded from redis-server 7.0.15 with real pauses:
/// SET k, 2.5 s later IDLETIME 2 (TYPE, EXISTS, TTL and OBJECT do not count as accesses),
/// GET k then IDLETIME 0; SET k2, 2 s later RENAME k2 k3 and COPY k3 k4: both idle 0.
#[test]
fn idletime_follows_the_simulated_clock() {
    use slotscope::core::server::data::Db;
    let mut db = Db::default();
    let mut now = 1_767_225_600_000;
    let run = |db: &mut Db, now: i64, line: &str| {
        let args: Vec<Vec<u8>> = line.split(' ').map(|a| a.as_bytes().to_vec()).collect();
        let name = line.split(' ').next().unwrap_or("").to_lowercase();
        String::from_utf8_lossy(
            &db.exec(now, &name, &args)
                .map(|r| r.to_resp())
                .unwrap_or_default(),
        )
        .into_owned()
    };
    assert_eq!(run(&mut db, now, "SET k v"), "+OK\r\n");
    now += 2500;
    assert_eq!(run(&mut db, now, "OBJECT IDLETIME k"), ":2\r\n");
    assert_eq!(run(&mut db, now, "TYPE k"), "+string\r\n");
    assert_eq!(run(&mut db, now, "EXISTS k"), ":1\r\n");
    assert_eq!(run(&mut db, now, "TTL k"), ":-1\r\n");
    assert_eq!(run(&mut db, now, "OBJECT IDLETIME k"), ":2\r\n");
    assert_eq!(run(&mut db, now, "GET k"), "$1\r\nv\r\n");
    assert_eq!(run(&mut db, now, "OBJECT IDLETIME k"), ":0\r\n");
    assert_eq!(run(&mut db, now, "SET k2 v"), "+OK\r\n");
    now += 2000;
    assert_eq!(run(&mut db, now, "RENAME k2 k3"), "+OK\r\n");
    assert_eq!(run(&mut db, now, "OBJECT IDLETIME k3"), ":0\r\n");
    assert_eq!(run(&mut db, now, "COPY k3 k4"), ":1\r\n");
    assert_eq!(run(&mut db, now, "OBJECT IDLETIME k4"), ":0\r\n");
    assert_eq!(run(&mut db, now, "OBJECT IDLETIME k3"), ":0\r\n");
}

/// SCAN and KEYS: Redis walks its hash table, so the order of keys is its own; the page
/// answers the same keys (compared here as sets) with the same cursors. Recorded from
/// redis-server 7.0.15 (MSET a 1 b 2 ab 3, RPUSH l x, HSET h f v).
#[test]
fn scan_and_keys_find_the_keys_redis_finds() {
    use slotscope::core::server::data::Db;
    use slotscope::core::server::Reply;
    let now = 1_767_225_600_000;
    let mut db = Db::default();
    let mut run = |line: &str| {
        let args: Vec<Vec<u8>> = line.split(' ').map(|a| a.as_bytes().to_vec()).collect();
        let name = line.split(' ').next().unwrap_or("").to_lowercase();
        db.exec(now, &name, &args).unwrap_or(Reply::Ok)
    };
    // Keys of an array reply (SCAN's second element), sorted; or the reply as RESP.
    fn keys(r: &Reply) -> String {
        let arr = match r {
            Reply::Array(a) if a.len() == 2 && matches!(a[1], Reply::Array(_)) => {
                let cursor = String::from_utf8_lossy(&a[0].to_resp()).into_owned();
                return format!("{cursor}{}", keys(&a[1]));
            }
            Reply::Array(a) => a,
            other => return String::from_utf8_lossy(&other.to_resp()).into_owned(),
        };
        let mut ks: Vec<String> = arr
            .iter()
            .map(|k| String::from_utf8_lossy(&k.to_resp()).into_owned())
            .collect();
        ks.sort();
        format!("[{}]", ks.join(""))
    }
    let cases = [
        ("RANDOMKEY", "$-1\r\n"),
        ("SCAN 0", "$1\r\n0\r\n[]"),
        ("KEYS *", "[]"),
        ("MSET a 1 b 2 ab 3", "+OK\r\n"),
        ("RPUSH l x", ":1\r\n"),
        ("HSET h f v", ":1\r\n"),
        (
            "SCAN 0 COUNT 100",
            "$1\r\n0\r\n[$1\r\na\r\n$1\r\nb\r\n$1\r\nh\r\n$1\r\nl\r\n$2\r\nab\r\n]",
        ),
        ("SCAN 0 COUNT 100 TYPE list", "$1\r\n0\r\n[$1\r\nl\r\n]"),
        ("SCAN 0 COUNT 100 TYPE LIST", "$1\r\n0\r\n[$1\r\nl\r\n]"),
        ("SCAN 0 COUNT 100 TYPE nosuch", "$1\r\n0\r\n[]"),
        (
            "SCAN 0 MATCH a* COUNT 100",
            "$1\r\n0\r\n[$1\r\na\r\n$2\r\nab\r\n]",
        ),
        ("KEYS a?", "[$2\r\nab\r\n]"),
        ("KEYS [ab]", "[$1\r\na\r\n$1\r\nb\r\n]"),
        (
            "KEYS *",
            "[$1\r\na\r\n$1\r\nb\r\n$1\r\nh\r\n$1\r\nl\r\n$2\r\nab\r\n]",
        ),
        ("SCAN -1", "$1\r\n0\r\n[]"),
        ("SCAN 18446744073709551615 COUNT 100", "$1\r\n0\r\n[]"),
        ("SCAN 18446744073709551616", "-ERR invalid cursor\r\n"),
        ("SCAN 0 COUNT", "-ERR syntax error\r\n"),
        ("SCAN 0 MATCH", "-ERR syntax error\r\n"),
    ];
    for (line, want) in cases {
        assert_eq!(keys(&run(line)), want, "{line}");
    }
    // A full iteration with the default COUNT visits every key once and ends at cursor 0.
    let mut seen = Vec::new();
    let mut cursor = "0".to_owned();
    loop {
        let Reply::Array(parts) = run(&format!("SCAN {cursor}")) else {
            panic!("SCAN answers an array");
        };
        let (Some(Reply::Bulk(Some(c))), Some(Reply::Array(ks))) = (parts.first(), parts.get(1))
        else {
            panic!("cursor and keys");
        };
        seen.extend(ks.iter().cloned());
        cursor = String::from_utf8_lossy(c).into_owned();
        if cursor == "0" {
            break;
        }
    }
    assert_eq!(seen.len(), 5);
}

/// A write on a master reaches its replica with the value's type and expiry: after HSET,
/// RPUSH and SET … EX on 7000, its replica (after READONLY) answers as the master does.
/// Expected replies as redis-server 7.0.15 gives them (TYPE hash/list, TTL 100).
#[test]
fn replicas_copy_typed_values_and_expiry() {
    use slotscope::core::key::args::split_args;
    use slotscope::core::server::{Cluster, Session};
    use slotscope::core::SlotMap;
    let map = SlotMap::fixture_cluster();
    let master = map.masters()[0].addr.clone();
    let replica = map.masters()[0].replicas[0].addr.clone();
    let mut c = Cluster::new(map);
    let mut s = Session::new();
    let mut on = |c: &mut Cluster, addr: &str, line: &str| {
        let args = split_args(line).unwrap_or_default();
        String::from_utf8_lossy(&c.exec(addr, &args, &mut s).to_resp()).into_owned()
    };
    assert_eq!(on(&mut c, &master, "HSET hello f v"), ":1\r\n");
    assert_eq!(on(&mut c, &master, "SET {hello}s v EX 100"), "+OK\r\n");
    assert_eq!(on(&mut c, &master, "RPUSH {hello}l a b"), ":2\r\n");
    assert_eq!(on(&mut c, &replica, "READONLY"), "+OK\r\n");
    assert_eq!(on(&mut c, &replica, "TYPE hello"), "+hash\r\n");
    assert_eq!(on(&mut c, &replica, "TYPE {hello}l"), "+list\r\n");
    assert_eq!(on(&mut c, &replica, "TTL {hello}s"), ":100\r\n");
    assert_eq!(on(&mut c, &replica, "DBSIZE"), ":3\r\n");
    // A write sent to a replica is MOVED to its master, READONLY or not.
    assert_eq!(
        on(&mut c, &replica, "LPUSH {hello}l x"),
        "-MOVED 866 127.0.0.1:7000\r\n"
    );
}
