//! The cluster section: node ids, addresses, flags, open slots and slot runs, each written as
//! short as it goes (a fixture id or a made-up one in one byte, a repeated host in none).

use super::bytes::{put_str, put_varint, Bad, Reader};
use super::{Cluster, MAX_CREATED_MASTERS};
use crate::core::cluster::lab::made_up_id;
use crate::core::cluster::topology::{Master, Replica, SlotMap, SlotRange};
use crate::core::N_SLOTS;

/// Ids of the fixtures' cluster (masters 7000-7002, then replicas 7004, 7005, 7003), each
/// written as one byte.
fn fixture_ids() -> Vec<String> {
    let map = SlotMap::fixture_cluster();
    let masters = map.masters().iter().map(|m| m.id.clone());
    let replicas = map
        .masters()
        .iter()
        .flat_map(|m| m.replicas.iter().map(|r| r.id.clone()));
    masters.chain(replicas).collect()
}

/// Id codes: raw 20 bytes; [`made_up_id`] of the node's own address; a fixture id; a
/// `--cluster create` id (`{n:040x}`); else text.
const ID_RAW: u64 = 0;
const ID_MADE_UP: u64 = 1;
const ID_FIXTURE: u64 = 2;
const ID_CREATED: u64 = 8;
const ID_TEXT: u64 = 9;

/// A node id as short as it goes; `addr` is the node's own address when it has one.
fn put_id(out: &mut Vec<u8>, id: &str, addr: Option<&str>, fixture: &[String]) {
    let is_hex = id.len() == 40 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if let Some(i) = fixture.iter().position(|f| f == id) {
        put_varint(out, ID_FIXTURE + i as u64);
    } else if addr.is_some_and(|a| made_up_id(a) == id) {
        put_varint(out, ID_MADE_UP);
    } else if is_hex && id.starts_with("000000000000000000000000") {
        let n = u64::from_str_radix(&id[24..], 16).unwrap_or(0);
        put_varint(out, ID_CREATED);
        put_varint(out, n);
    } else if is_hex {
        put_varint(out, ID_RAW);
        for pair in id.as_bytes().chunks(2) {
            let hex = |b: u8| if b <= b'9' { b - b'0' } else { b - b'a' + 10 };
            out.push(hex(pair[0]) << 4 | hex(pair[1]));
        }
    } else {
        put_varint(out, id.len() as u64 + ID_TEXT);
        out.extend_from_slice(id.as_bytes());
    }
}

fn read_id(r: &mut Reader, addr: Option<&str>, fixture: &[String]) -> Result<String, Bad> {
    let k = r.varint().ok_or(Bad::Malformed)?;
    match k {
        ID_RAW => {
            let raw = r.bytes(20).ok_or(Bad::Malformed)?;
            Ok(raw.iter().map(|b| format!("{b:02x}")).collect())
        }
        ID_MADE_UP => addr.map(made_up_id).ok_or(Bad::Malformed),
        ID_CREATED => {
            let n = r.varint().ok_or(Bad::Malformed)?;
            Ok(format!("{n:040x}"))
        }
        k if k < ID_CREATED => fixture
            .get((k - ID_FIXTURE) as usize)
            .cloned()
            .ok_or(Bad::Malformed),
        k => {
            let n = k - ID_TEXT;
            if n > r.left() as u64 {
                return Err(Bad::Malformed);
            }
            let b = r.bytes(n as usize).ok_or(Bad::Malformed)?;
            String::from_utf8(b.to_vec()).map_err(|_| Bad::Malformed)
        }
    }
}

/// An address `host:port` with a canonical decimal port, else `None`.
fn split_addr(addr: &str) -> Option<(&str, u16)> {
    let (host, port) = addr.rsplit_once(':')?;
    let p: u16 = port.parse().ok()?;
    (p.to_string() == port).then_some((host, p))
}

/// Addresses: `0, port` repeats the last host; `1, text` is any text; `len + 2, host, port`.
fn put_addr(out: &mut Vec<u8>, addr: &str, last_host: &mut String) {
    match split_addr(addr) {
        Some((host, port)) if host == last_host => {
            out.push(0);
            put_varint(out, port.into());
        }
        Some((host, port)) => {
            put_varint(out, host.len() as u64 + 2);
            out.extend_from_slice(host.as_bytes());
            put_varint(out, port.into());
            *last_host = host.to_string();
        }
        None => {
            out.push(1);
            put_str(out, addr);
        }
    }
}

