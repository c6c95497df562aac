//! The seeded generator: a random number source, the key pool (keys over a few slots, on and off
//! each node: tags, binary keys, an empty key, two untagged keys that share a slot), edge-case
//! arguments, and the generators of every family (`basic`, `types`, `more`, `control`), each a
//! function that makes one command.
//!
//! A family is on when `SLOTSCOPE_DIFF_FAMILIES` names it (`all`, or a comma-separated list),
//! or, without that variable, when it is in [`DEFAULT_FAMILIES`]: all of them.

pub mod basic;
pub mod control;
pub mod more;
pub mod types;

/// A family of commands, as the totals are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// GET SET (no expiry) GETSET INCR/DECR(BY) APPEND STRLEN MGET MSET MSETNX.
    Strings,
    /// The rest of the string commands: SETNX GETRANGE SETRANGE INCRBYFLOAT GETDEL LCS GETEX.
    StringsMore,
    /// DEL UNLINK EXISTS TOUCH TYPE RENAME RENAMENX DBSIZE TTL (keys never have a TTL here).
    Keyspace,
    /// COPY OBJECT SCAN KEYS RANDOMKEY DUMP PERSIST PTTL EXPIRETIME.
    KeyspaceMore,
    /// Everything with a time to live (needs the engine's clock).
    Expiry,
    /// Hashes.
    Hashes,
    /// Lists (blocking pops with a short timeout).
    Lists,
    /// Sets.
    Sets,
    /// Sorted sets.
    Zsets,
    /// SETBIT GETBIT BITCOUNT BITPOS BITOP BITFIELD.
    Bitmaps,
    /// PFADD PFCOUNT PFMERGE.
    HyperLogLog,
    /// Geo.
    Geo,
    /// Streams without consumer groups.
    Streams,
    /// SORT and SORT_RO.
    Sort,
    /// MULTI EXEC DISCARD.
    Transactions,
    /// WATCH UNWATCH.
    Watch,
    /// PUBLISH SPUBLISH PUBSUB.
    PubSub,
    /// EVAL / EVALSHA of the page's Lua subset.
    Scripting,
    /// Scripts outside the subset, SCRIPT, FUNCTION, FCALL, EVAL_RO.
    ScriptingMore,
    /// PING ECHO DBSIZE FLUSHALL FLUSHDB.
    Server,
    /// TIME LASTSAVE COMMAND CONFIG GET WAIT SELECT SWAPDB AUTH.
    ServerMore,
    /// CLUSTER KEYSLOT COUNTKEYSINSLOT GETKEYSINSLOT MYID SLOTS NODES, and SETSLOT and MIGRATE
    /// as they refuse (no slot moves here: `Migration` does that).
    Cluster,
    /// The other CLUSTER subcommands a client may send (SHARDS INFO LINKS HELP FAILOVER …).
    ClusterMore,
    /// Commands sent to any node: MOVED, READONLY replicas, CROSSSLOT, unknown commands, arity.
    Routing,
    /// A live slot migration driven on both sides: ASK, ASKING, TRYAGAIN, MIGRATE (`migrate.rs`).
    Migration,
}

impl Family {
    /// Every family, in print order.
    pub const ALL: [Family; 25] = [
        Family::Strings,
        Family::StringsMore,
        Family::Keyspace,
        Family::KeyspaceMore,
        Family::Expiry,
        Family::Hashes,
        Family::Lists,
        Family::Sets,
        Family::Zsets,
        Family::Bitmaps,
        Family::HyperLogLog,
        Family::Geo,
        Family::Streams,
        Family::Sort,
        Family::Transactions,
        Family::Watch,
        Family::PubSub,
        Family::Scripting,
        Family::ScriptingMore,
        Family::Server,
        Family::ServerMore,
        Family::Cluster,
        Family::ClusterMore,
        Family::Routing,
        Family::Migration,
    ];

    /// The name `SLOTSCOPE_DIFF_FAMILIES` uses.
    pub fn name(self) -> &'static str {
        match self {
            Family::Strings => "strings",
            Family::StringsMore => "strings-more",
            Family::Keyspace => "keyspace",
            Family::KeyspaceMore => "keyspace-more",
            Family::Expiry => "expiry",
            Family::Hashes => "hashes",
            Family::Lists => "lists",
            Family::Sets => "sets",
            Family::Zsets => "zsets",
            Family::Bitmaps => "bitmaps",
            Family::HyperLogLog => "hyperloglog",
            Family::Geo => "geo",
            Family::Streams => "streams",
            Family::Sort => "sort",
            Family::Transactions => "transactions",
            Family::Watch => "watch",
            Family::PubSub => "pubsub",
            Family::Scripting => "scripting",
            Family::ScriptingMore => "scripting-more",
            Family::Server => "server",
            Family::ServerMore => "server-more",
            Family::Cluster => "cluster",
            Family::ClusterMore => "cluster-more",
            Family::Routing => "routing",
            Family::Migration => "migration",
        }
    }
}

