//! Generators of the string, keyspace and expiry families.

use super::{c, Cmd, Ctx, Family, MakeFn};

/// The generators of this file, by family.
pub fn generators() -> Vec<(Family, MakeFn)> {
    use Family::*;
    vec![
        (Strings, get),
        (Strings, set),
        (Strings, set),
        (Strings, getset),
        (Strings, incr_decr),
        (Strings, incrby),
        (Strings, append),
        (Strings, strlen),
        (Strings, mget),
        (Strings, mset),
        (StringsMore, setnx),
        (StringsMore, getrange),
        (StringsMore, setrange),
        (StringsMore, incrbyfloat),
        (StringsMore, getdel),
        (StringsMore, lcs),
        (StringsMore, getex_plain),
        (Keyspace, del),
        (Keyspace, exists),
        (Keyspace, type_),
        (Keyspace, rename),
        (Keyspace, dbsize),
        (Keyspace, ttl_plain),
        (KeyspaceMore, copy),
        (KeyspaceMore, object),
        (KeyspaceMore, scan),
        (KeyspaceMore, keys),
        (KeyspaceMore, randomkey),
        (KeyspaceMore, dump),
        (KeyspaceMore, persist_pttl),
        (Expiry, set_expiry),
        (Expiry, setex),
        (Expiry, getex),
        (Expiry, expire),
        (Expiry, expireat),
        (Expiry, ttl),
    ]
}

fn get(x: &mut Ctx) -> Cmd {
    c("GET").k(x.key())
}

fn set(x: &mut Ctx) -> Cmd {
    let mut cmd = c("SET").k(x.key()).a(x.val());
    // Options the engine runs without a clock, in any order, sometimes clashing (NX XX).
    for opt in ["NX", "XX", "GET", "KEEPTTL"] {
        if x.chance(0.15) {
            cmd = cmd.a(opt);
        }
    }
    cmd
}

fn getset(x: &mut Ctx) -> Cmd {
    c("GETSET").k(x.key()).a(x.val())
}

fn incr_decr(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["INCR", "DECR"]);
    c(name).k(x.key())
}

fn incrby(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["INCRBY", "DECRBY"]);
    c(name).k(x.key()).a(x.int())
}

fn append(x: &mut Ctx) -> Cmd {
    c("APPEND").k(x.key()).a(x.val())
}

fn strlen(x: &mut Ctx) -> Cmd {
    c("STRLEN").k(x.key())
}

fn mget(x: &mut Ctx) -> Cmd {
    let first = x.key();
    c("MGET").ks(x.keys_near(&first, 4))
}

fn mset(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["MSET", "MSETNX"]);
    let first = x.key();
    let mut cmd = c(name);
    for k in x.keys_near(&first, 3) {
        cmd = cmd.k(k).a(x.val());
    }
    cmd
}

fn setnx(x: &mut Ctx) -> Cmd {
    c("SETNX").k(x.key()).a(x.val())
}

fn getrange(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["GETRANGE", "SUBSTR"]);
    c(name).k(x.key()).a(x.small()).a(x.small())
}

fn setrange(x: &mut Ctx) -> Cmd {
    // Offsets stay small: a real node would allocate up to 512 MB for a large valid one.
    let offset = x.pick(&["0", "1", "3", "10", "100", "-1", "536870912", "abc"]);
    c("SETRANGE").k(x.key()).a(offset).a(x.val())
}

fn incrbyfloat(x: &mut Ctx) -> Cmd {
    c("INCRBYFLOAT").k(x.key()).a(x.float())
}

fn getdel(x: &mut Ctx) -> Cmd {
    c("GETDEL").k(x.key())
}

fn lcs(x: &mut Ctx) -> Cmd {
    let first = x.key();
    let mut cmd = c("LCS").k(first.clone()).k(x.near(&first));
    if x.chance(0.3) {
        cmd = cmd.a("LEN");
    }
    if x.chance(0.3) {
        cmd = cmd.a("IDX");
        if x.chance(0.5) {
            cmd = cmd.a("MINMATCHLEN").a(x.small());
        }
        if x.chance(0.5) {
            cmd = cmd.a("WITHMATCHLEN");
        }
    }
    cmd
}

fn getex_plain(x: &mut Ctx) -> Cmd {
    c("GETEX").k(x.key())
}

fn del(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["DEL", "UNLINK"]);
    let first = x.key();
    c(name).ks(x.keys_near(&first, 3))
}

fn exists(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["EXISTS", "TOUCH"]);
    let first = x.key();
    c(name).ks(x.keys_near(&first, 3))
}

fn type_(x: &mut Ctx) -> Cmd {
    c("TYPE").k(x.key())
}

fn rename(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["RENAME", "RENAMENX"]);
    let first = x.key();
    c(name).k(first.clone()).k(x.near(&first))
}

fn dbsize(_: &mut Ctx) -> Cmd {
    c("DBSIZE")
}

fn ttl_plain(x: &mut Ctx) -> Cmd {
    c("TTL").k(x.key())
}

