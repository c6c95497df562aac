//! A live slot migration driven on both sides, the way redis-cli's reshard drives it: `CLUSTER
//! SETSLOT … IMPORTING` on the target, `… MIGRATING` on the source, `MIGRATE` key by key and
//! with `KEYS`, probes that must answer ASK, MOVED, TRYAGAIN (and serve after ASKING), random
//! commands on the slot's keys sent to either side, then `SETSLOT … NODE` on every master —
//! and the same back again, so the cluster ends as it started.

use super::generate::{self, Ctx, Family, KeyPool, MakeFn, Rng};
use super::resp::Value;
use super::run::{Bucket, Harness};

const B: Bucket = Bucket::Family(Family::Migration);

fn words(w: &[&str]) -> Vec<Vec<u8>> {
    w.iter().map(|s| s.as_bytes().to_vec()).collect()
}

/// The keys of the migrated slot (tag `{m}`; none of them is in the ordinary pool).
fn slot_keys() -> Vec<Vec<u8>> {
    ["{m}a", "{m}b", "{m}c", "{m}new"]
        .iter()
        .map(|k| k.as_bytes().to_vec())
        .collect()
}

/// Moves every key of `slot` from `src` to `dst` with `MIGRATE … REPLACE KEYS` (the keys as
/// the real source lists them; the engine's list was compared just before), then gives the slot
/// to `dst` on every master.
fn finish(h: &mut Harness, slot: u16, src: usize, dst: usize, dst_id: &str) {
    let listed = h.send(
        B,
        src,
        &words(&["CLUSTER", "GETKEYSINSLOT", &slot.to_string(), "100"]),
    );
    let keys: Vec<Vec<u8>> = match listed {
        Value::Array(Some(items)) => items
            .into_iter()
            .filter_map(|v| match v {
                Value::Bulk(Some(k)) => Some(k),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    if !keys.is_empty() {
        let (host, port) = h
            .addr(dst)
            .rsplit_once(':')
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .unwrap_or_default();
        let mut args = words(&["MIGRATE", &host, &port, "", "0", "5000", "REPLACE", "KEYS"]);
        args.extend(keys);
        h.send(B, src, &args);
    }
    h.send(
        B,
        src,
        &words(&["CLUSTER", "COUNTKEYSINSLOT", &slot.to_string()]),
    );
    // redis-cli's order: the target first, then the source, then the other masters.
    let mut order = vec![dst, src];
    order.extend(h.masters().into_iter().filter(|m| *m != dst && *m != src));
    for m in order {
        h.send(
            B,
            m,
            &words(&["CLUSTER", "SETSLOT", &slot.to_string(), "NODE", dst_id]),
        );
    }
}

/// One migration of `{m}`'s slot to another master and back.
pub fn migration(h: &mut Harness, rng: &mut Rng, gens: &[(Family, MakeFn)], families: &[Family]) {
    let slot = slotscope::core::key_slot(b"{m}");
    let masters = h.masters();
    let map = h.cluster.map().clone();
    let owner = map.owner_master(slot).expect("slot has an owner");
    let src = h.index_of(&owner.addr);
    let others: Vec<usize> = masters.iter().copied().filter(|m| *m != src).collect();
    let dst = *rng.pick(&others);
    let id_of = |i: usize| {
        map.masters()
            .iter()
            .find(|m| m.addr == h.addr(i))
            .map(|m| m.id.clone())
            .expect("a master's id")
    };
    let (src_id, dst_id) = (id_of(src), id_of(dst));
    let s = slot.to_string();
    let (host, port) = h
        .addr(dst)
        .rsplit_once(':')
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .unwrap_or_default();

    for (k, v) in [("{m}a", "1"), ("{m}b", "2"), ("{m}c", "3")] {
        h.send(B, src, &words(&["SET", k, v]));
    }
    h.send(
        B,
        dst,
        &words(&["CLUSTER", "SETSLOT", &s, "IMPORTING", &src_id]),
    );
    h.send(
        B,
        src,
        &words(&["CLUSTER", "SETSLOT", &s, "MIGRATING", &dst_id]),
    );
    // Before any key moved: the source serves what it has, ASKs for what it lacks.
    h.send(B, src, &words(&["GET", "{m}a"]));
    h.send(B, src, &words(&["GET", "{m}new"]));
    h.send(B, src, &words(&["SET", "{m}new", "x"]));
    h.send(B, dst, &words(&["GET", "{m}a"]));
    h.send(B, dst, &words(&["ASKING"]));
    h.send(B, dst, &words(&["GET", "{m}a"]));
    // Key by key, and with KEYS.
    h.send(
        B,
        src,
        &words(&["MIGRATE", &host, &port, "{m}a", "0", "5000"]),
    );
    h.send(
        B,
        src,
        &words(&["MIGRATE", &host, &port, "", "0", "5000", "KEYS", "{m}b"]),
    );
    h.send(
        B,
        src,
        &words(&["MIGRATE", &host, &port, "{m}nosuch", "0", "5000"]),
    );
    // Split keys: TRYAGAIN on both sides; ASK for a moved key; ASKING then serves.
    h.send(B, src, &words(&["MGET", "{m}a", "{m}c"]));
    h.send(B, src, &words(&["GET", "{m}a"]));
    h.send(B, src, &words(&["GET", "{m}c"]));
    h.send(B, dst, &words(&["ASKING"]));
    h.send(B, dst, &words(&["MGET", "{m}a", "{m}b"]));
    h.send(B, dst, &words(&["ASKING"]));
    h.send(B, dst, &words(&["MGET", "{m}a", "{m}c"]));
    h.send(B, dst, &words(&["MGET", "{m}a", "{m}b"]));
    // Transactions across it: keys the source still has run; a queued ASK aborts EXEC; ASKING
    // before MULTI, or queued inside it, lets the target serve.
    for (node, line) in [
        (src, "MULTI"),
        (src, "GET {m}c"),
        (src, "SET {m}c 4"),
        (src, "EXEC"),
        (src, "MULTI"),
        (src, "GET {m}a"),
        (src, "EXEC"),
        (dst, "ASKING"),
        (dst, "MULTI"),
        (dst, "GET {m}a"),
        (dst, "EXEC"),
        (dst, "MULTI"),
        (dst, "ASKING"),
        (dst, "GET {m}b"),
        (dst, "EXEC"),
    ] {
        h.send(B, node, &words(&line.split(' ').collect::<Vec<_>>()));
    }
    // Random commands of the enabled data families on the slot's keys, to either side.
    let data: Vec<Family> = families
        .iter()
        .copied()
        .filter(|f| {
            matches!(
                f,
                Family::Strings
                    | Family::StringsMore
                    | Family::Keyspace
                    | Family::Hashes
                    | Family::Lists
                    | Family::Sets
                    | Family::Zsets
            )
        })
        .collect();
    let keys = KeyPool::only(slot_keys());
    for _ in 0..if data.is_empty() { 0 } else { 30 } {
        let family = *rng.pick(&data);
        let mine: Vec<MakeFn> = gens
            .iter()
            .filter(|(f, _)| *f == family)
            .map(|(_, g)| *g)
            .collect();
        let make = *rng.pick(&mine);
        let mut ctx = Ctx { rng, keys: &keys };
        let mut cmd = make(&mut ctx);
        generate::mutate(&mut cmd, &mut ctx);
        let node = if rng.chance(0.5) { src } else { dst };
        if node == dst && rng.chance(0.6) {
            h.send(B, dst, &words(&["ASKING"]));
        }
        h.send(B, node, &cmd.args);
    }
    finish(h, slot, src, dst, &dst_id);
    h.send(B, src, &words(&["GET", "{m}a"]));
    h.send(B, dst, &words(&["GET", "{m}a"]));

    // And back, so the cluster ends as it started (once every node has heard the first move's
    // epoch: see `wait_epochs`).
    h.wait_epochs();
    h.send(
        B,
        src,
        &words(&["CLUSTER", "SETSLOT", &s, "IMPORTING", &dst_id]),
    );
    h.send(
        B,
        dst,
        &words(&["CLUSTER", "SETSLOT", &s, "MIGRATING", &src_id]),
    );
    h.send(B, dst, &words(&["GET", "{m}nosuch"]));
    finish(h, slot, dst, src, &src_id);
    h.wait_layout();
    for m in h.masters() {
        h.send(Bucket::Harness, m, &words(&["FLUSHALL"]));
    }
}
