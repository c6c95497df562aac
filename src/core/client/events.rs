//! What a scenario shows: the ends of each arrow, what kind of event it is, why a client sent a command or gave up, and the narration of each as data.

use super::*;

/// One end of an arrow in the sequence diagram.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Endpoint {
    /// The application's cluster client (its lifeline carries the slot table).
    Client,
    /// The operator's plain `redis-cli -p PORT` (no `-c`): admin commands such as
    /// `CLUSTER SETSLOT` and `MIGRATE`, and direct commands to one node.
    Operator,
    /// A cluster node, by address (`127.0.0.1:7001`).
    Node(String),
}

/// What an arrow carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A command sent to a node (`from` the client or the operator, `to` the node).
    Request {
        /// The command's arguments, name first.
        args: Vec<Vec<u8>>,
    },
    /// A node's answer (`from` the node, `to` whoever asked).
    Reply {
        /// The reply.
        reply: Reply,
    },
    /// The `ASKING` request a client sends before retrying a command at an ASK target. Its
    /// reply (`+OK`) follows as a [`EventKind::Reply`].
    Asking,
    /// The client changed one entry of its slot table (`from` and `to` are both the client).
    TableUpdate {
        /// The slot.
        slot: u16,
        /// The address the table held before (`None`: no entry).
        old: Option<String>,
        /// The address it holds now.
        new: String,
    },
    /// The client replaced its whole slot table with what a refresh (`CLUSTER SLOTS` /
    /// `CLUSTER NODES`, the requests just before) reported (`from` and `to` are the client).
    TableRefresh {
        /// The table afterwards, as runs of slots with the same entry.
        table: Vec<(SlotRange, String)>,
    },
    /// The client waits before retrying after TRYAGAIN (`from` and `to` are the client). No
    /// time passes in the simulator: this is one step of the diagram.
    Backoff {
        /// Which retry this is (1 for the first).
        attempt: u32,
        /// The shortest wait the library can pick, in milliseconds.
        min_ms: u32,
        /// The longest.
        max_ms: u32,
    },
    /// The client splits a multi-key command into one command per slot (Lettuce, redis-rs,
    /// redis-py's DEL/EXISTS/TOUCH/UNLINK); each part's arrows follow.
    Split {
        /// Each part's arguments, name first, in the order sent.
        parts: Vec<Vec<Vec<u8>>>,
    },
    /// The client puts the parts' replies back together into the one reply the application
    /// gets (`cli` and `resp` are that reply's).
    Reassembled {
        /// The reply.
        reply: Reply,
    },
    /// The client stops and hands an error to the application (`from` and `to` are the
    /// client).
    GiveUp {
        /// Why.
        reason: GiveUpReason,
    },
}

/// Why a client gave up on a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GiveUpReason {
    /// It followed as many redirections as its budget allows and got another one.
    TooManyRedirects {
        /// Redirections followed.
        followed: u32,
        /// Its budget.
        limit: u32,
    },
    /// TRYAGAIN after every retry it may make.
    StillSplit {
        /// Retries made.
        retries: u32,
    },
    /// The library refused to send a multi-key command whose keys are in several slots
    /// (Jedis, redis-py): nothing went on the wire.
    KeysInSeveralSlots {
        /// The exception's class (`RedisClusterException`), the library's own word.
        exception: &'static str,
        /// Its message, as the library builds it.
        message: String,
    },
    /// The node's process is down (the cluster follows a bus): a killed one refuses the
    /// connection, a stopped one (SIGSTOP) accepts it and never answers, so the library's read
    /// times out. The connection error goes to the application (the libraries' retries of
    /// connection errors are not simulated: docs/clients.md).
    Unreachable {
        /// The node.
        addr: String,
        /// Stopped (true) or killed (false).
        hung: bool,
    },
}

/// Where a failover stands when a step of "a client during a failover" is sent (times from
/// the bus simulator: `core::bus`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailoverPhase {
    /// Before the master is killed.
    Healthy,
    /// The master is dead and some node has flagged it `fail?`; `cluster_state` stays ok.
    Pfail {
        /// The dead master.
        master: String,
    },
    /// Every node has flagged it `fail`: `cluster_state:fail` until a replica takes over.
    Fail {
        /// The dead master.
        master: String,
    },
    /// Its replica won the election and every node routes its slots there.
    Promoted {
        /// The dead master.
        master: String,
        /// The new master.
        promoted: String,
    },
    /// The old master was restarted from its nodes.conf and rejoined as a replica.
    Rejoined {
        /// The old master.
        master: String,
        /// The master it now replicates.
        promoted: String,
    },
}

