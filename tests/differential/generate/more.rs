//! Generators of the bitmap, HyperLogLog, geo, stream and SORT families.

use super::{c, Cmd, Ctx, Family, MakeFn};

/// The generators of this file, by family.
pub fn generators() -> Vec<(Family, MakeFn)> {
    use Family::*;
    vec![
        (Bitmaps, setbit),
        (Bitmaps, setbit),
        (Bitmaps, getbit),
        (Bitmaps, bitcount),
        (Bitmaps, bitpos),
        (Bitmaps, bitop),
        (Bitmaps, bitfield),
        (HyperLogLog, pfadd),
        (HyperLogLog, pfadd),
        (HyperLogLog, pfcount),
        (HyperLogLog, pfmerge),
        (Geo, geoadd),
        (Geo, geoadd),
        (Geo, geopos),
        (Geo, geodist),
        (Geo, geosearch),
        (Geo, georadius),
        (Streams, xadd),
        (Streams, xadd),
        (Streams, xlen),
        (Streams, xrange),
        (Streams, xdel_trim),
        (Streams, xread),
        (Sort, sort),
        (Sort, sort),
    ]
}

/// A bit offset: small ones, and the edges (2^32 - 1 would make a real node allocate 512 MB,
/// so the largest valid one is left out; 2^32 is refused).
fn bit_offset(x: &mut Ctx) -> String {
    x.pick(&["0", "1", "7", "8", "15", "100", "-1", "4294967296", "abc"])
        .to_owned()
}

fn setbit(x: &mut Ctx) -> Cmd {
    c("SETBIT")
        .k(x.key())
        .a(bit_offset(x))
        .a(x.pick(&["0", "1", "1", "2", "-1", "a"]))
}

fn getbit(x: &mut Ctx) -> Cmd {
    c("GETBIT").k(x.key()).a(bit_offset(x))
}

fn bitcount(x: &mut Ctx) -> Cmd {
    let mut cmd = c("BITCOUNT").k(x.key());
    if x.chance(0.6) {
        cmd = cmd.a(x.small()).a(x.small());
        if x.chance(0.4) {
            cmd = cmd.a(x.pick(&["BYTE", "BIT", "WORD"]));
        }
    }
    cmd
}

fn bitpos(x: &mut Ctx) -> Cmd {
    let mut cmd = c("BITPOS").k(x.key()).a(x.pick(&["0", "1", "2"]));
    if x.chance(0.5) {
        cmd = cmd.a(x.small());
        if x.chance(0.5) {
            cmd = cmd.a(x.small());
            if x.chance(0.4) {
                cmd = cmd.a(x.pick(&["BYTE", "BIT"]));
            }
        }
    }
    cmd
}

fn bitop(x: &mut Ctx) -> Cmd {
    let op = x.pick(&["AND", "OR", "XOR", "NOT", "NAND"]);
    let first = x.key();
    let n = if op == "NOT" && x.chance(0.8) { 1 } else { 2 };
    let mut cmd = c("BITOP").a(op).k(first.clone());
    for _ in 0..n {
        cmd = cmd.k(x.near(&first));
    }
    cmd
}

fn bitfield(x: &mut Ctx) -> Cmd {
    let ro = x.chance(0.2);
    let mut cmd = c(if ro { "BITFIELD_RO" } else { "BITFIELD" }).k(x.key());
    for _ in 0..1 + x.rng.below(3) {
        let ty = x.pick(&["u8", "i8", "u1", "i64", "u63", "u64", "i65", "x8"]);
        let at = x.pick(&["0", "#1", "3", "-1", "100"]);
        cmd = match if ro { 0 } else { x.rng.below(4) } {
            0 => cmd.a("GET").a(ty).a(at),
            1 => cmd.a("SET").a(ty).a(at).a(x.int()),
            2 => cmd.a("INCRBY").a(ty).a(at).a(x.int()),
            _ => cmd
                .a("OVERFLOW")
                .a(x.pick(&["WRAP", "SAT", "FAIL", "NONE"])),
        };
    }
    cmd
}

fn pfadd(x: &mut Ctx) -> Cmd {
    let mut cmd = c("PFADD").k(x.key());
    for _ in 0..x.rng.below(4) {
        cmd = cmd.a(x.val());
    }
    cmd
}

fn pfcount(x: &mut Ctx) -> Cmd {
    let first = x.key();
    c("PFCOUNT").ks(x.keys_near(&first, 3))
}

fn pfmerge(x: &mut Ctx) -> Cmd {
    let first = x.key();
    c("PFMERGE").ks(x.keys_near(&first, 3))
}

fn lon(x: &mut Ctx) -> String {
    x.pick(&[
        "13.361389",
        "15.087269",
        "-180",
        "180",
        "180.1",
        "0",
        "abc",
        "-122.4194",
    ])
    .to_owned()
}

fn lat(x: &mut Ctx) -> String {
    x.pick(&[
        "38.115556",
        "37.502669",
        "85.05112878",
        "85.06",
        "-85.05112878",
        "0",
        "abc",
    ])
    .to_owned()
}

fn geoadd(x: &mut Ctx) -> Cmd {
    let mut cmd = c("GEOADD").k(x.key());
    for opt in ["NX", "XX", "CH"] {
        if x.chance(0.1) {
            cmd = cmd.a(opt);
        }
    }
    for _ in 0..1 + x.rng.below(2) {
        cmd = cmd.a(lon(x)).a(lat(x)).a(x.member());
    }
    cmd
}

fn geopos(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["GEOPOS", "GEOHASH"]);
    c(name).k(x.key()).a(x.member()).a(x.member())
}

