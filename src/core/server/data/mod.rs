//! One node's key space with Redis 7.0's data types and expiry: [`Db`] holds [`Entry`]s (a
//! [`Value`], an optional expiry in unix milliseconds on the simulated clock, a creation number),
//! and [`Db::exec`] runs a data command by its Redis name (`"hset"`, `"object|encoding"`),
//! asking each type's module in turn.
//!
//! Each module owns its type and its commands: `strings`, `keyspace` (TYPE, OBJECT, RENAME,
//! COPY, SCAN, KEYS, …), `expire`, `hash`, `list`, `bitmap`, `set`, `zset`, `geo`, `sort`,
//! `hll`, `stream`. A module's `run` answers `None` for a name it does not own. Reads never see
//! an expired key; every write records its key ([`Db::touch`]) so the cluster can copy it to the
//! master's replicas and WATCH can tell that it changed.

mod bitmap;
mod errors;
mod expire;
mod geo;
mod hash;
mod hll;
mod keyspace;
mod ld;
mod list;
mod set;
mod sort;
mod stream;
mod strings;
pub(super) mod util;
mod zset;

pub use errors::DataError;
pub use hash::Hash;
pub use hll::HllError;
pub use list::List;
pub use set::Set;
pub use stream::{Stream, StreamError};
pub use zset::ZSet;

use super::reply::Reply;
use std::collections::BTreeMap;

/// A value of one of Redis's data types.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A string (also bitmaps and HyperLogLogs, which Redis stores as strings).
    Str(Vec<u8>),
    /// A list.
    List(List),
    /// A hash.
    Hash(Hash),
    /// A set.
    Set(Set),
    /// A sorted set (also geo sets).
    ZSet(ZSet),
    /// A stream.
    Stream(Stream),
}

impl Value {
    /// The name `TYPE` answers.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Hash(_) => "hash",
            Value::Set(_) => "set",
            Value::ZSet(_) => "zset",
            Value::Stream(_) => "stream",
        }
    }
}

/// A key's value, its expiry and when it was created.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The value.
    pub value: Value,
    /// When the key expires, in unix milliseconds on the simulated clock (`None`: never).
    pub expire_at: Option<i64>,
    /// Creation order: Redis lists a slot's keys newest first.
    pub seq: u64,
}

impl Entry {
    /// Whether the key has expired at `now` (Redis: `now > when` keeps it at `when` itself).
    pub fn is_expired(&self, now: i64) -> bool {
        self.expire_at.is_some_and(|at| at <= now)
    }
}

/// One node's key space.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Db {
    keys: BTreeMap<Vec<u8>, Entry>,
    next_seq: u64,
    /// Keys written since the last [`Db::take_touched`], in order, possibly repeated.
    touched: Vec<Vec<u8>>,
    /// How many times each key was written (WATCH compares them).
    versions: BTreeMap<Vec<u8>, u64>,
    /// Strings whose encoding is not the one their bytes suggest (`raw` after APPEND or
    /// SETRANGE, `embstr` after INCRBYFLOAT); cleared whenever the key is set anew.
    str_enc: BTreeMap<Vec<u8>, &'static str>,
    /// When each key was last read or written (OBJECT IDLETIME), on the simulated clock.
    access: Access,
    /// Set by the cluster while EXEC or a script runs commands: a blocking command with
    /// nothing to pop answers at once, as Redis's CLIENT_DENY_BLOCKING makes it.
    pub deny_blocking: bool,
}

/// Last-access times, updated by reads too (hence the cell). Two key spaces with the same
/// keys compare equal whatever their access times.
#[derive(Clone, Debug, Default)]
struct Access(std::cell::RefCell<BTreeMap<Vec<u8>, i64>>);

impl PartialEq for Access {
    fn eq(&self, _: &Access) -> bool {
        true
    }
}

impl Access {
    fn record(&self, key: &[u8], now: i64) {
        if let Ok(mut map) = self.0.try_borrow_mut() {
            match map.get_mut(key) {
                Some(t) => *t = now,
                None => {
                    map.insert(key.to_vec(), now);
                }
            }
        }
    }
    fn forget(&self, key: &[u8]) {
        if let Ok(mut map) = self.0.try_borrow_mut() {
            map.remove(key);
        }
    }
    fn get(&self, key: &[u8]) -> Option<i64> {
        self.0.try_borrow().ok().and_then(|m| m.get(key).copied())
    }
}

