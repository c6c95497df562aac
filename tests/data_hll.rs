//! HyperLogLog against a real redis-server 7.0.15: every expected reply, length and SHA-1 below
//! was recorded from one (`redis-server --port 6421 --save ''`, driven over RESP by a script,
//! `GET` of each key hashed with sha1), and the key space's bytes must be Redis's exactly.

use slotscope::core::key::args::split_args;
use slotscope::core::server::data::{Db, Value};
use slotscope::core::server::route::Session;
use slotscope::core::server::{sha1_hex, Cluster};
use slotscope::core::SlotMap;

const NOW: i64 = 1_767_225_600_000;

/// Runs one command on `db` and gives its reply in RESP form.
fn run(db: &mut Db, args: &[Vec<u8>]) -> String {
    let name = String::from_utf8_lossy(&args[0]).to_lowercase();
    let reply = db.exec(NOW, &name, args).expect("a HyperLogLog command");
    String::from_utf8_lossy(&reply.to_resp()).into_owned()
}

fn line(db: &mut Db, text: &str) -> String {
    run(db, &split_args(text).expect("a command line"))
}

/// What `GET key` would give: the string's bytes.
fn bytes(db: &Db, key: &str) -> Vec<u8> {
    match db.value(key.as_bytes(), NOW) {
        Some(Value::Str(v)) => v.clone(),
        other => panic!("{key} is not a string: {other:?}"),
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// `PFADD h a b c`: a sparse HLL of 27 bytes, its cache marked stale; `PFCOUNT` writes the
/// count (3) into the header. Recorded: `GET h` before and after the PFCOUNT.
#[test]
fn a_small_hll_is_sparse_and_pfcount_caches_its_count() {
    let mut db = Db::default();
    assert_eq!(line(&mut db, "PFADD h a b c"), ":1\r\n");
    assert_eq!(
        bytes(&db, "h"),
        hex("48594c4c01000000000000000000008060f38050b1844bfb80425a")
    );
    db.take_touched();
    assert_eq!(line(&mut db, "PFCOUNT h"), ":3\r\n");
    assert_eq!(
        bytes(&db, "h"),
        hex("48594c4c01000000030000000000000060f38050b1844bfb80425a")
    );
    // The cache was written, so the key was written (Redis's signalModifiedKey).
    assert_eq!(db.take_touched(), vec![b"h".to_vec()]);
    // A second PFCOUNT reads the cache and writes nothing.
    assert_eq!(line(&mut db, "PFCOUNT h"), ":3\r\n");
    assert!(db.take_touched().is_empty());
    assert_eq!(line(&mut db, "PFADD h a"), ":0\r\n");
    assert_eq!(line(&mut db, "PFADD h"), ":0\r\n");
    assert_eq!(line(&mut db, "PFADD empty"), ":1\r\n");
    assert_eq!(
        bytes(&db, "empty"),
        hex("48594c4c0100000000000000000000807fff")
    );
}

/// 20,000 elements added 250 at a time (`item:0` … `item:19999`): each PFADD answers 1; at
/// 250, 1000, 1500, 2000, 5000 and 20000 elements, PFCOUNT, the length and SHA-1 of `GET`
/// and `PFDEBUG ENCODING` as Redis gave them (sparse up to 1500, dense from 2000).
#[test]
fn thousands_of_elements_give_redis_counts_and_bytes() {
    let marks: [(usize, &str, usize, &str, &str); 6] = [
        (
            250,
            ":249",
            605,
            "7ab188d205270c0d634a028008e3901bbee640c2",
            "sparse",
        ),
        (
            1000,
            ":1002",
            1892,
            "576afa4865afb0ebd1feb97a771bbdd0a560a6bc",
            "sparse",
        ),
        (
            1500,
            ":1502",
            2720,
            "84f4e52c09b1864fcfa445089928e3125cf74da6",
            "sparse",
        ),
        (
            2000,
            ":2006",
            12304,
            "d157e686742f5c27ae7b61be042f9f06f2e20e7e",
            "dense",
        ),
        (
            5000,
            ":5052",
            12304,
            "862946cc9abd12084970e400ef1a2fcf2d896871",
            "dense",
        ),
        (
            20000,
            ":20021",
            12304,
            "50895ed96765eacb0ea2e5fca50487c1e9fdf445",
            "dense",
        ),
    ];
    let mut db = Db::default();
    let mut next = marks.iter();
    let mut mark = next.next();
    for start in (0..20000).step_by(250) {
        let mut args = vec![b"PFADD".to_vec(), b"big".to_vec()];
        args.extend((start..start + 250).map(|i| format!("item:{i}").into_bytes()));
        assert_eq!(run(&mut db, &args), ":1\r\n", "PFADD from item:{start}");
        if let Some(&(at, count, len, sha, encoding)) = mark
            && at == start + 250
        {
            assert_eq!(
                line(&mut db, "PFCOUNT big"),
                format!("{count}\r\n"),
                "at {at}"
            );
            let got = bytes(&db, "big");
            assert_eq!((got.len(), sha1_hex(&got).as_str()), (len, sha), "at {at}");
            assert_eq!(
                line(&mut db, "PFDEBUG ENCODING big"),
                format!("+{encoding}\r\n")
            );
            mark = next.next();
        }
    }
    assert!(mark.is_none());
}

/// One element at a time (`x0`, `x1`, …): Redis keeps the HLL sparse until adding `x1691`
/// would take it past `hll-sparse-max-bytes` (it was 2999 bytes), then turns it dense.
/// Recorded: each PFADD's reply (2461 of them answer 1; `x129`, `x137`, `x413` … answer 0),
/// STRLEN and PFDEBUG ENCODING after every PFADD, then PFCOUNT and GET at 2600.
#[test]
fn sparse_turns_dense_at_redis_threshold() {
    let mut db = Db::default();
    let mut ones = 0;
    for i in 0..2600 {
        let reply = line(&mut db, &format!("PFADD one x{i}"));
        if [129, 137, 413].contains(&i) {
            assert_eq!(reply, ":0\r\n");
        }
        ones += usize::from(reply == ":1\r\n");
        let len = bytes(&db, "one").len();
        match i {
            0 => assert_eq!(len, 21),
            1690 => assert_eq!(len, 2999),
            1691.. => assert_eq!(len, 12304, "x{i}"),
            _ => assert!(len < 3000, "x{i}"),
        }
        if i == 1690 || i == 1691 {
            let want = if i == 1690 {
                "+sparse\r\n"
            } else {
                "+dense\r\n"
            };
            assert_eq!(line(&mut db, "PFDEBUG ENCODING one"), want);
        }
    }
    assert_eq!(ones, 2461);
    assert_eq!(line(&mut db, "PFCOUNT one"), ":2587\r\n");
    assert_eq!(
        sha1_hex(&bytes(&db, "one")),
        "ec13413ae71490a22f616bb9d417a02ff187debb"
    );
}

/// PFCOUNT of several keys merges without writing; PFMERGE writes the union (dense as soon as
/// one source is dense). Recorded on redis-server 7.0.15.
#[test]
fn pfmerge_and_pfcount_of_several_keys() {
    let mut db = Db::default();
    let mut add = |key: &str, items: Vec<String>| {
        let mut args = vec![b"PFADD".to_vec(), key.as_bytes().to_vec()];
        args.extend(items.into_iter().map(String::into_bytes));
        assert_eq!(run(&mut db, &args), ":1\r\n");
    };
    add("a", (0..300).map(|i| format!("a{i}")).collect());
    add("b", (0..3000).map(|i| format!("b{i}")).collect());
    add("c", vec!["a1".into(), "b1".into(), "zz".into()]);
    db.take_touched();
    assert_eq!(line(&mut db, "PFCOUNT a b"), ":3339\r\n");
    assert_eq!(line(&mut db, "PFCOUNT a c"), ":302\r\n");
    assert_eq!(line(&mut db, "PFCOUNT a nokey"), ":300\r\n");
    assert!(
        db.take_touched().is_empty(),
        "several keys: nothing written"
    );
    assert_eq!(line(&mut db, "PFMERGE ab a c"), "+OK\r\n");
    let ab = bytes(&db, "ab");
    assert_eq!(
        (ab.len(), sha1_hex(&ab).as_str()),
        (695, "7d5fb74e4eb0ee37075db98384d1092576bd4c44")
    );
    assert_eq!(line(&mut db, "PFCOUNT ab"), ":302\r\n");
    assert_eq!(line(&mut db, "PFMERGE abc a b c"), "+OK\r\n");
    assert_eq!(line(&mut db, "PFCOUNT abc"), ":3340\r\n");
    let abc = bytes(&db, "abc");
    assert_eq!(
        (abc.len(), sha1_hex(&abc).as_str()),
        (12304, "eb5678113cb40daf1a273404f4b5a413801cc9d6")
    );
    assert_eq!(line(&mut db, "PFMERGE a c"), "+OK\r\n");
    assert_eq!(line(&mut db, "PFCOUNT a"), ":302\r\n");
    let a = bytes(&db, "a");
    assert_eq!(
        (a.len(), sha1_hex(&a).as_str()),
        (695, "193c13793de0106695a4369c571ab6f43ac80753")
    );
    assert_eq!(line(&mut db, "PFMERGE empty"), "+OK\r\n");
    assert_eq!(
        bytes(&db, "empty"),
        hex("48594c4c0100000000000000000000807fff")
    );
    assert_eq!(line(&mut db, "PFMERGE empty nokey"), "+OK\r\n");
    assert_eq!(line(&mut db, "PFCOUNT empty"), ":0\r\n");
}

/// The two WRONGTYPE texts (a string that is not an HLL; another type), INVALIDOBJ for a
/// sparse HLL whose opcodes do not cover 16384 registers, and PFADD on that corrupt HLL
/// rewriting it byte for byte as Redis does. Recorded on redis-server 7.0.15 (the corrupt
/// value is `HYLL\x01`, ten zero bytes, `\xc2\x80\x7f`).
#[test]
fn errors_as_redis_sends_them() {
    let mut db = Db::default();
    let put = |db: &mut Db, key: &str, v: Vec<u8>| {
        db.insert(key.as_bytes(), Value::Str(v), NOW, false);
    };
    put(&mut db, "s", b"hello".to_vec());
    let not_hll = "-WRONGTYPE Key is not a valid HyperLogLog string value.\r\n";
    assert_eq!(line(&mut db, "PFADD s x"), not_hll);
    assert_eq!(line(&mut db, "PFCOUNT s"), not_hll);
    assert_eq!(line(&mut db, "PFCOUNT s h"), not_hll);
    assert_eq!(line(&mut db, "PFMERGE d s"), not_hll);
    assert!(db.value(b"d", NOW).is_none());
    let wrong = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    assert_eq!(line(&mut db, "XADD st 1-1 f v"), "$3\r\n1-1\r\n");
    assert_eq!(line(&mut db, "PFADD st x"), wrong);
    assert_eq!(line(&mut db, "PFCOUNT st"), wrong);
    assert_eq!(line(&mut db, "PFMERGE st"), wrong);

    let mut bad = b"HYLL\x01".to_vec();
    bad.extend([0u8; 10]);
    bad.extend([0xc2, 0x80, 0x7f]);
    put(&mut db, "bad", bad);
    let corrupt = "-INVALIDOBJ Corrupted HLL object detected\r\n";
    assert_eq!(line(&mut db, "PFCOUNT bad"), corrupt);
    assert_eq!(line(&mut db, "PFADD bad zz"), ":1\r\n");
    let mut after = b"HYLL\x01".to_vec();
    after.extend([0u8; 10]);
    after.extend([0xc2, 0x80, b'J', 0xd8, 0x80, b't']);
    assert_eq!(bytes(&db, "bad"), after);
    assert_eq!(line(&mut db, "PFCOUNT bad x"), corrupt);
    let mut short_dense = b"HYLL\x00".to_vec();
    short_dense.extend([0u8; 11]);
    put(&mut db, "dense-short", short_dense);
    assert_eq!(line(&mut db, "PFCOUNT dense-short"), not_hll);
    let mut enc2 = b"HYLL\x02".to_vec();
    enc2.extend([0u8; 11]);
    put(&mut db, "enc2", enc2);
    assert_eq!(line(&mut db, "PFADD enc2 x"), not_hll);
}

/// PFDEBUG and PFSELFTEST, recorded on redis-server 7.0.15; and elements with NUL bytes, an
/// empty one, non-UTF-8 bytes and 1000 bytes.
#[test]
fn pfdebug_and_binary_elements() {
    let mut db = Db::default();
    assert_eq!(line(&mut db, "PFADD h a"), ":1\r\n");
    assert_eq!(
        line(&mut db, "PFDEBUG DECODE h"),
        "$20\r\nZ:12711 v:2,1 Z:3672\r\n"
    );
    assert_eq!(
        line(&mut db, "PFDEBUG GETREG nokey"),
        "-ERR The specified key does not exist\r\n"
    );
    assert_eq!(
        line(&mut db, "PFDEBUG what h"),
        "-ERR Unknown PFDEBUG subcommand 'what'\r\n"
    );
    assert_eq!(line(&mut db, "PFDEBUG TODENSE h"), ":1\r\n");
    assert_eq!(line(&mut db, "PFDEBUG TODENSE h"), ":0\r\n");
    assert_eq!(
        line(&mut db, "PFDEBUG DECODE h"),
        "-ERR HLL encoding is not sparse\r\n"
    );
    assert_eq!(line(&mut db, "PFCOUNT h"), ":1\r\n");
    assert_eq!(line(&mut db, "PFSELFTEST"), "+OK\r\n");
    let mut args = vec![b"PFADD".to_vec(), b"bin".to_vec(), vec![0], Vec::new()];
    args.push([0xc3, 0xbf].repeat(3));
    args.push(vec![b'a'; 1000]);
    assert_eq!(run(&mut db, &args), ":1\r\n");
    assert_eq!(line(&mut db, "PFCOUNT bin"), ":4\r\n");
    let mut want = b"HYLL\x01\x00\x00\x00\x04".to_vec();
    want.extend([0u8; 7]);
    want.extend(b"N\x86\x80H\xa9\x84KT\x84EG\x84X-");
    assert_eq!(bytes(&db, "bin"), want);
}

/// Through the cluster engine: PFADD and PFCOUNT are routed to the key's master, run there and
/// copied to its replica (the numbers are the ones redis-server 7.0.15 gave for these keys).
#[test]
fn through_the_cluster_engine() {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let mut session = Session::new();
    let mut exec = |addr: &str, text: &str| {
        let args = split_args(text).unwrap();
        cluster.exec(addr, &args, &mut session).to_cli()
    };
    // `{v}` hashes to slot 7761, which the fixture cluster's 127.0.0.1:7001 serves.
    assert_eq!(
        exec("127.0.0.1:7000", "PFADD {v}visits a b c"),
        "(error) MOVED 7761 127.0.0.1:7001\n"
    );
    assert_eq!(
        exec("127.0.0.1:7001", "PFADD {v}visits a b c"),
        "(integer) 1\n"
    );
    assert_eq!(
        exec("127.0.0.1:7001", "PFADD {v}other c d"),
        "(integer) 1\n"
    );
    assert_eq!(exec("127.0.0.1:7001", "PFCOUNT {v}visits"), "(integer) 3\n");
    assert_eq!(
        exec("127.0.0.1:7001", "PFCOUNT {v}visits {v}other"),
        "(integer) 4\n"
    );
    assert_eq!(
        exec("127.0.0.1:7001", "PFMERGE {v}all {v}visits {v}other"),
        "OK\n"
    );
    assert_eq!(exec("127.0.0.1:7001", "PFCOUNT {v}all"), "(integer) 4\n");
}

/// Corrupt HLLs (the header right, the rest random bytes, sparse or dense) and odd elements:
/// PFADD, PFCOUNT, PFMERGE and PFDEBUG never panic, and every reply is an integer, OK, or one
/// of the errors Redis sends for HLLs.
#[test]
fn corrupt_hlls_never_panic() {
    let mut seed: u64 = 0x1d2c_3b4a;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut db = Db::default();
    for round in 0..120 {
        let mut v = b"HYLL".to_vec();
        let dense = round % 3 == 0;
        v.push(if dense { 0 } else { 1 });
        v.extend([0u8; 11]);
        let len = if dense {
            12288
        } else {
            (next() % 400) as usize
        };
        v.extend((0..len).map(|_| next() as u8));
        db.insert(b"c", Value::Str(v), NOW, false);
        for text in [
            "PFADD c a b c d e f g h",
            "PFCOUNT c",
            "PFCOUNT c d",
            "PFMERGE d c",
            "PFMERGE c d",
            "PFDEBUG DECODE c",
            "PFDEBUG GETREG c",
            "PFADD c x",
        ] {
            let got = line(&mut db, text);
            let known = got.starts_with(':')
                || got.starts_with('*')
                || got.starts_with('$')
                || got == "+OK\r\n"
                || got == "-INVALIDOBJ Corrupted HLL object detected\r\n"
                || got == "-ERR HLL encoding is not sparse\r\n";
            assert!(known, "{text}: {got}");
        }
    }
}

/// Recorded from redis-server 7.0.15: `PFADD h a` then `OBJECT ENCODING h` answers `raw`, even
/// for an 18-byte HLL (Redis creates HLLs with `createRawStringObject`), and PFMERGE's
/// destination likewise.
#[test]
fn an_hll_is_a_raw_string() {
    use slotscope::core::server::data::Db;
    let mut db = Db::default();
    let a = |v: &[&str]| v.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
    db.exec(0, "pfadd", &a(&["PFADD", "h", "a"]));
    db.exec(0, "pfmerge", &a(&["PFMERGE", "m", "h"]));
    for key in ["h", "m"] {
        let r = db.exec(0, "object|encoding", &a(&["OBJECT", "ENCODING", key]));
        assert_eq!(
            r.map(|r| r.to_resp()),
            Some(b"$3\r\nraw\r\n".to_vec()),
            "{key}"
        );
    }
}