fn copy(x: &mut Ctx) -> Cmd {
    let first = x.key();
    let mut cmd = c("COPY").k(first.clone()).k(x.near(&first));
    if x.chance(0.3) {
        cmd = cmd.a("REPLACE");
    }
    if x.chance(0.1) {
        cmd = cmd.a("DB").a(x.pick(&["0", "1"]));
    }
    cmd
}

fn object(x: &mut Ctx) -> Cmd {
    let sub = x.pick(&["ENCODING", "REFCOUNT", "FREQ", "IDLETIME", "HELP"]);
    let cmd = c("OBJECT").a(sub);
    if sub == "HELP" {
        cmd
    } else {
        cmd.k(x.key())
    }
}

/// SCAN from cursor 0 with a COUNT no node's key count reaches (a node holds at most 7 of the
/// pool's keys), so a real node returns every key and cursor 0 whatever its hash table's
/// random seed; a partial scan (cursor 1, COUNT 1) would depend on it.
fn scan(x: &mut Ctx) -> Cmd {
    let mut cmd = c("SCAN").a(x.pick(&["0", "0", "0", "abc", "18446744073709551616"]));
    if x.chance(0.4) {
        cmd = cmd.a("MATCH").a(x.pick(&["*", "{a}*", "k?", "[fk]*", ""]));
    }
    if x.chance(0.4) {
        cmd = cmd.a("COUNT").a(x.pick(&["10", "1000", "0", "-1"]));
    }
    if x.chance(0.3) {
        cmd = cmd
            .a("TYPE")
            .a(x.pick(&["string", "list", "hash", "zset", "nosuchtype"]));
    }
    cmd
}

fn keys(x: &mut Ctx) -> Cmd {
    c("KEYS").a(x.pick(&["*", "{a}*", "k?", "[fk]*", "", "\\{*", "*1*"]))
}

fn randomkey(_: &mut Ctx) -> Cmd {
    c("RANDOMKEY")
}

fn dump(x: &mut Ctx) -> Cmd {
    c("DUMP").k(x.key())
}

fn persist_pttl(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["PERSIST", "PTTL", "EXPIRETIME", "PEXPIRETIME"]);
    c(name).k(x.key())
}

/// A time to live in seconds: valid ones stay long (10 s and up), so no key expires between a
/// command and the next on one side only; plus 0, negative, huge and not a number.
fn seconds(x: &mut Ctx) -> String {
    x.pick(&[
        "100",
        "3600",
        "10",
        "0",
        "-1",
        "9223372036854775807",
        "abc",
        "1.5",
    ])
    .to_owned()
}

/// The wall clock in milliseconds.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn set_expiry(x: &mut Ctx) -> Cmd {
    let mut cmd = c("SET").k(x.key()).a(x.val());
    match x.rng.below(5) {
        0 => cmd = cmd.a("EX").a(seconds(x)),
        1 => cmd = cmd.a("PX").a(format!("{}000", seconds(x))),
        2 => cmd = cmd.a("EXAT").a((now_ms() / 1000 + 100).to_string()),
        3 => cmd = cmd.a("PXAT").a((now_ms() + 100_000).to_string()),
        _ => cmd = cmd.a("KEEPTTL"),
    }
    if x.chance(0.2) {
        cmd = cmd.a(x.pick(&["NX", "XX", "GET", "KEEPTTL", "EX"]));
    }
    cmd
}

fn setex(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["SETEX", "PSETEX"]);
    let ttl = seconds(x);
    let ttl = if name == "PSETEX" {
        format!("{ttl}000")
    } else {
        ttl
    };
    c(name).k(x.key()).a(ttl).a(x.val())
}

fn getex(x: &mut Ctx) -> Cmd {
    let cmd = c("GETEX").k(x.key());
    match x.rng.below(4) {
        0 => cmd.a("EX").a(seconds(x)),
        1 => cmd.a("PX").a(format!("{}000", seconds(x))),
        2 => cmd.a("PERSIST"),
        _ => cmd.a("EXAT").a((now_ms() / 1000 + 100).to_string()),
    }
}

fn expire(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["EXPIRE", "PEXPIRE"]);
    let ttl = seconds(x);
    let ttl = if name == "PEXPIRE" && ttl.bytes().all(|b| b.is_ascii_digit()) {
        format!("{ttl}000")
    } else {
        ttl
    };
    let mut cmd = c(name).k(x.key()).a(ttl);
    if x.chance(0.4) {
        cmd = cmd.a(x.pick(&["NX", "XX", "GT", "LT", "BAD"]));
    }
    if x.chance(0.1) {
        cmd = cmd.a(x.pick(&["NX", "XX", "GT", "LT"]));
    }
    cmd
}

fn expireat(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["EXPIREAT", "PEXPIREAT"]);
    let at = if name == "EXPIREAT" {
        (now_ms() / 1000 + x.pick(&[100, 3600])).to_string()
    } else {
        (now_ms() + x.pick(&[100_000, 3_600_000])).to_string()
    };
    let at = if x.chance(0.1) { "1".to_owned() } else { at };
    c(name).k(x.key()).a(at)
}

fn ttl(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME", "PERSIST"]);
    c(name).k(x.key())
}
