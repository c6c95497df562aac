//! Geo sets (sorted sets scored by 52-bit interleaved geohashes), ported from Redis 7.0.15's
//! `geohash.c`, `geohash_helper.c` and `geo.c`: GEOADD GEOPOS GEODIST GEOHASH GEOSEARCH
//! GEOSEARCHSTORE GEORADIUS GEORADIUSBYMEMBER and their `_RO` forms. A search looks in the
//! centre geohash box and its eight neighbours at the step Redis estimates, in Redis's order,
//! so the members found near an edge (and the order without ASC/DESC) are Redis's.
//! The geohash arithmetic itself is in `hash`.

mod hash;

use super::zset::{fmt_human, read, string2d, ZSet};
use super::{Db, Value};
use crate::core::server::command::parse_i64;
use crate::core::server::reply::{ErrorReply, Reply};
use hash::{
    align52, areas, decode_score, distance, encode, within, Bits, Range, Shape, ShapeKind, LAT_MAX,
    LAT_MIN, LONG_MAX, LONG_MIN, STEP_MAX, WGS84,
};

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let reply = match name {
        "geoadd" => geoadd(db, now, args),
        "geopos" => geopos(db, now, args),
        "geodist" => geodist(db, now, args),
        "geohash" => geohash(db, now, args),
        "georadius" => search(db, now, args, 1, Flags::COORDS),
        "georadius_ro" => search(db, now, args, 1, Flags::COORDS | Flags::NOSTORE),
        "georadiusbymember" => search(db, now, args, 1, Flags::MEMBER),
        "georadiusbymember_ro" => search(db, now, args, 1, Flags::MEMBER | Flags::NOSTORE),
        "geosearch" => search(db, now, args, 1, Flags::SEARCH),
        "geosearchstore" => search(db, now, args, 2, Flags::SEARCH | Flags::SEARCHSTORE),
        _ => return None,
    };
    Some(reply.unwrap_or_else(Reply::Error))
}

type Res = Result<Reply, ErrorReply>;

fn arg(args: &[Vec<u8>], i: usize) -> &[u8] {
    args.get(i).map_or(&[][..], Vec::as_slice)
}

fn bulk(b: &[u8]) -> Reply {
    Reply::Bulk(Some(b.to_vec()))
}

// ------------------------------------------------------------------------------------------
// geo.c
// ------------------------------------------------------------------------------------------

/// `%f`.
fn fmt_f(d: f64) -> String {
    format!("{d:.6}")
}

/// `extractLongLatOrReply`.
fn long_lat(lon: &[u8], lat: &[u8]) -> Result<[f64; 2], ErrorReply> {
    let x = string2d(lon).ok_or(ErrorReply::NotFloat)?;
    let y = string2d(lat).ok_or(ErrorReply::NotFloat)?;
    if !(LONG_MIN..=LONG_MAX).contains(&x) || !(LAT_MIN..=LAT_MAX).contains(&y) {
        return Err(ErrorReply::InvalidLonLat {
            lon: fmt_f(x),
            lat: fmt_f(y),
        });
    }
    Ok([x, y])
}

fn unit(u: &[u8]) -> Result<f64, ErrorReply> {
    match u.to_ascii_lowercase().as_slice() {
        b"m" => Ok(1.0),
        b"km" => Ok(1000.0),
        b"ft" => Ok(0.3048),
        b"mi" => Ok(1609.34),
        _ => Err(ErrorReply::GeoUnit),
    }
}

/// `extractDistanceOrReply`: (radius, conversion).
fn radius_unit(r: &[u8], u: &[u8]) -> Result<(f64, f64), ErrorReply> {
    let d = string2d(r).ok_or(ErrorReply::GeoNeedNumber { what: "radius" })?;
    if d < 0.0 {
        return Err(ErrorReply::GeoNegative { what: "radius" });
    }
    Ok((d, unit(u)?))
}

/// `addReplyDoubleDistance`: four decimals, rounded half to even as `llrint` does.
fn fmt_distance(d: f64) -> String {
    if d == 0.0 {
        return "0.0000".to_owned();
    }
    let v = (d * 10000.0).round_ties_even();
    if !v.is_finite() || v.abs() >= 9.2e18 {
        return format!("{d:.4}");
    }
    let v = v as i64;
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    format!("{sign}{}.{:04}", a / 10000, a % 10000)
}

