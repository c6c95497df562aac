//! Streams against a real redis-server 7.0.15: every expected reply below (RESP) was recorded
//! from one (`redis-server --port 6421 --save ''`, each table run after FLUSHALL over RESP by a
//! script, the lines split as redis-cli splits them). Ids are explicit, or `*` after an id far
//! in the future, so no reply depends on the clock.

use slotscope::core::key::args::split_args;
use slotscope::core::server::data::Db;
use slotscope::core::server::reply::{ErrorReply, NotRun, Reply};
use slotscope::core::server::route::Session;
use slotscope::core::server::Cluster;
use slotscope::core::SlotMap;

const NOW: i64 = 1_767_225_600_000;

/// Redis's name for a command line (`xinfo|stream` for a subcommand).
fn name_of(args: &[Vec<u8>]) -> String {
    let name = String::from_utf8_lossy(&args[0]).to_lowercase();
    match (name.as_str(), args.get(1)) {
        ("xinfo" | "xgroup", Some(sub)) => {
            format!("{name}|{}", String::from_utf8_lossy(sub).to_lowercase())
        }
        _ => name,
    }
}

fn exec(db: &mut Db, now: i64, line: &str) -> Reply {
    let args = split_args(line).expect("a command line");
    db.exec(now, &name_of(&args), &args)
        .unwrap_or_else(|| panic!("not a key-space command: {line}"))
}

/// Runs each line on one key space and compares its RESP reply with Redis's.
fn replay(db: &mut Db, table: &[(&str, &str)]) {
    let x600 = "x".repeat(600);
    for (line, want) in table {
        let got = exec(db, NOW, line).to_resp();
        let want = want.replace("{x600}", &x600);
        assert_eq!(String::from_utf8_lossy(&got), want, "{line}");
    }
}

const IDS: &[(&str, &str)] = &[
    ("XADD s 1-1 f v", "$3\r\n1-1\r\n"),
    (
        "XADD s 1-1 f v",
        "-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n",
    ),
    (
        "XADD s 1-0 f v",
        "-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n",
    ),
    ("XADD s 1-* a b c d", "$3\r\n1-2\r\n"),
    ("XADD s 2 f v", "$3\r\n2-0\r\n"),
    (
        "XADD s 0-0 f v",
        "-ERR The ID specified in XADD must be greater than 0-0\r\n",
    ),
    (
        "XADD z 0-0 f v",
        "-ERR The ID specified in XADD must be greater than 0-0\r\n",
    ),
    ("XLEN z", ":0\r\n"),
    ("XADD z 0-* f v", "$3\r\n0-1\r\n"),
    ("XADD s 5--01 f v", "$22\r\n5-18446744073709551615\r\n"),
    ("XADD s2 +7 f v", "$3\r\n7-0\r\n"),
    (
        "XADD s2 5--1 f v",
        "-ERR Invalid stream ID specified as stream command argument\r\n",
    ),
    ("XADD s2 ' 9-3' f v", "$3\r\n9-3\r\n"),
    (
        "XADD s2 '9-3 ' f v",
        "-ERR Invalid stream ID specified as stream command argument\r\n",
    ),
    (
        "XADD s2 - f v",
        "-ERR Invalid stream ID specified as stream command argument\r\n",
    ),
    (
        "XADD s2 + f v",
        "-ERR Invalid stream ID specified as stream command argument\r\n",
    ),
    (
        "XADD s2 abc f v",
        "-ERR Invalid stream ID specified as stream command argument\r\n",
    ),
    (
        "XADD s2 10-1 f",
        "-ERR wrong number of arguments for 'xadd' command\r\n",
    ),
    (
        "XADD s2 10-1 f v g",
        "-ERR wrong number of arguments for 'xadd' command\r\n",
    ),
    ("XADD nope NOMKSTREAM 10-1 f v", "$-1\r\n"),
    ("XLEN nope", ":0\r\n"),
    (
        "XADD s2 99999999999999-5 f v",
        "$16\r\n99999999999999-5\r\n",
    ),
    ("XADD s2 * f v", "$16\r\n99999999999999-6\r\n"),
    ("XADD s2 * g w", "$16\r\n99999999999999-7\r\n"),
    (
        "XADD s2 MAXLEN -1 * f v",
        "-ERR The MAXLEN argument must be >= 0.\r\n",
    ),
    (
        "XADD s2 MAXLEN x * f v",
        "-ERR value is not an integer or out of range\r\n",
    ),
    (
        "XADD s2 MAXLEN 1 MINID 1 * f v",
        "-ERR syntax error, MAXLEN and MINID options at the same time are not compatible\r\n",
    ),
    (
        "XADD s2 LIMIT 5 * f v",
        "-ERR syntax error, LIMIT cannot be used without specifying a trimming strategy\r\n",
    ),
    (
        "XADD s2 MAXLEN 5 LIMIT 5 * f v",
        "-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n",
    ),
    (
        "XADD s2 MAXLEN ~ 5 LIMIT -1 * f v",
        "-ERR The LIMIT argument must be >= 0.\r\n",
    ),
    (
        "XADD s2 LIMIT 0 99999999999999-10 f v",
        "-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n",
    ),
    (
        "XADD s2 MINID - 99999999999999-11 f v",
        "-ERR Invalid stream ID specified as stream command argument\r\n",
    ),
    (
        "XADD s2 MINID 5-* 99999999999999-12 f v",
        "-ERR Invalid stream ID specified as stream command argument\r\n",
    ),
    (
        "XADD s2 maxlen = 2 99999999999999-13 f v",
        "$17\r\n99999999999999-13\r\n",
    ),
    ("XLEN s2", ":2\r\n"),
    (
        "XADD u 5-18446744073709551615 f v",
        "$22\r\n5-18446744073709551615\r\n",
    ),
    (
        "XADD u 5-* f v",
        "-ERR Elements are too large to be stored\r\n",
    ),
    ("XADD u 6-* f v", "$3\r\n6-0\r\n"),
    (
        "XADD t 18446744073709551615-18446744073709551615 f v",
        "$41\r\n18446744073709551615-18446744073709551615\r\n",
    ),
    (
        "XADD t * f v",
        "-ERR The stream has exhausted the last possible ID, unable to add more items\r\n",
    ),
    (
        "XADD t 18446744073709551615-* f v",
        "-ERR The stream has exhausted the last possible ID, unable to add more items\r\n",
    ),
    ("XADD e 1-1 \"\" \"\"", "$3\r\n1-1\r\n"),
    (
        "XRANGE e - +",
        "*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$0\r\n\r\n$0\r\n\r\n",
    ),
];

