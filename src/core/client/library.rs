//! Six cluster client libraries as data: what each does on MOVED, ASK and TRYAGAIN, how many
//! redirections it follows, and what it does with a multi-key command whose keys are in several
//! slots, each read from the library's source at a named release tag (docs/clients.md lists
//! the same citations). The run machine (`run.rs`) follows this table; nothing here is prose.
//!
//! The simulator has no clock and draws no random numbers: where a library picks a node at
//! random ([`RefreshFrom::Random`], ioredis's TRYAGAIN retry), it takes the node the
//! redirection named (or the masters in turn), and a delay is carried as numbers for the page
//! to print, never waited for. A library refreshes its map at most once per command here (each
//! one guards its refresh: ioredis `isRefreshing`, go-redis a 200 ms cool-down, Lettuce a 5 s
//! adaptive-refresh timeout, Jedis `rediscoverLock`).

/// A cluster client library, at the release the table below was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClientLibrary {
    /// ioredis (Node.js), `v5.11.1`.
    Ioredis,
    /// go-redis (Go), `v9.22.0`.
    GoRedis,
    /// Lettuce (Java), `7.7.0.RELEASE`.
    Lettuce,
    /// Jedis (Java), `v7.5.3`.
    Jedis,
    /// redis-py (Python), `v8.1.0`.
    RedisPy,
    /// redis-rs (Rust, the synchronous cluster connection), `redis-1.6.0`.
    RedisRs,
}

/// The command a library sends to learn the whole slot map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefreshCommand {
    /// `CLUSTER SLOTS`.
    ClusterSlots,
    /// `CLUSTER NODES` (Lettuce, which also sends `INFO` to each node; the diagram leaves the
    /// `INFO` out).
    ClusterNodes,
}

impl RefreshCommand {
    /// The command's arguments, as the library sends them.
    pub fn args(self) -> Vec<Vec<u8>> {
        match self {
            RefreshCommand::ClusterSlots => vec![b"CLUSTER".to_vec(), b"SLOTS".to_vec()],
            RefreshCommand::ClusterNodes => vec![b"CLUSTER".to_vec(), b"NODES".to_vec()],
        }
    }
}

/// Which node a library asks for the slot map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefreshFrom {
    /// A node picked at random (the simulator takes the node the MOVED named).
    Random,
    /// The node that answered the MOVED, on the same connection (Jedis).
    Answering,
    /// Its startup nodes first (redis-py; the simulator takes the first master it knows).
    Startup,
    /// Every node it knows (Lettuce's dynamic refresh sources).
    Every,
}

/// How a library refreshes its whole slot map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Refresh {
    /// What it sends.
    pub command: RefreshCommand,
    /// To which node.
    pub from: RefreshFrom,
    /// In the background, while the retry goes out (`true`), or before the retry (`false`).
    pub background: bool,
}

/// What a library does with its slot table on MOVED.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnMoved {
    /// Rewrites the MOVED slot's entry, retries there, and refreshes the whole map (ioredis).
    PatchAndRefresh,
    /// Leaves the table alone, retries at the named node, and refreshes the whole map
    /// (go-redis's lazy reload, Lettuce's adaptive refresh, Jedis, redis-rs).
    Refresh,
    /// Rewrites the slot's entry; every `every`-th MOVED the client has seen refreshes the
    /// whole map instead (redis-py's `reinitialize_steps`).
    PatchOrEveryNthRefresh {
        /// How many MOVED replies per full refresh.
        every: u32,
    },
}

/// Where a library sends a command again after TRYAGAIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RetryAt {
    /// Where its slot table says (go-redis, redis-rs).
    SlotTable,
    /// The node that answered TRYAGAIN, without `ASKING` (redis-py).
    SameNode,
    /// A master picked at random (ioredis; the simulator takes the masters in turn).
    RandomMaster,
}

/// What a library does on TRYAGAIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnTryAgain {
    /// Hands the error to the application (Lettuce, Jedis).
    ReturnError,
    /// Waits and sends again; each retry uses one unit of the redirect budget.
    Retry {
        /// Where.
        at: RetryAt,
        /// How long it waits before each retry.
        delay: Delay,
    },
}