fn geoadd(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let mut longidx = 2;
    let (mut nx, mut xx) = (false, false);
    while let Some(opt) = args.get(longidx) {
        match opt.to_ascii_lowercase().as_slice() {
            b"nx" => nx = true,
            b"xx" => xx = true,
            b"ch" => {}
            _ => break,
        }
        longidx += 1;
    }
    let rest = args.get(longidx..).unwrap_or(&[]);
    if rest.len() % 3 != 0 || (xx && nx) {
        return Err(ErrorReply::Syntax);
    }
    let mut zargs: Vec<Vec<u8>> = args.get(..longidx).unwrap_or(&[]).to_vec();
    if let Some(first) = zargs.first_mut() {
        *first = b"zadd".to_vec();
    }
    for triple in rest.chunks(3) {
        let xy = long_lat(arg(triple, 0), arg(triple, 1))?;
        let hash = encode(WGS84.0, WGS84.1, xy[0], xy[1], STEP_MAX).unwrap_or_default();
        zargs.push(align52(hash).to_string().into_bytes());
        zargs.push(arg(triple, 2).to_vec());
    }
    super::zset::run(db, now, "zadd", &zargs).ok_or(ErrorReply::Syntax)
}

fn geopos(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let z = read(db, now, arg(args, 1))?;
    Ok(Reply::Array(
        args.get(2..)
            .unwrap_or(&[])
            .iter()
            .map(
                |m| match z.and_then(|z| z.score(m)).and_then(decode_score) {
                    Some([x, y]) => Reply::Array(vec![
                        bulk(fmt_human(x).as_bytes()),
                        bulk(fmt_human(y).as_bytes()),
                    ]),
                    None => Reply::NilArray,
                },
            )
            .collect(),
    ))
}

fn geodist(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let to_meter = match args.len() {
        5 => unit(arg(args, 4))?,
        n if n > 5 => return Err(ErrorReply::Syntax),
        _ => 1.0,
    };
    let Some(z) = read(db, now, arg(args, 1))? else {
        return Ok(Reply::Bulk(None));
    };
    let (Some(s1), Some(s2)) = (z.score(arg(args, 2)), z.score(arg(args, 3))) else {
        return Ok(Reply::Bulk(None));
    };
    let (Some(a), Some(b)) = (decode_score(s1), decode_score(s2)) else {
        return Ok(Reply::Bulk(None));
    };
    Ok(bulk(
        fmt_distance(distance(a[0], a[1], b[0], b[1]) / to_meter).as_bytes(),
    ))
}

fn geohash(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    const ALPHABET: &[u8; 32] = b"0123456789bcdefghjkmnpqrstuvwxyz";
    let z = read(db, now, arg(args, 1))?;
    let std_ranges = (
        Range {
            min: -180.0,
            max: 180.0,
        },
        Range {
            min: -90.0,
            max: 90.0,
        },
    );
    Ok(Reply::Array(
        args.get(2..)
            .unwrap_or(&[])
            .iter()
            .map(|m| {
                let Some([x, y]) = z.and_then(|z| z.score(m)).and_then(decode_score) else {
                    return Reply::Bulk(None);
                };
                let hash = encode(std_ranges.0, std_ranges.1, x, y, 26).unwrap_or_default();
                let text: Vec<u8> = (0..11)
                    .map(|i| {
                        let idx = if i == 10 {
                            0
                        } else {
                            (hash.bits >> (52 - (i + 1) * 5)) & 0x1f
                        };
                        ALPHABET.get(idx as usize).copied().unwrap_or(b'0')
                    })
                    .collect();
                Reply::Bulk(Some(text))
            })
            .collect(),
    ))
}

/// How a search command was called (`georadiusGeneric`'s flags).
#[derive(Clone, Copy, PartialEq)]
struct Flags(u8);

impl Flags {
    const COORDS: Flags = Flags(1);
    const MEMBER: Flags = Flags(2);
    const NOSTORE: Flags = Flags(4);
    const SEARCH: Flags = Flags(8);
    const SEARCHSTORE: Flags = Flags(16);

    fn has(self, f: Flags) -> bool {
        self.0 & f.0 != 0
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, o: Flags) -> Flags {
        Flags(self.0 | o.0)
    }
}

/// One point found: member, score, decoded position, distance in meters.
struct Point {
    member: Vec<u8>,
    score: f64,
    xy: [f64; 2],
    dist: f64,
}