const RANGES: &[(&str, &str)] = &[
    ("XADD s 1-1 a 1", "$3\r\n1-1\r\n"),
    ("XADD s 1-2 b 2", "$3\r\n1-2\r\n"),
    ("XADD s 2-0 c 3 d 4", "$3\r\n2-0\r\n"),
    ("XADD s 3-5 e 5", "$3\r\n3-5\r\n"),
    ("XRANGE s - +", "*4\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n2-0\r\n*4\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$3\r\n3-5\r\n*2\r\n$1\r\ne\r\n$1\r\n5\r\n"),
    ("XREVRANGE s + -", "*4\r\n*2\r\n$3\r\n3-5\r\n*2\r\n$1\r\ne\r\n$1\r\n5\r\n*2\r\n$3\r\n2-0\r\n*4\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n"),
    ("XRANGE s - + COUNT 2", "*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"),
    ("XRANGE s - + COUNT 0", "*-1\r\n"),
    ("XRANGE s - + COUNT -5", "*-1\r\n"),
    ("XRANGE s (1-1 +", "*3\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n2-0\r\n*4\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$3\r\n3-5\r\n*2\r\n$1\r\ne\r\n$1\r\n5\r\n"),
    ("XRANGE s (1 +", "*4\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n2-0\r\n*4\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$3\r\n3-5\r\n*2\r\n$1\r\ne\r\n$1\r\n5\r\n"),
    ("XRANGE s 1 (2", "*3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n2-0\r\n*4\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n4\r\n"),
    ("XRANGE s (- +", "-ERR Invalid stream ID specified as stream command argument\r\n"),
    ("XRANGE s - (+", "-ERR Invalid stream ID specified as stream command argument\r\n"),
    ("XRANGE s (18446744073709551615-18446744073709551615 +", "-ERR invalid start ID for the interval\r\n"),
    ("XRANGE s - (0-0", "-ERR invalid end ID for the interval\r\n"),
    ("XRANGE s - + COUNT", "-ERR syntax error\r\n"),
    ("XRANGE s - + LIMIT 1", "-ERR syntax error\r\n"),
    ("XRANGE s - + COUNT x", "-ERR value is not an integer or out of range\r\n"),
    ("XRANGE nokey - +", "*0\r\n"),
    ("XRANGE nokey x +", "-ERR Invalid stream ID specified as stream command argument\r\n"),
    ("XREVRANGE s (3 - COUNT 1", "*1\r\n*2\r\n$3\r\n3-5\r\n*2\r\n$1\r\ne\r\n$1\r\n5\r\n"),
    ("XRANGE s 5 1", "*0\r\n"),
    ("XREVRANGE s 1 5", "*0\r\n"),
    ("XRANGE s 2 2", "*1\r\n*2\r\n$3\r\n2-0\r\n*4\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n4\r\n"),
    ("XRANGE s - + COUNT 9223372036854775807", "*4\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n2-0\r\n*4\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$3\r\n3-5\r\n*2\r\n$1\r\ne\r\n$1\r\n5\r\n"),
];