fn geodist(x: &mut Ctx) -> Cmd {
    let cmd = c("GEODIST").k(x.key()).a(x.member()).a(x.member());
    if x.chance(0.6) {
        cmd.a(x.pick(&["m", "km", "mi", "ft", "yd"]))
    } else {
        cmd
    }
}

fn geosearch(x: &mut Ctx) -> Cmd {
    let store = x.chance(0.3);
    let first = x.key();
    let mut cmd = if store {
        c("GEOSEARCHSTORE").k(first.clone()).k(x.near(&first))
    } else {
        c("GEOSEARCH").k(first)
    };
    cmd = if x.chance(0.5) {
        cmd.a("FROMMEMBER").a(x.member())
    } else {
        cmd.a("FROMLONLAT").a(lon(x)).a(lat(x))
    };
    cmd = if x.chance(0.5) {
        cmd.a("BYRADIUS")
            .a(x.pick(&["200", "0", "-1", "5000"]))
            .a("km")
    } else {
        cmd.a("BYBOX")
            .a("400")
            .a("400")
            .a(x.pick(&["km", "m", "parsec"]))
    };
    if x.chance(0.5) {
        cmd = cmd.a(x.pick(&["ASC", "DESC"]));
    }
    if x.chance(0.3) {
        cmd = cmd.a("COUNT").a(x.small());
    }
    if !store {
        for opt in ["WITHCOORD", "WITHDIST", "WITHHASH"] {
            if x.chance(0.3) {
                cmd = cmd.a(opt);
            }
        }
    } else if x.chance(0.3) {
        cmd = cmd.a("STOREDIST");
    }
    cmd
}

fn georadius(x: &mut Ctx) -> Cmd {
    let mut cmd = if x.chance(0.5) {
        c("GEORADIUS").k(x.key()).a(lon(x)).a(lat(x))
    } else {
        c("GEORADIUSBYMEMBER").k(x.key()).a(x.member())
    };
    cmd = cmd.a(x.pick(&["200", "0", "5000"])).a("km");
    if x.chance(0.3) {
        cmd = cmd.a("WITHDIST");
    }
    if x.chance(0.3) {
        cmd = cmd.a("ASC");
    }
    cmd
}

fn stream_id(x: &mut Ctx) -> String {
    x.pick(&[
        "1-1",
        "1-2",
        "2-0",
        "5",
        "0-0",
        "0-1",
        "18446744073709551615-0",
        "abc",
        "1-*",
    ])
    .to_owned()
}

fn xadd(x: &mut Ctx) -> Cmd {
    let mut cmd = c("XADD").k(x.key());
    if x.chance(0.2) {
        cmd = cmd.a("NOMKSTREAM");
    }
    if x.chance(0.2) {
        cmd = cmd.a("MAXLEN").a(x.pick(&["2", "~", "="]));
        if x.chance(0.5) {
            cmd = cmd.a("3");
        }
    }
    cmd = cmd.a(if x.chance(0.2) {
        "*".to_owned()
    } else {
        stream_id(x)
    });
    for _ in 0..1 + x.rng.below(2) {
        cmd = cmd.a(x.member()).a(x.val());
    }
    cmd
}

fn xlen(x: &mut Ctx) -> Cmd {
    c("XLEN").k(x.key())
}

fn xrange(x: &mut Ctx) -> Cmd {
    let name = x.pick(&["XRANGE", "XREVRANGE"]);
    let cmd = c(name)
        .k(x.key())
        .a(x.pick(&["-", "+", "1-1", "(1-1", "0", "abc"]))
        .a(x.pick(&["+", "-", "2-0", "(5-0", "5"]));
    if x.chance(0.3) {
        cmd.a("COUNT").a(x.small())
    } else {
        cmd
    }
}

fn xdel_trim(x: &mut Ctx) -> Cmd {
    if x.chance(0.5) {
        c("XDEL").k(x.key()).a(stream_id(x))
    } else {
        c("XTRIM")
            .k(x.key())
            .a(x.pick(&["MAXLEN", "MINID", "BAD"]))
            .a(x.pick(&["1", "0", "2-0", "-1"]))
    }
}

fn xread(x: &mut Ctx) -> Cmd {
    let first = x.key();
    let keys = x.keys_near(&first, 2);
    let mut cmd = c("XREAD");
    if x.chance(0.3) {
        cmd = cmd.a("COUNT").a(x.small());
    }
    let n = keys.len();
    cmd = cmd.a("STREAMS").ks(keys);
    for _ in 0..n {
        cmd = cmd.a(x.pick(&["0", "0-0", "1-1", "$", "abc"]));
    }
    cmd
}

fn sort(x: &mut Ctx) -> Cmd {
    let ro = x.chance(0.2);
    let first = x.key();
    let mut cmd = c(if ro { "SORT_RO" } else { "SORT" }).k(first.clone());
    if x.chance(0.15) {
        cmd = cmd.a("BY").a(x.pick(&["nosort", "w_*", "{a}w_*"]));
    }
    if x.chance(0.3) {
        cmd = cmd.a("LIMIT").a(x.small()).a(x.small());
    }
    if x.chance(0.1) {
        cmd = cmd.a("GET").a(x.pick(&["#", "o_*"]));
    }
    if x.chance(0.3) {
        cmd = cmd.a(x.pick(&["ASC", "DESC"]));
    }
    if x.chance(0.4) {
        cmd = cmd.a("ALPHA");
    }
    if !ro && x.chance(0.3) {
        cmd = cmd.a("STORE").a(x.near(&first));
    }
    cmd
}