/// How long a library waits before a TRYAGAIN retry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Delay {
    /// Always this many milliseconds (ioredis `retryDelayOnTryAgain`).
    Fixed {
        /// Milliseconds.
        ms: u32,
    },
    /// At random from `min` to `min + (min << retry)`, at most `max` (go-redis
    /// `internal.RetryBackoff` with `MinRetryBackoff` 10 ms, `MaxRetryBackoff` 1 s).
    Exponential {
        /// Milliseconds.
        min: u32,
        /// Milliseconds.
        max: u32,
    },
    /// None for the first `free` sends of a command, then `ms` (redis-py: 50 ms once its TTL
    /// of 16 is below half).
    AfterSends {
        /// Sends without a pause.
        free: u32,
        /// Milliseconds after that.
        ms: u32,
    },
    /// At random from `min` to `10 · 2^retry` (at least `min + 1`, at most `max`) (redis-rs
    /// `RetryParams::wait_time_for_retry`).
    Jittered {
        /// Milliseconds.
        min: u32,
        /// Milliseconds.
        max: u32,
    },
}

impl Delay {
    /// The wait before retry number `retry` (1 for the first) of a command that has been sent
    /// `sends` times, as the smallest and largest number of milliseconds it can be.
    pub fn range_ms(self, retry: u32, sends: u32) -> (u32, u32) {
        match self {
            Delay::Fixed { ms } => (ms, ms),
            Delay::Exponential { min, max } => {
                let span = u64::from(min).checked_shl(retry).unwrap_or(u64::MAX);
                let hi = u64::from(min).saturating_add(span).saturating_sub(1);
                (min, u32::try_from(hi.min(u64::from(max))).unwrap_or(max))
            }
            Delay::AfterSends { free, ms } => {
                if sends <= free {
                    (0, 0)
                } else {
                    (ms, ms)
                }
            }
            Delay::Jittered { min, max } => {
                let base = 10u64.saturating_mul(2u64.checked_pow(retry).unwrap_or(u64::MAX));
                let upper = base.max(u64::from(min) + 1).min(u64::from(max));
                let hi = upper.saturating_sub(1).max(u64::from(min));
                (min, u32::try_from(hi).unwrap_or(max))
            }
        }
    }
}

/// What a library does with a multi-key command whose keys are in several slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CrossSlot {
    /// Commands it splits into one command per slot and whose replies it puts back together.
    pub splits: &'static [&'static str],
    /// Every other multi-key command.
    pub others: CrossSlotOther,
}

/// A multi-key command across slots that a library does not split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrossSlotOther {
    /// Sent to the first key's slot: the node answers CROSSSLOT.
    Sent,
    /// Refused before anything is sent, with the library's own exception text (after the
    /// command's name and ` - ` when `with_command`).
    Refused {
        /// The exception's class.
        exception: &'static str,
        /// Its message.
        message: &'static str,
        /// The message starts with the command's name and ` - ` (redis-py).
        with_command: bool,
    },
}

/// Where a finding comes from: a file and line of the library at its tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The repository (`redis/ioredis`).
    pub repo: &'static str,
    /// The tag.
    pub tag: &'static str,
    /// The file, from the repository's root.
    pub file: &'static str,
    /// The line.
    pub line: u32,
}

/// A library's behaviour, as its source at [`Behaviour::tag`] has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Behaviour {
    /// The library.
    pub library: ClientLibrary,
    /// Its name (`ioredis`), never translated.
    pub name: &'static str,
    /// The release tag read.
    pub tag: &'static str,
    /// The option that sets the redirect limit, and its default as the library counts it.
    pub limit_option: (&'static str, u32),
    /// How many MOVED / ASK redirections (and TRYAGAIN retries, where it retries) one command
    /// follows; the next one is handed to the application.
    pub max_redirects: u32,
    /// On MOVED.
    pub on_moved: OnMoved,
    /// How it refreshes its map.
    pub refresh: Refresh,
    /// Whether an ASK also starts a refresh of the whole map (go-redis, Lettuce).
    pub refresh_on_ask: bool,
    /// On TRYAGAIN.
    pub on_tryagain: OnTryAgain,
    /// Multi-key commands across slots.
    pub cross_slot: CrossSlot,
    /// The text of the error it hands the application when the budget runs out (its own
    /// words, not translated); `None`: the last error, as Redis sent it.
    pub give_up_error: Option<&'static str>,
    /// The source lines each finding follows: limit, MOVED, refresh, ASK, TRYAGAIN, cross-slot.
    pub sources: [Source; 6],
}

const fn src(repo: &'static str, tag: &'static str, file: &'static str, line: u32) -> Source {
    Source {
        repo,
        tag,
        file,
        line,
    }
}