impl Db {
    /// Runs the data command `name` (Redis's lowercase name) with its whole argument list
    /// (`args[0]` is the command name) at simulated time `now`; `None` if no module owns it.
    pub fn exec(&mut self, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
        strings::run(self, now, name, args)
            .or_else(|| keyspace::run(self, now, name, args))
            .or_else(|| expire::run(self, now, name, args))
            .or_else(|| hash::run(self, now, name, args))
            .or_else(|| list::run(self, now, name, args))
            .or_else(|| bitmap::run(self, now, name, args))
            .or_else(|| set::run(self, now, name, args))
            .or_else(|| zset::run(self, now, name, args))
            .or_else(|| geo::run(self, now, name, args))
            .or_else(|| sort::run(self, now, name, args))
            .or_else(|| hll::run(self, now, name, args))
            .or_else(|| stream::run(self, now, name, args))
    }

    /// The live entry at `key` (an expired one is absent); counts as an access of the key.
    pub fn entry(&self, key: &[u8], now: i64) -> Option<&Entry> {
        let e = self.peek_entry(key, now);
        if e.is_some() {
            self.access.record(key, now);
        }
        e
    }

    /// The live entry at `key` without counting an access (Redis's `LOOKUP_NOTOUCH`: TYPE,
    /// EXISTS, TTL, OBJECT).
    pub fn peek_entry(&self, key: &[u8], now: i64) -> Option<&Entry> {
        self.keys.get(key).filter(|e| !e.is_expired(now))
    }

    /// Sets when `key` was last read or written.
    pub(super) fn set_access_time(&self, key: &[u8], at: i64) {
        self.access.record(key, at);
    }

    /// Whole seconds since `key` was last read or written, as `OBJECT IDLETIME` counts them
    /// (Redis's LRU clock ticks once a second).
    pub fn idle_seconds(&self, key: &[u8], now: i64) -> i64 {
        let last = self
            .access
            .get(key)
            .or_else(|| self.keys.get(key).map(|_| now))
            .unwrap_or(now);
        (now.div_euclid(1000) - last.div_euclid(1000)).max(0)
    }

    /// The live value at `key`.
    pub fn value(&self, key: &[u8], now: i64) -> Option<&Value> {
        self.entry(key, now).map(|e| &e.value)
    }

    /// The live value at `key`, to change in place. Call [`Db::touch`] if it changed; an
    /// expired key is removed first (Redis's lazy expiry).
    pub fn value_mut(&mut self, key: &[u8], now: i64) -> Option<&mut Value> {
        self.expire_if_needed(key, now);
        if self.keys.contains_key(key) {
            self.access.record(key, now);
        }
        self.keys.get_mut(key).map(|e| &mut e.value)
    }

    /// The live entry at `key`, to change in place (value and expiry). Call [`Db::touch`].
    pub fn entry_mut(&mut self, key: &[u8], now: i64) -> Option<&mut Entry> {
        self.expire_if_needed(key, now);
        if self.keys.contains_key(key) {
            self.access.record(key, now);
        }
        self.keys.get_mut(key)
    }

    /// Removes `key` if it has expired at `now`; whether it did.
    pub fn expire_if_needed(&mut self, key: &[u8], now: i64) -> bool {
        if self.keys.get(key).is_some_and(|e| e.is_expired(now)) {
            self.keys.remove(key);
            self.str_enc.remove(key);
            self.touch(key);
            true
        } else {
            false
        }
    }

    /// Sets `key` to `value`, keeping its creation number if it exists; the expiry is cleared
    /// (as Redis's `setKey` does) unless `keep_ttl`.
    pub fn insert(&mut self, key: &[u8], value: Value, now: i64, keep_ttl: bool) {
        self.expire_if_needed(key, now);
        self.str_enc.remove(key);
        self.access.record(key, now);
        if let Some(entry) = self.keys.get_mut(key) {
            entry.value = value;
            if !keep_ttl {
                entry.expire_at = None;
            }
        } else {
            let seq = self.next_seq;
            self.next_seq += 1;
            self.keys.insert(
                key.to_vec(),
                Entry {
                    value,
                    expire_at: None,
                    seq,
                },
            );
        }
        self.touch(key);
    }

    /// Puts a whole entry at `key` (RESTORE-like: MIGRATE, COPY, replication), as a new key.
    pub fn put_entry(&mut self, key: &[u8], mut entry: Entry) {
        self.str_enc.remove(key);
        entry.seq = self.next_seq;
        self.next_seq += 1;
        self.keys.insert(key.to_vec(), entry);
        self.touch(key);
    }