/// The families on without `SLOTSCOPE_DIFF_FAMILIES`: every one (the engine runs them all;
/// the few commands it notes on purpose are listed in `NOTED` in `tests/differential.rs`).
pub const DEFAULT_FAMILIES: &[Family] = &Family::ALL;

/// The families `SLOTSCOPE_DIFF_FAMILIES` names (`all`, or names separated by commas).
pub fn families_from(spec: Option<&str>) -> Result<Vec<Family>, String> {
    let Some(spec) = spec.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(DEFAULT_FAMILIES.to_vec());
    };
    if spec == "all" {
        return Ok(Family::ALL.to_vec());
    }
    let mut out = Vec::new();
    for word in spec.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let family = Family::ALL
            .into_iter()
            .find(|f| f.name() == word)
            .ok_or_else(|| {
                let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown family {word:?}; the families are: all, {}",
                    names.join(", ")
                )
            })?;
        if !out.contains(&family) {
            out.push(family);
        }
    }
    Ok(out)
}

/// Where a command goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Mostly the master that owns this key's slot; sometimes another master or a replica.
    Key(Vec<u8>),
    /// Any node.
    Any,
    /// Any master (never a replica: CLUSTER FAILOVER on a replica would really fail over).
    Master,
}

/// One generated command.
#[derive(Clone, Debug)]
pub struct Cmd {
    /// The arguments, name first.
    pub args: Vec<Vec<u8>>,
    /// Where to send it.
    pub target: Target,
    /// Never mutated (blocking commands keep their short timeout, MULTI stays MULTI).
    pub fixed: bool,
    /// Which client of the node sends it: 0, or 1 (another client, changing watched keys).
    pub client: usize,
}

/// A command named `name` with no arguments yet.
pub fn c(name: &str) -> Cmd {
    Cmd {
        args: vec![name.as_bytes().to_vec()],
        target: Target::Any,
        fixed: false,
        client: 0,
    }
}

impl Cmd {
    /// Appends a key; the first key chooses the target.
    pub fn k(mut self, key: Vec<u8>) -> Cmd {
        if self.target == Target::Any {
            self.target = Target::Key(key.clone());
        }
        self.args.push(key);
        self
    }

    /// Appends keys.
    pub fn ks(mut self, keys: Vec<Vec<u8>>) -> Cmd {
        for k in keys {
            self = self.k(k);
        }
        self
    }

    /// Appends an argument.
    pub fn a(mut self, arg: impl AsRef<[u8]>) -> Cmd {
        self.args.push(arg.as_ref().to_vec());
        self
    }

    /// Marks it never to be mutated.
    pub fn fixed(mut self) -> Cmd {
        self.fixed = true;
        self
    }

    /// Sends it from the node's other client.
    pub fn by_other_client(mut self) -> Cmd {
        self.client = 1;
        self
    }

    /// Sends it to a master only.
    pub fn masters_only(mut self) -> Cmd {
        self.target = Target::Master;
        self
    }
}

/// splitmix64: small, seedable, good enough.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A source started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let i = self.below(items.len());
        &items[i]
    }
}

/// The keys, in groups that share a slot.
pub struct KeyPool {
    groups: Vec<Vec<Vec<u8>>>,
}

impl KeyPool {
    /// The pool: `{a}` keys, `{user:1001}` keys, `k1` and an untagged key in its slot, `foo`,
    /// binary keys tagged `{b}`, the empty key, UTF-8 keys tagged `{z}`, `{}k`, `a{{b}}` and a
    /// 1000-byte key. They spread over all three masters, at most 7 on one.
    pub fn new() -> KeyPool {
        let slot = slotscope::core::key_slot;
        let target = slot(b"k1");
        // An untagged key in k1's slot (found, not hard-coded; key_slot is checked against
        // Redis's CLUSTER KEYSLOT in tests/fixtures.rs).
        let twin = (0u32..)
            .map(|n| format!("c{n}").into_bytes())
            .find(|k| slot(k) == target)
            .unwrap_or_default();
        let b = |s: &[u8]| s.to_vec();
        KeyPool {
            groups: vec![
                vec![b(b"{a}1"), b(b"{a}2"), b(b"{a}3")],
                vec![b(b"{user:1001}:profile"), b(b"{user:1001}:orders")],
                vec![b(b"k1"), twin],
                vec![b(b"foo")],
                vec![b(b"\x00\xff{b}\n"), b(b"{b}x y")],
                vec![b(b"")],
                vec![b("{z}é".as_bytes()), b(b"{z}2")],
                // An empty tag hashes the whole key; `{{b}}` has the tag `{b`; a long key.
                vec![b(b"{}k")],
                vec![b(b"a{{b}}")],
                vec![vec![b'L'; 1000]],
            ],
        }
    }