const IOREDIS: &str = "redis/ioredis";
const GO_REDIS: &str = "redis/go-redis";
const LETTUCE: &str = "redis/lettuce";
const JEDIS: &str = "redis/jedis";
const REDIS_PY: &str = "redis/redis-py";
const REDIS_RS: &str = "redis-rs/redis-rs";

/// The six libraries, in the order the page lists them.
pub const LIBRARIES: [ClientLibrary; 6] = [
    ClientLibrary::Ioredis,
    ClientLibrary::GoRedis,
    ClientLibrary::Lettuce,
    ClientLibrary::Jedis,
    ClientLibrary::RedisPy,
    ClientLibrary::RedisRs,
];

impl ClientLibrary {
    /// Its behaviour table.
    pub fn behaviour(self) -> &'static Behaviour {
        match self {
            ClientLibrary::Ioredis => &IOREDIS_B,
            ClientLibrary::GoRedis => &GO_REDIS_B,
            ClientLibrary::Lettuce => &LETTUCE_B,
            ClientLibrary::Jedis => &JEDIS_B,
            ClientLibrary::RedisPy => &REDIS_PY_B,
            ClientLibrary::RedisRs => &REDIS_RS_B,
        }
    }

    /// A stable id for the page's select and links (`ioredis`, `go-redis`, …).
    pub fn id(self) -> &'static str {
        match self {
            ClientLibrary::Ioredis => "ioredis",
            ClientLibrary::GoRedis => "go-redis",
            ClientLibrary::Lettuce => "lettuce",
            ClientLibrary::Jedis => "jedis",
            ClientLibrary::RedisPy => "redis-py",
            ClientLibrary::RedisRs => "redis-rs",
        }
    }

    /// The library whose [`ClientLibrary::id`] is `id`.
    pub fn by_id(id: &str) -> Option<ClientLibrary> {
        LIBRARIES.into_iter().find(|l| l.id() == id)
    }
}

/// ioredis v5.11.1. `handleError` (lib/cluster/index.ts:733) sets a TTL of `maxRedirections`
/// (16, ClusterOptions.ts:243) at the first error and takes one off at each later one; at 0 it
/// rejects with "Too many Cluster redirections. Last error: …" (index.ts:739-741): 16 errors
/// are followed, the 17th is returned. MOVED, ASK, TRYAGAIN and CLUSTERDOWN all count. On
/// MOVED it sets `slots[slot][0]` to the named node (index.ts:543), retries, and calls
/// `refreshSlotsCache()` (index.ts:551), which sends `CLUSTER SLOTS` (index.ts:931) to the
/// nodes in shuffled order (index.ts:471) and replaces every slot's entry. On ASK it sends
/// `ASKING` then the command to the named node (index.ts:659). On TRYAGAIN it waits
/// `retryDelayOnTryAgain` (100 ms, ClusterOptions.ts:247) and retries on a random master
/// (`partialTry = tryConnection.bind(null, true)`, index.ts:537, 560). A command is routed by
/// its first key (lib/Command.ts:277), so keys across slots get CROSSSLOT from the node.
const IOREDIS_B: Behaviour = Behaviour {
    library: ClientLibrary::Ioredis,
    name: "ioredis",
    tag: "v5.11.1",
    limit_option: ("maxRedirections", 16),
    max_redirects: 16,
    on_moved: OnMoved::PatchAndRefresh,
    refresh: Refresh {
        command: RefreshCommand::ClusterSlots,
        from: RefreshFrom::Random,
        background: true,
    },
    refresh_on_ask: false,
    on_tryagain: OnTryAgain::Retry {
        at: RetryAt::RandomMaster,
        delay: Delay::Fixed { ms: 100 },
    },
    cross_slot: CrossSlot {
        splits: &[],
        others: CrossSlotOther::Sent,
    },
    give_up_error: Some("Too many Cluster redirections. Last error: "),
    sources: [
        src(IOREDIS, "v5.11.1", "lib/cluster/ClusterOptions.ts", 243),
        src(IOREDIS, "v5.11.1", "lib/cluster/index.ts", 543),
        src(IOREDIS, "v5.11.1", "lib/cluster/index.ts", 551),
        src(IOREDIS, "v5.11.1", "lib/cluster/index.ts", 659),
        src(IOREDIS, "v5.11.1", "lib/cluster/index.ts", 560),
        src(IOREDIS, "v5.11.1", "lib/Command.ts", 277),
    ],
};