/// Why the client sent a command where it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendReason {
    /// An ASK named the node.
    Ask,
    /// redis-cli sends everything to the node it is connected to.
    Connected,
    /// The client's slot table names the node for the slot it computed.
    SlotTable {
        /// The slot the client computed for the first key (by its own rule).
        slot: u16,
    },
    /// The client's slot table names no node for the slot it computed (the slot is
    /// uncovered), so it sends to the node it knows.
    NoRoute {
        /// The slot the client computed.
        slot: u16,
    },
    /// A MOVED named the node, and the client's table does not name it for the slot the
    /// client computed (a client whose rule disagrees with Redis retries where the MOVED
    /// said, while its table still sends its own slot elsewhere).
    Moved {
        /// The slot the MOVED was for.
        slot: u16,
    },
    /// The command has no key.
    NoKey,
    /// A retry after TRYAGAIN to the node that answered it (redis-py).
    SameNode,
    /// A retry after TRYAGAIN to a master picked at random (ioredis).
    RandomMaster,
    /// The client takes the empty key for no key ([`ClientRule::EmptyKeyRandom`]).
    EmptyKey,
}

/// What started a refresh of the whole slot map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefreshCause {
    /// A MOVED.
    Moved,
    /// An ASK (go-redis's lazy reload, Lettuce's adaptive trigger).
    Ask,
    /// The `every`-th MOVED the client has seen (redis-py).
    NthMoved {
        /// How many MOVED replies per refresh.
        every: u32,
    },
}