#[derive(Clone, Copy, PartialEq)]
enum Sort {
    None,
    Asc,
    Desc,
}

fn search(db: &mut Db, now: i64, args: &[Vec<u8>], src_at: usize, flags: Flags) -> Res {
    let zobj: Option<ZSet> = read(db, now, arg(args, src_at))?.cloned();
    let mut store: Option<Vec<u8>> = None;
    let mut storedist = false;
    let mut xy = [0.0, 0.0];
    let mut kind = ShapeKind::Radius(0.0);
    let mut conversion = 1.0;
    let base: usize;
    if flags.has(Flags::COORDS) {
        base = 6;
        xy = long_lat(arg(args, 2), arg(args, 3))?;
        let (r, c) = radius_unit(arg(args, 4), arg(args, 5))?;
        kind = ShapeKind::Radius(r);
        conversion = c;
    } else if flags.has(Flags::MEMBER) {
        base = 5;
        if let Some(z) = &zobj {
            xy = z
                .score(arg(args, 2))
                .and_then(decode_score)
                .ok_or(ErrorReply::GeoMemberDecode)?;
            let (r, c) = radius_unit(arg(args, 3), arg(args, 4))?;
            kind = ShapeKind::Radius(r);
            conversion = c;
        }
    } else {
        base = if flags.has(Flags::SEARCHSTORE) { 3 } else { 2 };
        if flags.has(Flags::SEARCHSTORE) {
            store = Some(arg(args, 1).to_vec());
        }
    }
    let (mut withdist, mut withhash, mut withcoords, mut any) = (false, false, false, false);
    let (mut frommember, mut fromloc, mut byradius, mut bybox) = (false, false, false, false);
    let mut sort = Sort::None;
    let mut count: i64 = 0;
    let opts = args.get(base..).unwrap_or(&[]);
    let remaining = opts.len();
    let search = flags.has(Flags::SEARCH);
    let mut i = 0;
    while i < remaining {
        let a = arg(opts, i).to_ascii_lowercase();
        let a = a.as_slice();
        if a == b"withdist" {
            withdist = true;
        } else if a == b"withhash" {
            withhash = true;
        } else if a == b"withcoord" {
            withcoords = true;
        } else if a == b"any" {
            any = true;
        } else if a == b"asc" {
            sort = Sort::Asc;
        } else if a == b"desc" {
            sort = Sort::Desc;
        } else if a == b"count" && i + 1 < remaining {
            count = parse_i64(arg(opts, i + 1)).ok_or(ErrorReply::NotInteger)?;
            if count <= 0 {
                return Err(ErrorReply::GeoOption("COUNT must be > 0"));
            }
            i += 1;
        } else if (a == b"store" || a == b"storedist")
            && i + 1 < remaining
            && !flags.has(Flags::NOSTORE)
            && !search
        {
            store = Some(arg(opts, i + 1).to_vec());
            storedist = a == b"storedist";
            i += 1;
        } else if a == b"storedist" && search && flags.has(Flags::SEARCHSTORE) {
            storedist = true;
        } else if a == b"frommember" && i + 1 < remaining && search && !fromloc {
            if let Some(z) = &zobj {
                xy = z
                    .score(arg(opts, i + 1))
                    .and_then(decode_score)
                    .ok_or(ErrorReply::GeoMemberDecode)?;
            }
            frommember = true;
            i += 1;
        } else if a == b"fromlonlat" && i + 2 < remaining && search && !frommember {
            xy = long_lat(arg(opts, i + 1), arg(opts, i + 2))?;
            fromloc = true;
            i += 2;
        } else if a == b"byradius" && i + 2 < remaining && search && !bybox {
            let (r, c) = radius_unit(arg(opts, i + 1), arg(opts, i + 2))?;
            kind = ShapeKind::Radius(r);
            conversion = c;
            byradius = true;
            i += 2;
        } else if a == b"bybox" && i + 3 < remaining && search && !byradius {
            let w =
                string2d(arg(opts, i + 1)).ok_or(ErrorReply::GeoNeedNumber { what: "width" })?;
            let h =
                string2d(arg(opts, i + 2)).ok_or(ErrorReply::GeoNeedNumber { what: "height" })?;
            if h < 0.0 || w < 0.0 {
                return Err(ErrorReply::GeoNegative {
                    what: "height or width",
                });
            }
            conversion = unit(arg(opts, i + 3))?;
            kind = ShapeKind::Box {
                width: w,
                height: h,
            };
            bybox = true;
            i += 3;
        } else {
            return Err(ErrorReply::Syntax);
        }
        i += 1;
    }
    if store.is_some() && (withdist || withhash || withcoords) {
        return Err(ErrorReply::GeoOption(if flags.has(Flags::SEARCHSTORE) {
            "GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options"
        } else {
            "STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options"
        }));
    }
    let typed = || String::from_utf8_lossy(arg(args, 0)).into_owned();
    if search && !(frommember || fromloc) {
        return Err(ErrorReply::GeoExactlyOne {
            options: "FROMMEMBER or FROMLONLAT",
            command: typed(),
        });
    }
    if search && !(byradius || bybox) {
        return Err(ErrorReply::GeoExactlyOne {
            options: "BYRADIUS and BYBOX",
            command: typed(),
        });
    }
    if any && count == 0 {
        return Err(ErrorReply::GeoOption(
            "the ANY argument requires COUNT argument",
        ));
    }
    let Some(z) = zobj else {
        return Ok(match store {
            Some(dst) => {
                db.remove(&dst, now);
                Reply::Int(0)
            }
            None => Reply::Array(vec![]),
        });
    };
    if count != 0 && sort == Sort::None && !any {
        sort = Sort::Asc;
    }
    let shape = Shape {
        xy,
        kind,
        conversion,
    };
    let limit = if any { count as usize } else { 0 };
    let mut found: Vec<Point> = Vec::new();
    let boxes = areas(&shape);
    let mut last: Option<Bits> = None;
    for b in boxes {
        if b.is_zero() {
            continue;
        }
        if last == Some(b) {
            continue;
        }
        if !found.is_empty() && limit > 0 && found.len() >= limit {
            break;
        }
        let min = align52(b) as f64;
        let max = align52(Bits {
            bits: b.bits + 1,
            step: b.step,
        }) as f64;
        for (m, s) in z.iter() {
            if s < min {
                continue;
            }
            if s >= max {
                break;
            }
            if let Some((pxy, d)) = within(&shape, s) {
                found.push(Point {
                    member: m.to_vec(),
                    score: s,
                    xy: pxy,
                    dist: d,
                });
            }
            if !found.is_empty() && limit > 0 && found.len() >= limit {
                break;
            }
        }
        last = Some(b);
    }
    if found.is_empty() && store.is_none() {
        return Ok(Reply::Array(vec![]));
    }
    match sort {
        Sort::Asc => crate::core::sort::sort_by(&mut found, |a, b| {
            a.dist
                .partial_cmp(&b.dist)
                .unwrap_or(std::cmp::Ordering::Equal)
        }),
        Sort::Desc => crate::core::sort::sort_by(&mut found, |a, b| {
            b.dist
                .partial_cmp(&a.dist)
                .unwrap_or(std::cmp::Ordering::Equal)
        }),
        Sort::None => {}
    }
    let returned = if count == 0 {
        found.len()
    } else {
        found.len().min(count as usize)
    };
    found.truncate(returned);
    if let Some(dst) = store {
        let out = ZSet::built(found.into_iter().map(|p| {
            let score = if storedist {
                p.dist / conversion
            } else {
                p.score
            };
            (p.member, score)
        }));
        let n = out.len() as i64;
        if n > 0 {
            db.insert(&dst, Value::ZSet(out), now, false);
        } else {
            db.remove(&dst, now);
        }
        return Ok(Reply::Int(n));
    }
    let options = usize::from(withdist) + usize::from(withhash) + usize::from(withcoords);
    Ok(Reply::Array(
        found
            .into_iter()
            .map(|p| {
                if options == 0 {
                    return bulk(&p.member);
                }
                let mut item = vec![bulk(&p.member)];
                if withdist {
                    item.push(bulk(fmt_distance(p.dist / conversion).as_bytes()));
                }
                if withhash {
                    item.push(Reply::Int(p.score as i64));
                }
                if withcoords {
                    item.push(Reply::Array(vec![
                        bulk(fmt_human(p.xy[0]).as_bytes()),
                        bulk(fmt_human(p.xy[1]).as_bytes()),
                    ]));
                }
                Reply::Array(item)
            })
            .collect(),
    ))
}
