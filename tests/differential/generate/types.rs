//! Generators of the hash, list, set and sorted-set families.

use super::{c, Cmd, Ctx, Family, MakeFn};

/// The generators of this file, by family.
pub fn generators() -> Vec<(Family, MakeFn)> {
    use Family::*;
    vec![
        (Hashes, hset),
        (Hashes, hset),
        (Hashes, hget),
        (Hashes, hdel),
        (Hashes, hlen),
        (Hashes, hincr),
        (Hashes, hall),
        (Hashes, hrandfield),
        (Lists, push),
        (Lists, push),
        (Lists, pop),
        (Lists, lrange),
        (Lists, lindex_lset),
        (Lists, linsert),
        (Lists, lrem_ltrim),
        (Lists, lpos),
        (Lists, lmove),
        (Lists, lmpop),
        (Lists, blocking),
        (Sets, sadd),
        (Sets, sadd),
        (Sets, srem),
        (Sets, sread),
        (Sets, spop),
        (Sets, setops),
        (Sets, setstore),
        (Sets, smove),
        (Zsets, zadd),
        (Zsets, zadd),
        (Zsets, zscore),
        (Zsets, zincrby),
        (Zsets, zcount),
        (Zsets, zrange),
        (Zsets, zrangeby),
        (Zsets, zrank),
        (Zsets, zrem),
        (Zsets, zpop),
        (Zsets, zsetops),
        (Zsets, zrandmember),
        (Zsets, bzpop),
    ]
}

fn hset(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["HSET", "HMSET", "HSETNX"]);
    let mut cmd = c(name).k(x.key());
    let pairs = if name == "HSETNX" {
        1
    } else {
        1 + x.rng.below(3)
    };
    for _ in 0..pairs {
        cmd = cmd.a(x.member()).a(x.val());
    }
    cmd
}

fn hget(x: &mut Ctx) -> Cmd {
    match x.rng.below(4) {
        0 => c("HGET").k(x.key()).a(x.member()),
        1 => c("HEXISTS").k(x.key()).a(x.member()),
        2 => c("HSTRLEN").k(x.key()).a(x.member()),
        _ => c("HMGET").k(x.key()).a(x.member()).a(x.member()),
    }
}

fn hdel(x: &mut Ctx) -> Cmd {
    c("HDEL").k(x.key()).a(x.member()).a(x.member())
}

fn hlen(x: &mut Ctx) -> Cmd {
    c("HLEN").k(x.key())
}

fn hincr(x: &mut Ctx) -> Cmd {
    if x.chance(0.5) {
        c("HINCRBY").k(x.key()).a(x.member()).a(x.int())
    } else {
        c("HINCRBYFLOAT").k(x.key()).a(x.member()).a(x.float())
    }
}

fn hall(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["HGETALL", "HKEYS", "HVALS"]);
    c(name).k(x.key())
}

fn hrandfield(x: &mut Ctx) -> Cmd {
    if x.chance(0.5) {
        c("HSCAN").k(x.key()).a("0")
    } else {
        let mut cmd = c("HRANDFIELD").k(x.key());
        if x.chance(0.6) {
            cmd = cmd.a(x.small());
            if x.chance(0.4) {
                cmd = cmd.a("WITHVALUES");
            }
        }
        cmd
    }
}

fn push(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["LPUSH", "RPUSH", "LPUSHX", "RPUSHX"]);
    let mut cmd = c(name).k(x.key());
    for _ in 0..1 + x.rng.below(3) {
        cmd = cmd.a(x.val());
    }
    cmd
}

fn pop(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["LPOP", "RPOP", "LLEN"]);
    let cmd = c(name).k(x.key());
    if name != "LLEN" && x.chance(0.4) {
        cmd.a(x.small())
    } else {
        cmd
    }
}

fn lrange(x: &mut Ctx) -> Cmd {
    c("LRANGE").k(x.key()).a(x.small()).a(x.small())
}

fn lindex_lset(x: &mut Ctx) -> Cmd {
    if x.chance(0.5) {
        c("LINDEX").k(x.key()).a(x.small())
    } else {
        c("LSET").k(x.key()).a(x.small()).a(x.val())
    }
}

fn linsert(x: &mut Ctx) -> Cmd {
    c("LINSERT")
        .k(x.key())
        .a(x.pick(&["BEFORE", "AFTER", "MIDDLE"]))
        .a(x.val())
        .a(x.val())
}

fn lrem_ltrim(x: &mut Ctx) -> Cmd {
    if x.chance(0.5) {
        c("LREM").k(x.key()).a(x.small()).a(x.val())
    } else {
        c("LTRIM").k(x.key()).a(x.small()).a(x.small())
    }
}

fn lpos(x: &mut Ctx) -> Cmd {
    let mut cmd = c("LPOS").k(x.key()).a(x.val());
    for opt in ["RANK", "COUNT", "MAXLEN"] {
        if x.chance(0.3) {
            cmd = cmd.a(opt).a(x.small());
        }
    }
    cmd
}