    /// Removes `key`; whether a live key was there.
    pub fn remove(&mut self, key: &[u8], now: i64) -> Option<Entry> {
        self.expire_if_needed(key, now);
        let removed = self.keys.remove(key);
        self.str_enc.remove(key);
        self.access.forget(key);
        if removed.is_some() {
            self.touch(key);
        }
        removed
    }

    /// Records that `key` was written (for replication and WATCH).
    pub fn touch(&mut self, key: &[u8]) {
        self.touched.push(key.to_vec());
        *self.versions.entry(key.to_vec()).or_insert(0) += 1;
    }

    /// How many times `key` was written (WATCH remembers it and EXEC compares).
    pub fn version(&self, key: &[u8]) -> u64 {
        self.versions.get(key).copied().unwrap_or(0)
    }

    /// Whether `key` holds an entry that has expired at `now` and was not yet removed.
    pub fn is_expired_here(&self, key: &[u8], now: i64) -> bool {
        self.keys.get(key).is_some_and(|e| e.is_expired(now))
    }

    /// Fixes the `OBJECT ENCODING` of the string at `key` (`raw`, `embstr`) until it is set anew.
    pub fn set_str_encoding(&mut self, key: &[u8], encoding: &'static str) {
        self.str_enc.insert(key.to_vec(), encoding);
    }

    /// The `OBJECT ENCODING` of the string at `key` as Redis 7.0 keeps it: `int` for a
    /// canonical 64-bit integer of up to 20 bytes, `embstr` up to 44 bytes, `raw` above, unless
    /// the command that wrote it left another one (APPEND and SETRANGE make `raw`).
    pub fn str_encoding(&self, key: &[u8], value: &[u8]) -> &'static str {
        if let Some(e) = self.str_enc.get(key) {
            return if *e == "embstr" && value.len() > 44 {
                "raw"
            } else {
                e
            };
        }
        if value.len() <= 20 && crate::core::server::command::parse_i64(value).is_some() {
            "int"
        } else if value.len() <= 44 {
            "embstr"
        } else {
            "raw"
        }
    }

    /// The keys written since the last call.
    pub fn take_touched(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.touched)
    }

    /// Every key, live or expired, with its entry, in key order (callers filter by `now`).
    pub fn iter(&self) -> impl Iterator<Item = (&Vec<u8>, &Entry)> {
        self.keys.iter()
    }

    /// The entry at `key` whatever its expiry (replication copies it as it is).
    pub fn raw_entry(&self, key: &[u8]) -> Option<&Entry> {
        self.keys.get(key)
    }

    /// Sets or removes the entry at `key` exactly as given (a replica copying its master),
    /// keeping the creation number the master gave it.
    pub fn mirror(&mut self, key: &[u8], entry: Option<Entry>) {
        match entry {
            Some(e) => {
                self.next_seq = self.next_seq.max(e.seq + 1);
                self.keys.insert(key.to_vec(), e);
            }
            None => {
                self.keys.remove(key);
                self.str_enc.remove(key);
            }
        }
        *self.versions.entry(key.to_vec()).or_insert(0) += 1;
    }

    /// The string encoding the command that wrote `key` left, if not the one its bytes
    /// suggest (a replica copies it with the value, as running the same command would).
    pub fn str_encoding_override(&self, key: &[u8]) -> Option<&'static str> {
        self.str_enc.get(key).copied()
    }

    /// Sets or clears the string encoding override of `key` (a replica copying its master).
    pub fn mirror_str_encoding(&mut self, key: &[u8], encoding: Option<&'static str>) {
        match encoding {
            Some(e) => {
                self.str_enc.insert(key.to_vec(), e);
            }
            None => {
                self.str_enc.remove(key);
            }
        }
    }

    /// How many live keys there are at `now`.
    pub fn len(&self, now: i64) -> usize {
        self.keys.values().filter(|e| !e.is_expired(now)).count()
    }

    /// Whether there is no live key at `now`.
    pub fn is_empty(&self, now: i64) -> bool {
        self.len(now) == 0
    }

    /// Removes every key.
    pub fn clear(&mut self) {
        let keys: Vec<Vec<u8>> = self.keys.keys().cloned().collect();
        self.keys.clear();
        self.str_enc.clear();
        if let Ok(mut map) = self.access.0.try_borrow_mut() {
            map.clear();
        }
        for k in keys {
            self.touch(&k);
        }
    }
}
