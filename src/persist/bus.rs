//! The share link's cluster-bus part: the scenario's slug, the free-play knobs, the script of
//! actions and the instant shown. Read back with every number range-checked: a tampered body
//! is a bad section (the page keeps what it had), never a panic.

use super::bytes::{put_str, put_varint, Bad, Reader};
use super::{BusAction, BusState, MAX_FIELD_BYTES};

/// The most actions a link carries.
pub const MAX_BUS_ACTIONS: usize = 256;
/// The latest instant (ms after the start) a link may name: ten simulated minutes.
pub const MAX_BUS_MS: u64 = 600_000;
/// Action codes (0 crash … 8 takeover) a link may hold.
pub const MAX_BUS_ACTION_CODE: u8 = 8;

/// The body of the bus section.
pub(super) fn bus_body(b: &BusState) -> Vec<u8> {
    let mut out = Vec::new();
    put_str(&mut out, &b.scenario);
    put_varint(&mut out, b.node_timeout);
    put_varint(&mut out, b.masters.into());
    put_varint(&mut out, b.replicas.into());
    out.push(u8::from(b.full_coverage) | (u8::from(b.replica_migration) << 1));
    put_varint(&mut out, b.seed);
    let script = &b.script[..b.script.len().min(MAX_BUS_ACTIONS)];
    put_varint(&mut out, script.len() as u64);
    for a in script {
        put_varint(&mut out, a.at_ms);
        out.push(a.kind);
        put_varint(&mut out, a.node.into());
    }
    put_varint(&mut out, b.at_ms);
    out
}

fn num(r: &mut Reader, max: u64) -> Result<u64, Bad> {
    match r.varint() {
        Some(v) if v <= max => Ok(v),
        _ => Err(Bad::Malformed),
    }
}

/// Reads the bus section (every field within the page's ranges).
pub(super) fn read_bus(r: &mut Reader) -> Result<BusState, Bad> {
    let scenario = r.string(MAX_FIELD_BYTES)?;
    let node_timeout = num(r, 120_000)?;
    let masters = num(r, 1000)? as u32;
    let replicas = num(r, 999)? as u32;
    let flags = r.byte().ok_or(Bad::Malformed)?;
    if flags > 3 {
        return Err(Bad::Malformed);
    }
    let seed = r.varint().ok_or(Bad::Malformed)?;
    let n = num(r, MAX_BUS_ACTIONS as u64)? as usize;
    let mut script = Vec::with_capacity(n);
    for _ in 0..n {
        let at_ms = num(r, MAX_BUS_MS)?;
        let kind = r.byte().ok_or(Bad::Malformed)?;
        if kind > MAX_BUS_ACTION_CODE {
            return Err(Bad::Malformed);
        }
        let node = num(r, 999)? as u32;
        script.push(BusAction { at_ms, kind, node });
    }
    let at_ms = num(r, MAX_BUS_MS)?;
    Ok(BusState {
        scenario,
        node_timeout,
        masters,
        replicas,
        full_coverage: flags & 1 != 0,
        replica_migration: flags & 2 != 0,
        seed,
        script,
        at_ms,
    })
}