fn lmove(x: &mut Ctx) -> Cmd {
    let first = x.key();
    if x.chance(0.3) {
        return c("RPOPLPUSH").k(first.clone()).k(x.near(&first));
    }
    c("LMOVE")
        .k(first.clone())
        .k(x.near(&first))
        .a(x.pick(&["LEFT", "RIGHT", "UP"]))
        .a(x.pick(&["LEFT", "RIGHT"]))
}

fn lmpop(x: &mut Ctx) -> Cmd {
    let first = x.key();
    let keys = x.keys_near(&first, 2);
    let mut cmd = c("LMPOP").a(keys.len().to_string()).ks(keys);
    cmd = cmd.a(x.pick(&["LEFT", "RIGHT", "MIDDLE"]));
    if x.chance(0.4) {
        cmd = cmd.a("COUNT").a(x.small());
    }
    cmd
}

/// Blocking pops with a 10 ms timeout: a real node waits that long for nothing, the engine
/// answers at once as if the wait had ended. Never mutated (a timeout of 0 waits for ever).
fn blocking(x: &mut Ctx) -> Cmd {
    let first = x.key();
    let cmd = match x.rng.below(4) {
        0 => c("BLPOP").ks(x.keys_near(&first, 2)).a("0.01"),
        1 => c("BRPOP").ks(x.keys_near(&first, 2)).a("0.01"),
        2 => c("BLMOVE")
            .k(first.clone())
            .k(x.near(&first))
            .a("LEFT")
            .a("RIGHT")
            .a("0.01"),
        _ => {
            let keys = x.keys_near(&first, 2);
            c("BLMPOP")
                .a("0.01")
                .a(keys.len().to_string())
                .ks(keys)
                .a("LEFT")
        }
    };
    cmd.fixed()
}

fn sadd(x: &mut Ctx) -> Cmd {
    let mut cmd = c("SADD").k(x.key());
    for _ in 0..1 + x.rng.below(3) {
        cmd = cmd.a(x.member());
    }
    cmd
}

fn srem(x: &mut Ctx) -> Cmd {
    c("SREM").k(x.key()).a(x.member())
}

fn sread(x: &mut Ctx) -> Cmd {
    match x.rng.below(5) {
        0 => c("SMEMBERS").k(x.key()),
        1 => c("SISMEMBER").k(x.key()).a(x.member()),
        2 => c("SMISMEMBER").k(x.key()).a(x.member()).a(x.member()),
        3 => c("SSCAN").k(x.key()).a("0"),
        _ => c("SCARD").k(x.key()),
    }
}

fn spop(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["SPOP", "SRANDMEMBER"]);
    let cmd = c(name).k(x.key());
    if x.chance(0.5) {
        cmd.a(x.small())
    } else {
        cmd
    }
}

fn setops(x: &mut Ctx) -> Cmd {
    let first = x.key();
    if x.chance(0.25) {
        let keys = x.keys_near(&first, 3);
        let cmd = c("SINTERCARD").a(keys.len().to_string()).ks(keys);
        return if x.chance(0.4) {
            cmd.a("LIMIT").a(x.small())
        } else {
            cmd
        };
    }
    let name = x.pick(&["SINTER", "SUNION", "SDIFF"]);
    c(name).ks(x.keys_near(&first, 3))
}

fn setstore(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE"]);
    let first = x.key();
    c(name).ks(x.keys_near(&first, 3))
}

fn smove(x: &mut Ctx) -> Cmd {
    let first = x.key();
    c("SMOVE").k(first.clone()).k(x.near(&first)).a(x.member())
}

fn zadd(x: &mut Ctx) -> Cmd {
    let mut cmd = c("ZADD").k(x.key());
    for opt in ["NX", "XX", "GT", "LT", "CH", "INCR"] {
        if x.chance(0.1) {
            cmd = cmd.a(opt);
        }
    }
    for _ in 0..1 + x.rng.below(2) {
        cmd = cmd.a(x.float()).a(x.member());
    }
    cmd
}

fn zscore(x: &mut Ctx) -> Cmd {
    match x.rng.below(3) {
        0 => c("ZSCORE").k(x.key()).a(x.member()),
        1 => c("ZMSCORE").k(x.key()).a(x.member()).a(x.member()),
        _ => c("ZCARD").k(x.key()),
    }
}

fn zincrby(x: &mut Ctx) -> Cmd {
    c("ZINCRBY").k(x.key()).a(x.float()).a(x.member())
}

fn score_bound(x: &mut Ctx) -> String {
    x.pick(&["-inf", "+inf", "0", "1", "(1", "1.5", "(-2", "abc", "10"])
        .to_owned()
}

fn lex_bound(x: &mut Ctx) -> String {
    x.pick(&["-", "+", "[a", "(b", "[", "c", "(a"]).to_owned()
}