    /// A pool of one group: keys that share a slot (the migration's).
    pub fn only(keys: Vec<Vec<u8>>) -> KeyPool {
        KeyPool { groups: vec![keys] }
    }
}

/// What a generator draws from.
pub struct Ctx<'a> {
    /// The random source.
    pub rng: &'a mut Rng,
    /// The keys.
    pub keys: &'a KeyPool,
}

const VALUES: &[&[u8]] = &[
    b"v",
    b"",
    b"0",
    b"1",
    b"-1",
    b"10",
    b"42",
    b"-0",
    b"007",
    b"+5",
    b" 3",
    b"3 ",
    b"1.5",
    b"1e3",
    b"abc",
    b"9223372036854775807",
    b"-9223372036854775808",
    b"9223372036854775808",
    b"\x00\xff\r\n",
    b"h\xc3\xa9llo",
    b"3.0",
    b"inf",
    b"-inf",
    b"nan",
];

const INTS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "-1",
    "-3",
    "100",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "abc",
    "",
    "1.5",
    " 1",
    "+2",
    "0x10",
];

impl Ctx<'_> {
    /// Any key.
    pub fn key(&mut self) -> Vec<u8> {
        let g = self.rng.below(self.keys.groups.len());
        let group = &self.keys.groups[g];
        group[self.rng.below(group.len())].clone()
    }

    /// A key in `key`'s slot three times out of four, else any key (then often CROSSSLOT).
    pub fn near(&mut self, key: &[u8]) -> Vec<u8> {
        if self.rng.chance(0.75)
            && let Some(group) = self.keys.groups.iter().find(|g| g.iter().any(|k| k == key))
        {
            return group[self.rng.below(group.len())].clone();
        }
        self.key()
    }

    /// One to `max` keys near the first.
    pub fn keys_near(&mut self, first: &[u8], max: usize) -> Vec<Vec<u8>> {
        let n = 1 + self.rng.below(max);
        let mut out = vec![first.to_vec()];
        while out.len() < n {
            out.push(self.near(first));
        }
        out
    }

    /// A value: edge cases, numbers, binary, now and then 8 KB.
    pub fn val(&mut self) -> Vec<u8> {
        if self.rng.chance(0.03) {
            return vec![b'x'; 8192];
        }
        self.rng.pick(VALUES).to_vec()
    }

    /// An integer-ish argument: small, negative, extreme, overflowing, not a number.
    pub fn int(&mut self) -> String {
        (*self.rng.pick(INTS)).to_owned()
    }

    /// A small integer, mostly valid: -3..=5 and sometimes an edge one.
    pub fn small(&mut self) -> String {
        if self.rng.chance(0.15) {
            self.int()
        } else {
            (self.rng.below(9) as i64 - 3).to_string()
        }
    }

    /// A float-ish argument.
    pub fn float(&mut self) -> String {
        (*self.rng.pick(&[
            "0", "1.5", "-2.25", "10", "1e3", "inf", "-inf", "+inf", "nan", "abc", "", "3.0e-2",
            "0.1", "1e400", "5",
        ]))
        .to_owned()
    }

    /// A member/field name.
    pub fn member(&mut self) -> Vec<u8> {
        self.rng
            .pick(&[&b"a"[..], b"b", b"c", b"", b"1", b"\x00", b"m-long-name"])
            .to_vec()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.chance(p)
    }

    /// One of `items`.
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        self.rng.pick(items).clone()
    }
}

/// A generator of one command.
pub type MakeFn = fn(&mut Ctx) -> Cmd;

/// Every generator, by family.
pub fn generators() -> Vec<(Family, MakeFn)> {
    let mut all = Vec::new();
    all.extend(basic::generators());
    all.extend(types::generators());
    all.extend(more::generators());
    all.extend(control::generators());
    all
}

/// Now and then breaks a command the way a learner would: an argument missing, one too many,
/// or one replaced by an edge case (empty, negative, huge, not a number, binary, 8 KB).
pub fn mutate(cmd: &mut Cmd, ctx: &mut Ctx) {
    if cmd.fixed || !ctx.chance(0.08) {
        return;
    }
    match ctx.rng.below(3) {
        0 if cmd.args.len() > 1 => {
            cmd.args.pop();
        }
        1 => {
            let extra = ctx.val();
            cmd.args.push(extra);
        }
        _ if cmd.args.len() > 1 => {
            let i = 1 + ctx.rng.below(cmd.args.len() - 1);
            let edge = if ctx.chance(0.5) {
                ctx.int().into_bytes()
            } else {
                ctx.val()
            };
            cmd.args[i] = edge;
        }
        _ => {}
    }
}