fn read_addr(r: &mut Reader, last_host: &mut String) -> Result<String, Bad> {
    let k = r.varint().ok_or(Bad::Malformed)?;
    let port = |r: &mut Reader| match r.varint() {
        Some(p) if p <= u16::MAX as u64 => Ok(p),
        _ => Err(Bad::Malformed),
    };
    match k {
        0 => Ok(format!("{last_host}:{}", port(r)?)),
        1 => r.string(usize::MAX),
        _ => {
            let n = k - 2;
            if n > r.left() as u64 {
                return Err(Bad::Malformed);
            }
            let b = r.bytes(n as usize).ok_or(Bad::Malformed)?;
            let host = String::from_utf8(b.to_vec()).map_err(|_| Bad::Malformed)?;
            let addr = format!("{host}:{}", port(r)?);
            *last_host = host;
            Ok(addr)
        }
    }
}

fn put_flags(out: &mut Vec<u8>, flags: &[String]) {
    put_varint(out, flags.len() as u64);
    for f in flags {
        put_str(out, f);
    }
}

fn read_flags(r: &mut Reader) -> Result<Vec<String>, Bad> {
    let n = r.count()?;
    (0..n).map(|_| r.string(usize::MAX)).collect()
}

const HAS_HOSTNAME: u8 = 1;
const HAS_FLAGS: u8 = 2;
const HAS_REPLICAS: u8 = 4;
const HAS_MIGRATING: u8 = 8;
const HAS_IMPORTING: u8 = 16;
/// A config epoch follows (a master without this bit has epoch 0). Links written before epochs
/// were kept have no epoch trailer after the runs: their masters get 1, 2, … as the export
/// showed them then.
const HAS_EPOCH: u8 = 32;

fn put_open_slots(out: &mut Vec<u8>, slots: &[(u16, String)], fixture: &[String]) {
    put_varint(out, slots.len() as u64);
    for (slot, id) in slots {
        put_varint(out, (*slot).into());
        put_id(out, id, None, fixture);
    }
}

fn read_open_slots(r: &mut Reader, fixture: &[String]) -> Result<Vec<(u16, String)>, Bad> {
    let n = r.count()?;
    (0..n)
        .map(|_| Ok((r.slot()?, read_id(r, None, fixture)?)))
        .collect()
}