/// go-redis v9.22.0. `process` (osscluster.go:1299) makes attempts 0..=`MaxRedirects` (3 by
/// default, osscluster.go:217): four sends, three redirections or retries, then the last
/// error. On MOVED or ASK it calls `c.state.LazyReload()` (osscluster.go:1356), a goroutine
/// that loads `CLUSTER SLOTS` from the nodes in `rand.Perm` order (osscluster.go:1573, 1584),
/// and sends again to the named node without touching the current state; on ASK with
/// `ASKING` first, in one pipeline (osscluster.go:1323). TRYAGAIN is retryable
/// (error.go:161): the first retry goes to the same node, later ones where the state says
/// (osscluster.go:1379-1387), each after `RetryBackoff` (internal/internal.go:16-21: 10 ms plus
/// up to 10 ms · 2^attempt, at most 1 s). MGET and the like go to the first key's slot
/// (osscluster.go:2873): CROSSSLOT from the node.
const GO_REDIS_B: Behaviour = Behaviour {
    library: ClientLibrary::GoRedis,
    name: "go-redis",
    tag: "v9.22.0",
    limit_option: ("MaxRedirects", 3),
    max_redirects: 3,
    on_moved: OnMoved::Refresh,
    refresh: Refresh {
        command: RefreshCommand::ClusterSlots,
        from: RefreshFrom::Random,
        background: true,
    },
    refresh_on_ask: true,
    on_tryagain: OnTryAgain::Retry {
        at: RetryAt::SlotTable,
        delay: Delay::Exponential { min: 10, max: 1000 },
    },
    cross_slot: CrossSlot {
        splits: &[],
        others: CrossSlotOther::Sent,
    },
    give_up_error: None,
    sources: [
        src(GO_REDIS, "v9.22.0", "osscluster.go", 217),
        src(GO_REDIS, "v9.22.0", "osscluster.go", 1356),
        src(GO_REDIS, "v9.22.0", "osscluster.go", 1573),
        src(GO_REDIS, "v9.22.0", "osscluster.go", 1323),
        src(GO_REDIS, "v9.22.0", "osscluster.go", 1379),
        src(GO_REDIS, "v9.22.0", "osscluster.go", 2873),
    ],
};

/// Lettuce 7.7.0.RELEASE. A `ClusterCommand` retries while `maxRedirections > redirections`
/// (ClusterCommand.java:38), `maxRedirects` 5 by default (ClusterClientOptions.java:48): five
/// MOVED/ASK followed, the sixth returned. On MOVED or ASK the channel writer sends the
/// command to the named node (with `ASKING` first after ASK, ClusterDistributionChannelWriter
/// .java:149) and tells the refresh scheduler (lines 142, 150); since 7.0 every adaptive
/// trigger is on by default (ClusterTopologyRefreshOptions.java:42), at most one refresh per
/// 5 s (line 45), asking every known node (`dynamicRefreshSources`, line 55) for `CLUSTER
/// NODES` and `INFO` (topology/Connections.java:93, 108). TRYAGAIN is not a redirection: it
/// completes the command with the error. MGET, MSET, MSETNX, DEL, EXISTS, UNLINK and TOUCH are
/// split by slot and put back together (RedisAdvancedClusterAsyncCommandsImpl.java:232, 255,
/// 414, 494, 517, 618, 641); other commands go to the first key's slot.
const LETTUCE_B: Behaviour = Behaviour {
    library: ClientLibrary::Lettuce,
    name: "Lettuce",
    tag: "7.7.0.RELEASE",
    limit_option: ("maxRedirects", 5),
    max_redirects: 5,
    on_moved: OnMoved::Refresh,
    refresh: Refresh {
        command: RefreshCommand::ClusterNodes,
        from: RefreshFrom::Every,
        background: true,
    },
    refresh_on_ask: true,
    on_tryagain: OnTryAgain::ReturnError,
    cross_slot: CrossSlot {
        splits: &["MGET", "MSET", "MSETNX", "DEL", "EXISTS", "UNLINK", "TOUCH"],
        others: CrossSlotOther::Sent,
    },
    give_up_error: None,
    sources: [
        src(
            LETTUCE,
            "7.7.0.RELEASE",
            "src/main/java/io/lettuce/core/cluster/ClusterClientOptions.java",
            48,
        ),
        src(
            LETTUCE,
            "7.7.0.RELEASE",
            "src/main/java/io/lettuce/core/cluster/ClusterDistributionChannelWriter.java",
            142,
        ),
        src(
            LETTUCE,
            "7.7.0.RELEASE",
            "src/main/java/io/lettuce/core/cluster/ClusterTopologyRefreshOptions.java",
            42,
        ),
        src(
            LETTUCE,
            "7.7.0.RELEASE",
            "src/main/java/io/lettuce/core/cluster/ClusterDistributionChannelWriter.java",
            149,
        ),
        src(
            LETTUCE,
            "7.7.0.RELEASE",
            "src/main/java/io/lettuce/core/cluster/ClusterCommand.java",
            36,
        ),
        src(
            LETTUCE,
            "7.7.0.RELEASE",
            "src/main/java/io/lettuce/core/cluster/RedisAdvancedClusterAsyncCommandsImpl.java",
            414,
        ),
    ],
};