const READS: &[(&str, &str)] = &[
    ("XADD s 1-1 a 1", "$3\r\n1-1\r\n"),
    ("XADD s 1-2 b 2", "$3\r\n1-2\r\n"),
    ("XADD s2 5-0 c 3", "$3\r\n5-0\r\n"),
    ("XREAD STREAMS s 0", "*1\r\n*2\r\n$1\r\ns\r\n*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"),
    ("XREAD COUNT 1 STREAMS s s2 0 0", "*2\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$2\r\ns2\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n"),
    ("XREAD STREAMS s $", "*-1\r\n"),
    ("XREAD STREAMS s 1-1", "*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"),
    ("XREAD STREAMS s2 s 0 1", "*2\r\n*2\r\n$2\r\ns2\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$1\r\ns\r\n*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"),
    ("XREAD BLOCK -1 STREAMS s $", "-ERR timeout is negative\r\n"),
    ("XREAD BLOCK x STREAMS s $", "-ERR timeout is not an integer or out of range\r\n"),
    ("XREAD STREAMS s s2 0", "-ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.\r\n"),
    ("XREAD GROUP g c STREAMS s 0", "-ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.\r\n"),
    ("XREAD NOACK STREAMS s 0", "-ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.\r\n"),
    ("XREAD STREAMS s >", "-ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.\r\n"),
    ("XREAD STREAMS s -", "-ERR Invalid stream ID specified as stream command argument\r\n"),
    ("XREAD STREAMS s +", "-ERR Invalid stream ID specified as stream command argument\r\n"),
    ("XREAD COUNT 0 STREAMS s 0-0", "*1\r\n*2\r\n$1\r\ns\r\n*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"),
    ("XREAD COUNT -3 STREAMS s 0", "*1\r\n*2\r\n$1\r\ns\r\n*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"),
    ("XREAD STREAMS nokey 0", "*-1\r\n"),
    ("XREAD FOO STREAMS s 0", "-ERR syntax error\r\n"),
    ("XREAD COUNT STREAMS s 0", "-ERR value is not an integer or out of range\r\n"),
    ("XREAD COUNT 1 BLOCK 10 STREAMS s 0", "*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n"),
];