pub(super) fn cluster_body(cluster: &Cluster) -> Vec<u8> {
    let mut out = Vec::new();
    match cluster {
        Cluster::Fixture => out.push(0),
        Cluster::Created(n) => {
            out.push(1);
            put_varint(&mut out, *n as u64);
        }
        Cluster::Custom(map) => {
            out.push(2);
            let fixture = fixture_ids();
            put_varint(&mut out, map.n_masters() as u64);
            let mut last_host = String::new();
            for m in map.masters() {
                let head = [
                    (m.hostname.is_some(), HAS_HOSTNAME),
                    (!m.flags.is_empty(), HAS_FLAGS),
                    (!m.replicas.is_empty(), HAS_REPLICAS),
                    (!m.migrating.is_empty(), HAS_MIGRATING),
                    (!m.importing.is_empty(), HAS_IMPORTING),
                    (m.epoch != 0, HAS_EPOCH),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .fold(0, |acc, (_, bit)| acc | bit);
                out.push(head);
                put_addr(&mut out, &m.addr, &mut last_host);
                put_id(&mut out, &m.id, Some(&m.addr), &fixture);
                if let Some(h) = &m.hostname {
                    put_str(&mut out, h);
                }
                if head & HAS_FLAGS != 0 {
                    put_flags(&mut out, &m.flags);
                }
                if head & HAS_REPLICAS != 0 {
                    put_varint(&mut out, m.replicas.len() as u64);
                    for rep in &m.replicas {
                        put_addr(&mut out, &rep.addr, &mut last_host);
                        put_id(&mut out, &rep.id, Some(&rep.addr), &fixture);
                        put_flags(&mut out, &rep.flags);
                    }
                }
                if head & HAS_MIGRATING != 0 {
                    put_open_slots(&mut out, &m.migrating, &fixture);
                }
                if head & HAS_IMPORTING != 0 {
                    put_open_slots(&mut out, &m.importing, &fixture);
                }
                if head & HAS_EPOCH != 0 {
                    put_varint(&mut out, m.epoch);
                }
            }
            let runs: Vec<_> = map.runs().collect();
            put_varint(&mut out, runs.len() as u64);
            for run in runs {
                put_varint(&mut out, run.range.len() as u64 - 1);
                put_varint(&mut out, run.owner.map_or(0, |o| o as u64 + 1));
            }
            // The epoch trailer: the current epoch (its presence says the epochs were written).
            put_varint(&mut out, map.current_epoch());
        }
    }
    out
}

pub(super) fn read_cluster(r: &mut Reader) -> Result<Cluster, Bad> {
    match r.byte().ok_or(Bad::Malformed)? {
        0 => Ok(Cluster::Fixture),
        1 => match r.varint() {
            Some(n) if (1..=MAX_CREATED_MASTERS as u64).contains(&n) => {
                Ok(Cluster::Created(n as usize))
            }
            _ => Err(Bad::Malformed),
        },
        2 => {
            let fixture = fixture_ids();
            let n = r.count()?;
            let mut masters = Vec::with_capacity(n);
            let mut last_host = String::new();
            for _ in 0..n {
                let head = r.byte().ok_or(Bad::Malformed)?;
                if head >= 64 {
                    return Err(Bad::Malformed);
                }
                let addr = read_addr(r, &mut last_host)?;
                let id = read_id(r, Some(&addr), &fixture)?;
                let mut m = Master::new(addr, id);
                if head & HAS_HOSTNAME != 0 {
                    m.hostname = Some(r.string(usize::MAX)?);
                }
                if head & HAS_FLAGS != 0 {
                    m.flags = read_flags(r)?;
                }
                if head & HAS_REPLICAS != 0 {
                    let k = r.count()?;
                    for _ in 0..k {
                        let addr = read_addr(r, &mut last_host)?;
                        let id = read_id(r, Some(&addr), &fixture)?;
                        let flags = read_flags(r)?;
                        m.replicas.push(Replica { addr, id, flags });
                    }
                }
                if head & HAS_MIGRATING != 0 {
                    m.migrating = read_open_slots(r, &fixture)?;
                }
                if head & HAS_IMPORTING != 0 {
                    m.importing = read_open_slots(r, &fixture)?;
                }
                if head & HAS_EPOCH != 0 {
                    m.epoch = r.varint().ok_or(Bad::Malformed)?;
                }
                masters.push(m);
            }
            let n_runs = r.count()?;
            let mut ranges = Vec::with_capacity(n_runs);
            let mut first = 0u64;
            for _ in 0..n_runs {
                let len = r.varint().ok_or(Bad::Malformed)? + 1;
                let owner = r.varint().ok_or(Bad::Malformed)?;
                let last = first + len - 1;
                if len > N_SLOTS as u64 || last >= N_SLOTS as u64 || owner > n as u64 {
                    return Err(Bad::Malformed);
                }
                if owner > 0 {
                    ranges.push((
                        owner as usize - 1,
                        SlotRange::new(first as u16, last as u16),
                    ));
                }
                first = last + 1;
            }
            if first != N_SLOTS as u64 {
                return Err(Bad::Malformed);
            }
            let current = if r.left() > 0 {
                Some(r.varint().ok_or(Bad::Malformed)?)
            } else {
                None
            };
            if current.is_none() {
                for (i, m) in masters.iter_mut().enumerate() {
                    m.epoch = i as u64 + 1;
                }
            }
            let mut map = SlotMap::from_ranges(masters, &ranges).map_err(|_| Bad::Malformed)?;
            map.set_current_epoch(current.unwrap_or(0));
            Ok(Cluster::Custom(map))
        }
        _ => Err(Bad::Malformed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_written_before_epochs_gets_the_epochs_it_showed_then() {
        let mut map = SlotMap::fixture_cluster();
        map.assign(0, Some(2));
        let mut body = cluster_body(&Cluster::Custom(map.clone()));
        // The trailer is the current epoch, 8: one byte. Without it (and without the epoch
        // bits, which old links never set, but which are read all the same) the masters are
        // numbered 1, 2, 3 as the export numbered them then.
        assert_eq!(body.pop(), Some(8));
        let Ok(Cluster::Custom(old)) = read_cluster(&mut Reader::new(&body)) else {
            panic!("the body without its trailer did not read");
        };
        let epochs: Vec<u64> = old.masters().iter().map(|m| m.epoch).collect();
        assert_eq!(epochs, [1, 2, 3]);
        assert_eq!(old.current_epoch(), 3);
        // With it, the recorded 1, 8, 7.
        body.push(8);
        let Ok(Cluster::Custom(new)) = read_cluster(&mut Reader::new(&body)) else {
            panic!("the body did not read");
        };
        assert_eq!(new, map);
    }

    #[test]
    fn addresses_share_their_host() {
        let mut out = Vec::new();
        let mut host = String::new();
        for a in [
            "127.0.0.1:7000",
            "127.0.0.1:7001",
            "[::1]:0",
            "x:007",
            "plain",
        ] {
            put_addr(&mut out, a, &mut host);
        }
        let mut r = Reader::new(&out);
        let mut host = String::new();
        for a in [
            "127.0.0.1:7000",
            "127.0.0.1:7001",
            "[::1]:0",
            "x:007",
            "plain",
        ] {
            assert_eq!(read_addr(&mut r, &mut host).ok().as_deref(), Some(a));
        }
        assert_eq!(r.left(), 0);
    }
}