/// Jedis v7.5.3. `doExecuteCommand` makes `maxAttempts` sends (5 by default,
/// JedisCluster.java:42; ClusterCommandExecutor.java:103): four redirections followed, then
/// "No more cluster attempts left." (line 153). On MOVED it calls
/// `provider.renewSlotCache(connection)` (line 142) before the next attempt: `CLUSTER SLOTS` on
/// the connection that answered (JedisClusterInfoCache.java:199, 517), every slot reset and
/// refilled (line 251); then it sends to the node the MOVED named. On ASK it sends `ASKING`
/// there first (ClusterCommandExecutor.java:110) and leaves the cache alone. TRYAGAIN is a
/// plain `JedisDataException`: not retried. Keys in different slots are refused while the
/// command is built: "Keys must belong to same hashslot." (ClusterCommandArguments.java:25).
const JEDIS_B: Behaviour = Behaviour {
    library: ClientLibrary::Jedis,
    name: "Jedis",
    tag: "v7.5.3",
    limit_option: ("maxAttempts", 5),
    max_redirects: 4,
    on_moved: OnMoved::Refresh,
    refresh: Refresh {
        command: RefreshCommand::ClusterSlots,
        from: RefreshFrom::Answering,
        background: false,
    },
    refresh_on_ask: false,
    on_tryagain: OnTryAgain::ReturnError,
    cross_slot: CrossSlot {
        splits: &[],
        others: CrossSlotOther::Refused {
            exception: "JedisClusterOperationException",
            message: "Keys must belong to same hashslot.",
            with_command: false,
        },
    },
    give_up_error: Some("No more cluster attempts left."),
    sources: [
        src(
            JEDIS,
            "v7.5.3",
            "src/main/java/redis/clients/jedis/JedisCluster.java",
            42,
        ),
        src(
            JEDIS,
            "v7.5.3",
            "src/main/java/redis/clients/jedis/executors/ClusterCommandExecutor.java",
            142,
        ),
        src(
            JEDIS,
            "v7.5.3",
            "src/main/java/redis/clients/jedis/JedisClusterInfoCache.java",
            199,
        ),
        src(
            JEDIS,
            "v7.5.3",
            "src/main/java/redis/clients/jedis/executors/ClusterCommandExecutor.java",
            110,
        ),
        src(
            JEDIS,
            "v7.5.3",
            "src/main/java/redis/clients/jedis/executors/ClusterCommandExecutor.java",
            103,
        ),
        src(
            JEDIS,
            "v7.5.3",
            "src/main/java/redis/clients/jedis/ClusterCommandArguments.java",
            25,
        ),
    ],
};

