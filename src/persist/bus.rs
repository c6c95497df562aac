//! The share link's cluster-bus part: the scenario's slug, the run's spec in
//! `core::bus::scenario`'s own link bytes (empty: the scenario as catalogued) and the instant
//! shown. The spec bytes are checked by the page (`ScenarioSpec::decode`, which never panics);
//! here only the frame is: a damaged body is a bad section and the page keeps what it had.

use super::bytes::{put_str, put_varint, Bad, Reader};
use super::{BusState, MAX_FIELD_BYTES};

/// The most spec bytes a link carries (a long free-play script is left out beyond).
pub const MAX_BUS_SPEC_BYTES: usize = 16 << 10;
/// The latest instant (ms after the start) a link may name: one simulated hour.
pub const MAX_BUS_MS: u64 = 3_600_000;

/// The body of the bus section.
pub(super) fn bus_body(b: &BusState) -> Vec<u8> {
    let mut out = Vec::new();
    put_str(&mut out, &b.scenario);
    put_varint(&mut out, b.spec.len() as u64);
    out.extend_from_slice(&b.spec);
    put_varint(&mut out, b.at_ms);
    out
}

/// Reads the bus section.
pub(super) fn read_bus(r: &mut Reader) -> Result<BusState, Bad> {
    let scenario = r.string(MAX_FIELD_BYTES)?;
    let len = match r.varint() {
        Some(n) if n <= MAX_BUS_SPEC_BYTES as u64 => n as usize,
        Some(_) => return Err(Bad::TooLong),
        None => return Err(Bad::Malformed),
    };
    let spec = r.bytes(len).ok_or(Bad::Malformed)?.to_vec();
    let at_ms = match r.varint() {
        Some(v) if v <= MAX_BUS_MS => v,
        _ => return Err(Bad::Malformed),
    };
    Ok(BusState {
        scenario,
        spec,
        at_ms,
    })
}