const EDITS: &[(&str, &str)] = &[
    ("XADD q 1-1 f v", "$3\r\n1-1\r\n"),
    ("XADD q 2-1 f v", "$3\r\n2-1\r\n"),
    ("XADD q 3-1 f v", "$3\r\n3-1\r\n"),
    ("XDEL q 2-1", ":1\r\n"),
    ("XINFO STREAM q", "*20\r\n$6\r\nlength\r\n:2\r\n$15\r\nradix-tree-keys\r\n:1\r\n$16\r\nradix-tree-nodes\r\n:2\r\n$17\r\nlast-generated-id\r\n$3\r\n3-1\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n2-1\r\n$13\r\nentries-added\r\n:3\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n1-1\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n$10\r\nlast-entry\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"),
    ("XDEL q 1-1 2-1 9-9", ":1\r\n"),
    ("XINFO STREAM q", "*20\r\n$6\r\nlength\r\n:1\r\n$15\r\nradix-tree-keys\r\n:1\r\n$16\r\nradix-tree-nodes\r\n:2\r\n$17\r\nlast-generated-id\r\n$3\r\n3-1\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n2-1\r\n$13\r\nentries-added\r\n:3\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n3-1\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n$10\r\nlast-entry\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"),
    ("XDEL q x", "-ERR Invalid stream ID specified as stream command argument\r\n"),
    ("XDEL nokey x", ":0\r\n"),
    ("XDEL q 3", ":0\r\n"),
    ("XDEL q 3-1", ":1\r\n"),
    ("XINFO STREAM q", "*20\r\n$6\r\nlength\r\n:0\r\n$15\r\nradix-tree-keys\r\n:0\r\n$16\r\nradix-tree-nodes\r\n:1\r\n$17\r\nlast-generated-id\r\n$3\r\n3-1\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n3-1\r\n$13\r\nentries-added\r\n:3\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n0-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n$-1\r\n$10\r\nlast-entry\r\n$-1\r\n"),
    ("XINFO STREAM q FULL", "*18\r\n$6\r\nlength\r\n:0\r\n$15\r\nradix-tree-keys\r\n:0\r\n$16\r\nradix-tree-nodes\r\n:1\r\n$17\r\nlast-generated-id\r\n$3\r\n3-1\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n3-1\r\n$13\r\nentries-added\r\n:3\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n0-0\r\n$7\r\nentries\r\n*0\r\n$6\r\ngroups\r\n*0\r\n"),
    ("XADD q 3-1 f v", "-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n"),
    ("XADD q 3-2 f v", "$3\r\n3-2\r\n"),
    ("XSETID q 1-0", "-ERR The ID specified in XSETID is smaller than the target stream top item\r\n"),
    ("XSETID q 99-0", "+OK\r\n"),
    ("XSETID q 100-0 ENTRIESADDED 0", "-ERR The entries_added specified in XSETID is smaller than the target stream length\r\n"),
    ("XSETID q 100-0 ENTRIESADDED -1", "-ERR entries_added must be positive\r\n"),
    ("XSETID q 100-0 MAXDELETEDID 200-0", "-ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id\r\n"),
    ("XSETID q 100-0 ENTRIESADDED 50 MAXDELETEDID 90-0", "+OK\r\n"),
    ("XINFO STREAM q", "*20\r\n$6\r\nlength\r\n:1\r\n$15\r\nradix-tree-keys\r\n:1\r\n$16\r\nradix-tree-nodes\r\n:2\r\n$17\r\nlast-generated-id\r\n$5\r\n100-0\r\n$20\r\nmax-deleted-entry-id\r\n$4\r\n90-0\r\n$13\r\nentries-added\r\n:50\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n3-2\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$3\r\n3-2\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n$10\r\nlast-entry\r\n*2\r\n$3\r\n3-2\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"),
    ("XSETID nokey 1-1", "-ERR no such key\r\n"),
    ("XSETID q x", "-ERR Invalid stream ID specified as stream command argument\r\n"),
    ("XSETID q 100-0 FOO", "-ERR syntax error\r\n"),
    ("XSETID q 100-0 ENTRIESADDED", "-ERR syntax error\r\n"),
    ("XADD q 100-0 f v", "-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n"),
    ("XADD q 100-* f v", "$5\r\n100-1\r\n"),
    ("XTRIM q MAXLEN 1", ":1\r\n"),
    ("XRANGE q - +", "*1\r\n*2\r\n$5\r\n100-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"),
    ("XTRIM q LIMIT 1", "-ERR syntax error, LIMIT cannot be used without specifying a trimming strategy\r\n"),
    ("XTRIM q MAXLEN ~ 0 LIMIT 1", ":1\r\n"),
    ("XTRIM q MAXLEN 0 LIMIT 1", "-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n"),
    ("XTRIM nokey MAXLEN 0", ":0\r\n"),
    ("XTRIM q MINID 200", ":0\r\n"),
    ("XINFO STREAM q", "*20\r\n$6\r\nlength\r\n:0\r\n$15\r\nradix-tree-keys\r\n:0\r\n$16\r\nradix-tree-nodes\r\n:1\r\n$17\r\nlast-generated-id\r\n$5\r\n100-1\r\n$20\r\nmax-deleted-entry-id\r\n$4\r\n90-0\r\n$13\r\nentries-added\r\n:51\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n0-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n$-1\r\n$10\r\nlast-entry\r\n$-1\r\n"),
    ("XINFO STREAM q FULL COUNT 1", "*18\r\n$6\r\nlength\r\n:0\r\n$15\r\nradix-tree-keys\r\n:0\r\n$16\r\nradix-tree-nodes\r\n:1\r\n$17\r\nlast-generated-id\r\n$5\r\n100-1\r\n$20\r\nmax-deleted-entry-id\r\n$4\r\n90-0\r\n$13\r\nentries-added\r\n:51\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n0-0\r\n$7\r\nentries\r\n*0\r\n$6\r\ngroups\r\n*0\r\n"),
    ("XINFO STREAM q FULL X", "-ERR unknown subcommand or wrong number of arguments for 'STREAM'. Try XINFO HELP.\r\n"),
    ("XINFO STREAM q FULL COUNT", "-ERR unknown subcommand or wrong number of arguments for 'STREAM'. Try XINFO HELP.\r\n"),
    ("XINFO STREAM q FULL COUNT z", "-ERR value is not an integer or out of range\r\n"),
    ("XINFO STREAM nokey", "-ERR no such key\r\n"),
    ("XINFO STREAM nokey BAD", "-ERR no such key\r\n"),
    ("XINFO STREAM q COUNT 5 FULL", "-ERR unknown subcommand or wrong number of arguments for 'STREAM'. Try XINFO HELP.\r\n"),
    ("XINFO HELP", "*9\r\n+XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+CONSUMERS <key> <groupname>\r\n+    Show consumers of <groupname>.\r\n+GROUPS <key>\r\n+    Show the stream consumer groups.\r\n+STREAM <key> [FULL [COUNT <count>]\r\n+    Show information about the stream.\r\n+HELP\r\n+    Prints this help.\r\n"),
    ("XADD x 1-1 a 1 b 2", "$3\r\n1-1\r\n"),
    ("XADD x 1-2 b 1 a 2", "$3\r\n1-2\r\n"),
    ("XADD x 1-3 a 1", "$3\r\n1-3\r\n"),
    ("XADD x 1-4 a 9 b 8", "$3\r\n1-4\r\n"),
    ("XINFO STREAM x FULL COUNT 0", "*18\r\n$6\r\nlength\r\n:4\r\n$15\r\nradix-tree-keys\r\n:1\r\n$16\r\nradix-tree-nodes\r\n:2\r\n$17\r\nlast-generated-id\r\n$3\r\n1-4\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n0-0\r\n$13\r\nentries-added\r\n:4\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n1-1\r\n$7\r\nentries\r\n*4\r\n*2\r\n$3\r\n1-1\r\n*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n1-2\r\n*4\r\n$1\r\nb\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n2\r\n*2\r\n$3\r\n1-3\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-4\r\n*4\r\n$1\r\na\r\n$1\r\n9\r\n$1\r\nb\r\n$1\r\n8\r\n$6\r\ngroups\r\n*0\r\n"),
];

