//! Geo sets against a real redis-server 7.0.15: `tests/data/recorded/geo.txt` was recorded
//! from one (`record.py geo.cmds`) and is replayed on the engine's key space byte for byte:
//! GEOADD's options and coordinate errors, GEOPOS/GEOHASH/GEODIST (also of plain sorted-set
//! scores), every search form and option error, and a grid of 300 points searched by radius
//! and by box at several sizes (which members the neighbour boxes find near the edge, and in
//! which order without ASC/DESC), near the poles too.
#![cfg(not(target_arch = "wasm32"))]

#[path = "data/recorded.rs"]
mod recorded;

#[test]
fn geo_answers_as_recorded_from_redis() {
    recorded::replay(include_str!("data/recorded/geo.txt"));
}