fn zcount(x: &mut Ctx) -> Cmd {
    if x.chance(0.5) {
        c("ZCOUNT").k(x.key()).a(score_bound(x)).a(score_bound(x))
    } else {
        c("ZLEXCOUNT").k(x.key()).a(lex_bound(x)).a(lex_bound(x))
    }
}

fn zrange(x: &mut Ctx) -> Cmd {
    let mut cmd = c("ZRANGE").k(x.key());
    match x.rng.below(3) {
        0 => cmd = cmd.a(x.small()).a(x.small()),
        1 => cmd = cmd.a(score_bound(x)).a(score_bound(x)).a("BYSCORE"),
        _ => cmd = cmd.a(lex_bound(x)).a(lex_bound(x)).a("BYLEX"),
    }
    if x.chance(0.3) {
        cmd = cmd.a("REV");
    }
    if x.chance(0.3) {
        cmd = cmd.a("LIMIT").a(x.small()).a(x.small());
    }
    if x.chance(0.4) {
        cmd = cmd.a("WITHSCORES");
    }
    cmd
}

fn zrangeby(x: &mut Ctx) -> Cmd {
    match x.rng.below(4) {
        0 => c("ZRANGEBYSCORE")
            .k(x.key())
            .a(score_bound(x))
            .a(score_bound(x)),
        1 => c("ZREVRANGEBYSCORE")
            .k(x.key())
            .a(score_bound(x))
            .a(score_bound(x)),
        2 => c("ZRANGEBYLEX").k(x.key()).a(lex_bound(x)).a(lex_bound(x)),
        _ => {
            let first = x.key();
            c("ZRANGESTORE")
                .k(first.clone())
                .k(x.near(&first))
                .a(x.small())
                .a(x.small())
        }
    }
}

fn zrank(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["ZRANK", "ZREVRANK"]);
    c(name).k(x.key()).a(x.member())
}

fn zrem(x: &mut Ctx) -> Cmd {
    match x.rng.below(4) {
        0 => c("ZREM").k(x.key()).a(x.member()),
        1 => c("ZREMRANGEBYRANK").k(x.key()).a(x.small()).a(x.small()),
        2 => c("ZREMRANGEBYSCORE")
            .k(x.key())
            .a(score_bound(x))
            .a(score_bound(x)),
        _ => c("ZREMRANGEBYLEX")
            .k(x.key())
            .a(lex_bound(x))
            .a(lex_bound(x)),
    }
}

fn zpop(x: &mut Ctx) -> Cmd {
    if x.chance(0.3) {
        let first = x.key();
        let keys = x.keys_near(&first, 2);
        let cmd = c("ZMPOP")
            .a(keys.len().to_string())
            .ks(keys)
            .a(x.pick(&["MIN", "MAX"]));
        return if x.chance(0.4) {
            cmd.a("COUNT").a(x.small())
        } else {
            cmd
        };
    }
    let name = x.pick(&["ZPOPMIN", "ZPOPMAX"]);
    let cmd = c(name).k(x.key());
    if x.chance(0.4) {
        cmd.a(x.small())
    } else {
        cmd
    }
}

fn zsetops(x: &mut Ctx) -> Cmd {
    let first = x.key();
    let name = x.pick(&[
        "ZUNIONSTORE",
        "ZINTERSTORE",
        "ZDIFFSTORE",
        "ZUNION",
        "ZINTER",
        "ZDIFF",
        "ZINTERCARD",
    ]);
    let store = name.ends_with("STORE");
    let mut cmd = c(name);
    if store {
        cmd = cmd.k(x.near(&first));
    }
    let keys = x.keys_near(&first, 3);
    cmd = cmd.a(keys.len().to_string()).ks(keys);
    if !name.starts_with("ZDIFF") && name != "ZINTERCARD" {
        if x.chance(0.3) {
            cmd = cmd.a("AGGREGATE").a(x.pick(&["SUM", "MIN", "MAX", "AVG"]));
        }
        if !store && x.chance(0.4) {
            cmd = cmd.a("WITHSCORES");
        }
    }
    cmd
}

fn zrandmember(x: &mut Ctx) -> Cmd {
    if x.chance(0.3) {
        return c("ZSCAN").k(x.key()).a("0");
    }
    let mut cmd = c("ZRANDMEMBER").k(x.key());
    if x.chance(0.6) {
        cmd = cmd.a(x.small());
        if x.chance(0.4) {
            cmd = cmd.a("WITHSCORES");
        }
    }
    cmd
}

/// Blocking sorted-set pops with a 10 ms timeout (see `blocking`).
fn bzpop(x: &mut Ctx) -> Cmd {
    let first = x.key();
    let name = x.pick(&["BZPOPMIN", "BZPOPMAX"]);
    c(name).ks(x.keys_near(&first, 2)).a("0.01").fixed()
}