const WRONG_TYPE: &[(&str, &str)] = &[
    ("PFADD h a", ":1\r\n"),
    (
        "XADD h * f v",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XLEN h",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XRANGE h - +",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XREVRANGE h + -",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XREAD STREAMS h 0",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XDEL h 1",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XTRIM h MAXLEN 1",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XSETID h 1",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XINFO STREAM h",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    ("XADD s 1-1 f v", "$3\r\n1-1\r\n"),
    (
        "XREAD STREAMS s h 0 x",
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    ),
    (
        "XREAD STREAMS s h x 0",
        "-ERR Invalid stream ID specified as stream command argument\r\n",
    ),
    (
        "XADD h MAXLEN x * f v",
        "-ERR value is not an integer or out of range\r\n",
    ),
];

const NODE_CHECKS: &[(&str, &str)] = &[
    ("XINFO STREAM n", "*20\r\n$6\r\nlength\r\n:350\r\n$15\r\nradix-tree-keys\r\n:9\r\n$16\r\nradix-tree-nodes\r\n:22\r\n$17\r\nlast-generated-id\r\n$5\r\n350-0\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n0-0\r\n$13\r\nentries-added\r\n:350\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n1-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\nf\r\n$600\r\n{x600}\r\n$10\r\nlast-entry\r\n*2\r\n$5\r\n350-0\r\n*2\r\n$1\r\nf\r\n$3\r\n349\r\n"),
    ("XTRIM n MAXLEN ~ 300", ":42\r\n"),
    ("XINFO STREAM n", "*20\r\n$6\r\nlength\r\n:308\r\n$15\r\nradix-tree-keys\r\n:8\r\n$16\r\nradix-tree-nodes\r\n:20\r\n$17\r\nlast-generated-id\r\n$5\r\n350-0\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n0-0\r\n$13\r\nentries-added\r\n:350\r\n$23\r\nrecorded-first-entry-id\r\n$4\r\n43-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$4\r\n43-0\r\n*2\r\n$1\r\nf\r\n$600\r\n{x600}\r\n$10\r\nlast-entry\r\n*2\r\n$5\r\n350-0\r\n*2\r\n$1\r\nf\r\n$3\r\n349\r\n"),
    ("XTRIM n MAXLEN ~ 300 LIMIT 10", ":0\r\n"),
    ("XTRIM n MAXLEN ~ 250 LIMIT 100", ":42\r\n"),
    ("XINFO STREAM n", "*20\r\n$6\r\nlength\r\n:266\r\n$15\r\nradix-tree-keys\r\n:7\r\n$16\r\nradix-tree-nodes\r\n:18\r\n$17\r\nlast-generated-id\r\n$5\r\n350-0\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n0-0\r\n$13\r\nentries-added\r\n:350\r\n$23\r\nrecorded-first-entry-id\r\n$4\r\n85-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$4\r\n85-0\r\n*2\r\n$1\r\nf\r\n$600\r\n{x600}\r\n$10\r\nlast-entry\r\n*2\r\n$5\r\n350-0\r\n*2\r\n$1\r\nf\r\n$3\r\n349\r\n"),
    ("XTRIM n MINID ~ 200", ":84\r\n"),
    ("XLEN n", ":182\r\n"),
    ("XTRIM n MINID 200", ":31\r\n"),
    ("XINFO STREAM n", "*20\r\n$6\r\nlength\r\n:151\r\n$15\r\nradix-tree-keys\r\n:5\r\n$16\r\nradix-tree-nodes\r\n:14\r\n$17\r\nlast-generated-id\r\n$5\r\n350-0\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n0-0\r\n$13\r\nentries-added\r\n:350\r\n$23\r\nrecorded-first-entry-id\r\n$5\r\n200-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$5\r\n200-0\r\n*2\r\n$1\r\nf\r\n$3\r\n199\r\n$10\r\nlast-entry\r\n*2\r\n$5\r\n350-0\r\n*2\r\n$1\r\nf\r\n$3\r\n349\r\n"),
    ("XADD n MAXLEN ~ 100 351-0 f v", "$5\r\n351-0\r\n"),
    ("XINFO STREAM n", "*20\r\n$6\r\nlength\r\n:141\r\n$15\r\nradix-tree-keys\r\n:4\r\n$16\r\nradix-tree-nodes\r\n:12\r\n$17\r\nlast-generated-id\r\n$5\r\n351-0\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n0-0\r\n$13\r\nentries-added\r\n:351\r\n$23\r\nrecorded-first-entry-id\r\n$5\r\n211-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$5\r\n211-0\r\n*2\r\n$1\r\nf\r\n$600\r\n{x600}\r\n$10\r\nlast-entry\r\n*2\r\n$5\r\n351-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"),
    ("XADD n MAXLEN = 100 352-0 f v", "$5\r\n352-0\r\n"),
    ("XINFO STREAM n", "*20\r\n$6\r\nlength\r\n:100\r\n$15\r\nradix-tree-keys\r\n:3\r\n$16\r\nradix-tree-nodes\r\n:9\r\n$17\r\nlast-generated-id\r\n$5\r\n352-0\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n0-0\r\n$13\r\nentries-added\r\n:352\r\n$23\r\nrecorded-first-entry-id\r\n$5\r\n253-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$5\r\n253-0\r\n*2\r\n$1\r\nf\r\n$600\r\n{x600}\r\n$10\r\nlast-entry\r\n*2\r\n$5\r\n352-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"),
    ("XDEL n 253-0 254-0", ":2\r\n"),
    ("XINFO STREAM n", "*20\r\n$6\r\nlength\r\n:98\r\n$15\r\nradix-tree-keys\r\n:3\r\n$16\r\nradix-tree-nodes\r\n:9\r\n$17\r\nlast-generated-id\r\n$5\r\n352-0\r\n$20\r\nmax-deleted-entry-id\r\n$5\r\n254-0\r\n$13\r\nentries-added\r\n:352\r\n$23\r\nrecorded-first-entry-id\r\n$5\r\n255-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$5\r\n255-0\r\n*2\r\n$1\r\nf\r\n$3\r\n254\r\n$10\r\nlast-entry\r\n*2\r\n$5\r\n352-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"),
    ("XRANGE n - + COUNT 3", "*3\r\n*2\r\n$5\r\n255-0\r\n*2\r\n$1\r\nf\r\n$3\r\n254\r\n*2\r\n$5\r\n256-0\r\n*2\r\n$1\r\nf\r\n$3\r\n255\r\n*2\r\n$5\r\n257-0\r\n*2\r\n$1\r\nf\r\n$3\r\n256\r\n"),
    ("XREVRANGE n + - COUNT 2", "*2\r\n*2\r\n$5\r\n352-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n*2\r\n$5\r\n351-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"),
    ("XTRIM n MAXLEN 0", ":98\r\n"),
    ("XINFO STREAM n", "*20\r\n$6\r\nlength\r\n:0\r\n$15\r\nradix-tree-keys\r\n:0\r\n$16\r\nradix-tree-nodes\r\n:1\r\n$17\r\nlast-generated-id\r\n$5\r\n352-0\r\n$20\r\nmax-deleted-entry-id\r\n$5\r\n254-0\r\n$13\r\nentries-added\r\n:352\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n0-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n$-1\r\n$10\r\nlast-entry\r\n$-1\r\n"),
    ("XADD n 353-* f v", "$5\r\n353-0\r\n"),
    ("XINFO STREAM n FULL", "*18\r\n$6\r\nlength\r\n:1\r\n$15\r\nradix-tree-keys\r\n:1\r\n$16\r\nradix-tree-nodes\r\n:2\r\n$17\r\nlast-generated-id\r\n$5\r\n353-0\r\n$20\r\nmax-deleted-entry-id\r\n$5\r\n254-0\r\n$13\r\nentries-added\r\n:353\r\n$23\r\nrecorded-first-entry-id\r\n$5\r\n353-0\r\n$7\r\nentries\r\n*1\r\n*2\r\n$5\r\n353-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n$6\r\ngroups\r\n*0\r\n"),
];

/// XADD's ids and every error of its arguments.
#[test]
fn xadd_ids_and_errors() {
    replay(&mut Db::default(), IDS);
}

/// XRANGE / XREVRANGE: `-`, `+`, incomplete ids, exclusive `(`, COUNT.
#[test]
fn ranges() {
    replay(&mut Db::default(), RANGES);
}

/// XREAD with ids and `$`, COUNT, and its errors.
#[test]
fn reads() {
    replay(&mut Db::default(), READS);
}

/// XREAD BLOCK with nothing to serve answers as a call that timed out: the nil array. Redis
/// answers so when it may not block (recorded: `MULTI`, `XREAD BLOCK 0 STREAMS s $`,
/// `XREAD BLOCK 10 STREAMS s nokey $ 0`, `EXEC` → `*2 *-1 *-1`).
#[test]
fn a_blocking_read_with_nothing_to_serve_times_out() {
    let mut db = Db::default();
    replay(&mut db, &[("XADD s 1-1 a 1", "$3\r\n1-1\r\n")]);
    replay(
        &mut db,
        &[
            ("XREAD BLOCK 0 STREAMS s $", "*-1\r\n"),
            ("XREAD BLOCK 10 STREAMS s nokey $ 0", "*-1\r\n"),
        ],
    );
}

/// XDEL, XSETID, XTRIM and XINFO STREAM (plain, FULL, COUNT, errors, HELP).
#[test]
fn edits_and_info() {
    replay(&mut Db::default(), EDITS);
}

/// WRONGTYPE from every stream command that reads its key, in Redis's order of checks.
#[test]
fn wrong_type() {
    replay(&mut Db::default(), WRONG_TYPE);
}

/// Listpack nodes as Redis lays them out: 350 entries (`XADD n <i>-0 f <value>`, i from 1,
/// every 7th value 600 `x`s, the others the number i-1), so nodes close at 4096 bytes or
/// 100 entries; then trims by whole nodes (`~`, LIMIT), exact trims, XDEL, and XINFO STREAM's
/// radix-tree keys and nodes after each.
#[test]
fn nodes_trims_and_radix_tree() {
    let mut db = Db::default();
    for i in 0..350 {
        let value = if i % 7 == 0 {
            "x".repeat(600)
        } else {
            i.to_string()
        };
        let line = format!("XADD n {}-0 f {value}", i + 1);
        let want = format!("${}\r\n{}-0\r\n", (i + 1).to_string().len() + 2, i + 1);
        assert_eq!(
            String::from_utf8_lossy(&exec(&mut db, NOW, &line).to_resp()),
            want
        );
    }
    replay(&mut db, NODE_CHECKS);
}

/// `*` takes the milliseconds of the simulated clock, then counts the sequence up while the
/// clock stands still or runs behind the last id (`streamNextID`).
#[test]
fn star_ids_follow_the_simulated_clock() {
    let mut db = Db::default();
    let id = |db: &mut Db, now: i64, line: &str| match exec(db, now, line) {
        Reply::Bulk(Some(b)) => String::from_utf8(b).unwrap(),
        other => panic!("{other:?}"),
    };
    assert_eq!(id(&mut db, NOW, "XADD s * f v"), format!("{NOW}-0"));
    assert_eq!(id(&mut db, NOW, "XADD s * f v"), format!("{NOW}-1"));
    assert_eq!(
        id(&mut db, NOW + 5, "XADD s * f v"),
        format!("{}-0", NOW + 5)
    );
    assert_eq!(id(&mut db, NOW, "XADD s * f v"), format!("{}-1", NOW + 5));
}

/// Consumer groups are not simulated: the page's note, never an error Redis would not send.
#[test]
fn consumer_group_commands_are_noted() {
    let mut db = Db::default();
    exec(&mut db, NOW, "XADD s 1-1 f v");
    for line in [
        "XGROUP CREATE s g $",
        "XREADGROUP GROUP g c STREAMS s >",
        "XACK s g 1-1",
        "XPENDING s g",
        "XCLAIM s g c 0 1-1",
        "XAUTOCLAIM s g c 0 0",
        "XINFO GROUPS s",
        "XINFO CONSUMERS s g",
    ] {
        let reply = exec(&mut db, NOW, line);
        assert!(
            matches!(
                reply.error(),
                Some(ErrorReply::NotRun(NotRun::ConsumerGroups { .. }))
            ),
            "{line}: {reply:?}"
        );
    }
}

/// Through the cluster engine: XADD is routed to the key's master and copied to its replica;
/// XINFO STREAM reaches the key by its subcommand's key position.
#[test]
fn through_the_cluster_engine() {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let mut session = Session::new();
    let mut run = |addr: &str, text: &str| {
        let args = split_args(text).unwrap();
        cluster.exec(addr, &args, &mut session).to_cli()
    };
    // `{v}` hashes to slot 7761, served by the fixture cluster's 127.0.0.1:7001.
    assert_eq!(
        run("127.0.0.1:7000", "XADD {v}s 1-1 f v"),
        "(error) MOVED 7761 127.0.0.1:7001\n"
    );
    assert_eq!(run("127.0.0.1:7001", "XADD {v}s 1-1 f v"), "\"1-1\"\n");
    assert_eq!(run("127.0.0.1:7001", "XLEN {v}s"), "(integer) 1\n");
    assert_eq!(
        run("127.0.0.1:7000", "XINFO STREAM {v}s"),
        "(error) MOVED 7761 127.0.0.1:7001\n"
    );
    assert!(
        run("127.0.0.1:7001", "XINFO STREAM {v}s").starts_with(" 1) \"length\"\n 2) (integer) 1\n")
    );
}

/// A small deterministic generator (xorshift64*), so the run below is the same every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// Thousands of commands with arguments that hit edge cases (huge, negative and malformed
/// numbers and ids, options in the wrong places, empty and 10 kB arguments): none panics, and
/// what the stream holds stays consistent (XLEN equals what XRANGE - + lists, as in Redis).
#[test]
fn never_panics_on_odd_arguments() {
    let words = [
        "0",
        "1",
        "-",
        "+",
        "(",
        "(-",
        "(5",
        "$",
        ">",
        "*",
        "5-*",
        "1-1",
        "2-0",
        "-1",
        "~",
        "=",
        "18446744073709551615-18446744073709551615",
        "18446744073709551615",
        "9223372036854775807",
        "-9223372036854775808",
        "99999999999999999999",
        "MAXLEN",
        "MINID",
        "LIMIT",
        "NOMKSTREAM",
        "COUNT",
        "BLOCK",
        "STREAMS",
        "FULL",
        "STREAM",
        "HELP",
        "GROUP",
        "NOACK",
        "ENTRIESADDED",
        "MAXDELETEDID",
        "s",
        "t",
        "f",
        "v",
        "",
        "a\0b",
    ];
    let commands = [
        "xadd",
        "xlen",
        "xrange",
        "xrevrange",
        "xdel",
        "xtrim",
        "xread",
        "xsetid",
        "xinfo|stream",
        "xinfo|help",
    ];
    let big = vec![b'z'; 10_000];
    let mut rng = Rng(0x5107_5c0e);
    let mut db = Db::default();
    for n in 0..20_000u64 {
        let name = rng.pick(&commands);
        let mut args = vec![name.split('|').next().unwrap().as_bytes().to_vec()];
        if let Some(sub) = name.split('|').nth(1) {
            args.push(sub.as_bytes().to_vec());
        }
        args.push(rng.pick(&["s", "t"]).as_bytes().to_vec());
        for _ in 0..rng.next() % 8 {
            args.push(rng.pick(&words).as_bytes().to_vec());
        }
        if rng.next().is_multiple_of(50) {
            args.push(big.clone());
        }
        if name == "xadd" && rng.next().is_multiple_of(2) {
            // Mostly well-formed XADDs, so the streams grow.
            args.truncate(2);
            args.push(format!("{}-*", n / 3).into_bytes());
            args.push(b"f".to_vec());
            args.push(rng.pick(&words).as_bytes().to_vec());
        }
        let _ = db.exec(NOW, name, &args);
    }
    for key in ["s", "t"] {
        let len = exec(&mut db, NOW, &format!("XLEN {key}"));
        let all = exec(&mut db, NOW, &format!("XRANGE {key} - +"));
        match (len, all) {
            (Reply::Int(n), Reply::Array(items)) => assert_eq!(n as usize, items.len()),
            other => panic!("{other:?}"),
        }
    }
}