/// What an arrow means, as data (addresses, slots, commands): the page words it in the
/// reader's language (`ui::narration`). Commands and replies are never translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Narration {
    /// The client sends `command` (its name, as typed) to `addr`, because of `why`.
    ClientSends {
        /// The command's name.
        command: String,
        /// The node.
        addr: String,
        /// Why there.
        why: SendReason,
    },
    /// The client sends `ASKING` to `addr`.
    ClientSendsAsking {
        /// The ASK target.
        addr: String,
    },
    /// `addr` accepts `ASKING`.
    AskingAccepted {
        /// The node.
        addr: String,
    },
    /// The operator's redis-cli sends `command` (the whole line, as typed) to `addr`.
    OperatorSends {
        /// The command line.
        command: String,
        /// The node.
        addr: String,
    },
    /// `addr` answers `MOVED slot target`.
    Moved {
        /// The node that answered.
        addr: String,
        /// The slot.
        slot: u16,
        /// The owner it names.
        target: String,
    },
    /// `addr` answers `ASK slot target`.
    Ask {
        /// The node that answered.
        addr: String,
        /// The slot.
        slot: u16,
        /// The node it names.
        target: String,
    },
    /// `addr` answers TRYAGAIN.
    TryAgain {
        /// The node.
        addr: String,
    },
    /// `addr` answers CROSSSLOT.
    CrossSlot {
        /// The node.
        addr: String,
    },
    /// `addr` answers `CLUSTERDOWN Hash slot not served`.
    ClusterDown {
        /// The node.
        addr: String,
    },
    /// `addr` answers another error, quoted as Redis sent it.
    Error {
        /// The node.
        addr: String,
        /// The error, as data: Redis's own errors print as Redis sends them, the page's notes
        /// are worded by the page.
        error: ErrorReply,
    },
    /// `addr` serves the command.
    Served {
        /// The node.
        addr: String,
    },
    /// The client points `slot` at `addr` in its table (after MOVED, or an ASK it takes for
    /// MOVED).
    TableUpdate {
        /// The slot.
        slot: u16,
        /// The new entry.
        addr: String,
        /// The old entry.
        old: Option<String>,
        /// The client took an ASK for a MOVED.
        ask_as_moved: bool,
    },
    /// As [`Narration::TableUpdate`] after a MOVED, but the client looks the key up under
    /// another slot (its own rule's), whose entry still names the wrong node: the update
    /// will not help the next command.
    TableUpdateInVain {
        /// The slot the MOVED named.
        slot: u16,
        /// The new entry.
        addr: String,
        /// The old entry.
        old: Option<String>,
        /// The slot the client computes for the key.
        own_slot: u16,
        /// What its table says for that slot.
        own_addr: String,
    },
    /// The client asks `addr` for the whole slot map (`command`, as typed).
    RefreshSends {
        /// The library, if the client is one.
        library: Option<ClientLibrary>,
        /// `CLUSTER SLOTS` or `CLUSTER NODES`.
        command: String,
        /// The node.
        addr: String,
        /// It does so in the background while the retry goes out (ioredis, go-redis,
        /// Lettuce), or before the retry (Jedis, redis-py, redis-rs).
        background: bool,
        /// What started it.
        after: RefreshCause,
    },
    /// `addr` answers with its view of the slot map.
    MapReply {
        /// The node.
        addr: String,
    },
    /// The client replaced its whole table with the map it was sent.
    TableRefreshed {
        /// How many slots now point at another node than before.
        changed: u32,
    },
    /// The client gives up after `followed` redirections.
    GiveUpRedirects {
        /// Redirections followed.
        followed: u32,
    },
    /// The client backs off before retry `attempt`.
    Backoff {
        /// Which retry (1 for the first).
        attempt: u32,
        /// The shortest wait, in milliseconds.
        min_ms: u32,
        /// The longest.
        max_ms: u32,
    },
    /// The library refuses a multi-key command across slots before sending it.
    Refused {
        /// The library.
        library: ClientLibrary,
        /// The command's name.
        command: String,
        /// The slots its keys are in, in order of first appearance.
        slots: Vec<u16>,
    },
    /// The library splits `command` into one command per slot.
    Split {
        /// The library.
        library: ClientLibrary,
        /// The command's name.
        command: String,
        /// The slots, in the order the parts are sent.
        slots: Vec<u16>,
    },
    /// The library puts `parts` replies back together.
    Reassembled {
        /// The command's name.
        command: String,
        /// How many parts.
        parts: u32,
    },
    /// The client gives up after `retries` TRYAGAIN retries.
    GiveUpTryAgain {
        /// Retries made.
        retries: u32,
    },
    /// `addr` answers `CLUSTERDOWN The cluster is down`: its `cluster_state` is fail (a master
    /// it sees as FAIL, or it is in the minority), so it refuses every command with a key.
    ClusterStateFail {
        /// The node.
        addr: String,
    },
    /// `addr`'s process is down: the connection is refused (killed) or the read times out
    /// (stopped); the error goes to the application.
    Unreachable {
        /// The node.
        addr: String,
        /// Stopped (true) or killed (false).
        hung: bool,
    },
    /// `inner` happens `at_ms` after the master was killed, in `phase` of the failover.
    During {
        /// Simulated ms since the kill (the bus simulator's clock).
        at_ms: u64,
        /// Where the failover stands.
        phase: FailoverPhase,
        /// What happens.
        inner: Box<Narration>,
    },
}

/// One arrow of the sequence diagram, with everything the page shows beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Where the arrow starts.
    pub from: Endpoint,
    /// Where it ends (the same endpoint for table updates, back-offs and giving up).
    pub to: Endpoint,
    /// What it carries.
    pub kind: EventKind,
    /// What happens and why, as data the page puts into words.
    pub narration: Narration,
    /// What a terminal shows for this arrow. For a reply: exactly what redis-cli prints (for
    /// [`Policy::RedisCliC`], a followed MOVED/ASK prints `-> Redirected to slot [N] located
    /// at ADDR` instead of the error, so concatenating a run's reply texts gives redis-cli's
    /// output). For a request or `ASKING`: the command as it would be typed at the prompt.
    /// Empty for table updates, back-offs and giving up.
    pub cli: String,
    /// The bytes on the wire: the RESP request (an array of bulk strings) or the RESP2 reply
    /// (`-ASK 5712 127.0.0.1:7002\r\n`). Empty for arrows that send nothing.
    pub resp: Vec<u8>,
}

impl Event {
    /// Whether this arrow is a reply carrying `MOVED`.
    pub fn is_moved(&self) -> bool {
        matches!(&self.kind, EventKind::Reply { reply } if Redirect::of(reply).is_some_and(|r| !r.ask))
    }

    /// Whether this arrow is a reply carrying `ASK`.
    pub fn is_ask(&self) -> bool {
        matches!(&self.kind, EventKind::Reply { reply } if Redirect::of(reply).is_some_and(|r| r.ask))
    }
}