/// redis-py v8.1.0. `_execute_command` loops `while ttl > 0` with `RedisClusterRequestTTL`
/// 16 (redis/cluster.py:396, 1732): 16 sends, 15 redirections or retries, then
/// `ClusterError("TTL exhausted.")` (line 2011). On MOVED it counts
/// (`reinitialize_counter`, line 1892): every `reinitialize_steps`-th (5, line 713) calls
/// `nodes_manager.initialize()` (line 1896), which sends `CLUSTER SLOTS` to its startup nodes
/// (line 2689); the others only `move_slot` (line 1902), rewriting the one slot. On ASK it
/// sends `ASKING` then the command to the named node (line 1754). On TRYAGAIN it sends again
/// to the same node, sleeping 50 ms once the TTL is below 8 (lines 1922-1923). A multi-key
/// command across slots raises `RedisClusterException("MGET - all keys must map to the same
/// key slot")` before sending (line 1494), but DEL, EXISTS, TOUCH and UNLINK are split by slot
/// and their counts summed (redis/commands/cluster.py:302, 321, 342, 362).
const REDIS_PY_B: Behaviour = Behaviour {
    library: ClientLibrary::RedisPy,
    name: "redis-py",
    tag: "v8.1.0",
    limit_option: ("RedisClusterRequestTTL", 16),
    max_redirects: 15,
    on_moved: OnMoved::PatchOrEveryNthRefresh { every: 5 },
    refresh: Refresh {
        command: RefreshCommand::ClusterSlots,
        from: RefreshFrom::Startup,
        background: false,
    },
    refresh_on_ask: false,
    on_tryagain: OnTryAgain::Retry {
        at: RetryAt::SameNode,
        delay: Delay::AfterSends { free: 8, ms: 50 },
    },
    cross_slot: CrossSlot {
        splits: &["DEL", "EXISTS", "TOUCH", "UNLINK"],
        others: CrossSlotOther::Refused {
            exception: "RedisClusterException",
            message: "all keys must map to the same key slot",
            with_command: true,
        },
    },
    give_up_error: Some("TTL exhausted."),
    sources: [
        src(REDIS_PY, "v8.1.0", "redis/cluster.py", 396),
        src(REDIS_PY, "v8.1.0", "redis/cluster.py", 1892),
        src(REDIS_PY, "v8.1.0", "redis/cluster.py", 2689),
        src(REDIS_PY, "v8.1.0", "redis/cluster.py", 1754),
        src(REDIS_PY, "v8.1.0", "redis/cluster.py", 1922),
        src(REDIS_PY, "v8.1.0", "redis/cluster.py", 1494),
    ],
};

/// redis-rs redis-1.6.0, the synchronous cluster connection. It retries until `retries` equals
/// `number_of_retries` (16, redis/src/cluster_handling/client.rs:94;
/// sync_connection/mod.rs:877): 17 sends, 16 redirections or retries. On MOVED it calls
/// `refresh_slots()` (mod.rs:888), which asks the first connection that answers for
/// `CLUSTER SLOTS` (mod.rs:510; cluster_handling/mod.rs:119) and replaces the whole map, then
/// sends to the named node. On ASK it sends `ASKING` and the command to the named node
/// (mod.rs:883). TRYAGAIN means `WaitAndRetry` (errors/server_error.rs:65): a wait drawn from
/// 1280 ms up to 10 · 2^retry ms (client.rs:96, 127), then a send by slot. MGET, DEL, EXISTS,
/// UNLINK, TOUCH, WATCH and MSET are split by slot (routing.rs:666, 670).
const REDIS_RS_B: Behaviour = Behaviour {
    library: ClientLibrary::RedisRs,
    name: "redis-rs",
    tag: "redis-1.6.0",
    limit_option: ("retries", 16),
    max_redirects: 16,
    on_moved: OnMoved::Refresh,
    refresh: Refresh {
        command: RefreshCommand::ClusterSlots,
        from: RefreshFrom::Random,
        background: false,
    },
    refresh_on_ask: false,
    on_tryagain: OnTryAgain::Retry {
        at: RetryAt::SlotTable,
        delay: Delay::Jittered {
            min: 1280,
            max: 655_360,
        },
    },
    cross_slot: CrossSlot {
        splits: &["MGET", "DEL", "EXISTS", "UNLINK", "TOUCH", "WATCH", "MSET"],
        others: CrossSlotOther::Sent,
    },
    give_up_error: None,
    sources: [
        src(
            REDIS_RS,
            "redis-1.6.0",
            "redis/src/cluster_handling/client.rs",
            94,
        ),
        src(
            REDIS_RS,
            "redis-1.6.0",
            "redis/src/cluster_handling/sync_connection/mod.rs",
            888,
        ),
        src(
            REDIS_RS,
            "redis-1.6.0",
            "redis/src/cluster_handling/sync_connection/mod.rs",
            510,
        ),
        src(
            REDIS_RS,
            "redis-1.6.0",
            "redis/src/cluster_handling/sync_connection/mod.rs",
            883,
        ),
        src(
            REDIS_RS,
            "redis-1.6.0",
            "redis/src/errors/server_error.rs",
            65,
        ),
        src(
            REDIS_RS,
            "redis-1.6.0",
            "redis/src/cluster_handling/routing.rs",
            666,
        ),
    ],
};
