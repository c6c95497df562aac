//! The simulator's data: node flags, one node's view of a peer (`clusterNode`), a node's own
//! state (`clusterState` plus the process), bus messages (`clusterMsg`) and their real sizes.

use std::rc::Rc;

/// `CLUSTER_NODE_*` flags (cluster.h), the subset the bus uses.
pub mod flag {
    /// `MYSELF`.
    pub const MYSELF: u16 = 1;
    /// `MASTER`.
    pub const MASTER: u16 = 2;
    /// `SLAVE`.
    pub const SLAVE: u16 = 4;
    /// `PFAIL`.
    pub const PFAIL: u16 = 8;
    /// `FAIL`.
    pub const FAIL: u16 = 16;
    /// `HANDSHAKE`.
    pub const HANDSHAKE: u16 = 32;
    /// `NOADDR`.
    pub const NOADDR: u16 = 64;
    /// `MEET`.
    pub const MEET: u16 = 128;
    /// `MIGRATE_TO`.
    pub const MIGRATE_TO: u16 = 256;
    /// `NOFAILOVER`.
    pub const NOFAILOVER: u16 = 512;
}

/// No owner in a slot table (a slot nobody claims).
pub const NO_NODE: u32 = u32::MAX;
/// The most nodes a simulation holds (Redis's recommended ceiling).
pub const MAX_NODES: usize = 1000;
/// `CLUSTER_SLOTS`.
pub const SLOTS: usize = 16384;

/// `sizeof(clusterMsg) - sizeof(union clusterMsgData)` in 7.0.15: 2256 bytes, of which the
/// slot bitmap `myslots` is 2048.
pub const HEADER_BYTES: u32 = 2256;
/// `sizeof(clusterMsgDataGossip)`.
pub const GOSSIP_BYTES: u32 = 104;
/// FAIL: the header (without the data union) + a 40-byte node name.
pub const FAIL_BYTES: u32 = 2296;
/// UPDATE: header without the union + config epoch, name and a slot bitmap.
pub const UPDATE_BYTES: u32 = 4352;

/// A slot bitmap (`myslots`), shared between the messages a node sends until its slots change.
#[derive(Clone, PartialEq, Eq)]
pub struct SlotBits(pub Box<[u64; 256]>);

impl SlotBits {
    /// The empty (see the module docs).
    pub fn empty() -> Self {
        SlotBits(Box::new([0; 256]))
    }
    /// The get (see the module docs).
    pub fn get(&self, slot: usize) -> bool {
        self.0[(slot >> 6) & 255] & (1u64 << (slot & 63)) != 0
    }
    /// The set (see the module docs).
    pub fn set(&mut self, slot: usize) {
        self.0[(slot >> 6) & 255] |= 1u64 << (slot & 63);
    }
    /// The count (see the module docs).
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

impl std::fmt::Debug for SlotBits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SlotBits({} slots)", self.count())
    }
}

/// Bus message types (`CLUSTERMSG_TYPE_*`) the simulator sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MsgType {
    /// `Ping`.
    Ping,
    /// `Pong`.
    Pong,
    /// `Meet`.
    Meet,
    /// `Fail`.
    Fail,
    /// `FailoverAuthRequest`.
    FailoverAuthRequest,
    /// `FailoverAuthAck`.
    FailoverAuthAck,
    /// `Update`.
    Update,
    /// `MfStart`.
    MfStart,
}

impl MsgType {
    /// Index in `cluster_stats_messages_*` order (the `CLUSTERMSG_TYPE_*` numbers without
    /// PUBLISH; names from `clusterGetMessageTypeString`).
    pub fn stat_index(self) -> usize {
        match self {
            MsgType::Ping => 0,
            MsgType::Pong => 1,
            MsgType::Meet => 2,
            MsgType::Fail => 3,
            MsgType::FailoverAuthRequest => 4,
            MsgType::FailoverAuthAck => 5,
            MsgType::Update => 6,
            MsgType::MfStart => 7,
        }
    }
    /// The name `CLUSTER INFO` uses in `cluster_stats_messages_<name>_sent`.
    pub fn stat_name(i: usize) -> &'static str {
        [
            "ping", "pong", "meet", "fail", "update", "auth-ack", "auth-req", "mfstart",
        ][i]
    }
}

/// One gossip section (`clusterMsgDataGossip`): what the sender knows of one node. The
/// times are seconds in 32 bits, as the wire carries them (`htonl(ping_sent / 1000)`), and
/// the node a 16-bit index (below `MAX_NODES`), so an entry is 12 bytes: at 1000 nodes the
/// NT/2 burst has tens of thousands of 100-entry pings and pongs in flight at once.
#[derive(Clone, Copy, Debug)]
pub struct Gossip {
    /// The node it is about (an index below `MAX_NODES`).
    pub node: u16,
    pub flags: u16,
    /// Seconds (`ping_sent / 1000`).
    pub ping_sent_s: u32,
    /// Seconds (`pong_received / 1000`).
    pub pong_received_s: u32,
}

impl Gossip {
    /// The entry a sender writes about `peer`, node `node` of its table
    /// (`clusterSetGossipEntry`; its own MYSELF flag never travels).
    #[inline]
    pub fn about(node: u16, peer: &Peer) -> Gossip {
        Gossip {
            node,
            flags: peer.flags & !flag::MYSELF,
            ping_sent_s: Gossip::secs(peer.ping_sent()),
            pong_received_s: Gossip::secs(peer.pong_received()),
        }
    }

    /// Milliseconds as the wire's 32-bit seconds (saturating past 136 years).
    pub fn secs(ms: u64) -> u32 {
        u32::try_from(ms / 1000).unwrap_or(u32::MAX)
    }
}

const _: () = assert!(std::mem::size_of::<Gossip>() == 12);

/// A bus message in flight. `reply` says it travels back on the connection the receiver
/// opened (a PONG answering the receiver's PING), which is what updates `pong_received`.
#[derive(Clone, Debug)]
pub struct Msg {
    /// The message type (`hdr->type`).
    pub kind: MsgType,
    /// The sender (`hdr->sender`).
    pub from: u32,
    /// The receiver.
    pub to: u32,
    /// It travels on the connection the receiver opened (a PONG answering its PING).
    pub reply: bool,
    /// The sender's `currentEpoch`.
    pub current_epoch: u64,
    /// The sender's config epoch (its master's, for a replica).
    pub config_epoch: u64,
    /// The sender's replication offset.
    pub offset: u64,
    /// The sender's role flags (`hdr->flags`: MASTER/SLAVE/NOFAILOVER).
    pub sender_flags: u16,
    /// The sender's master (`NO_NODE` for a master).
    pub slaveof: u32,
    /// The slots the sender (or its master) claims.
    pub myslots: Rc<SlotBits>,
    /// `CLUSTERMSG_FLAG0_PAUSED`: a master paused for a manual failover.
    pub paused: bool,
    /// `CLUSTERMSG_FLAG0_FORCEACK`: a manual failover's vote request.
    pub forceack: bool,
    /// The gossip sections (PING, PONG, MEET).
    pub gossip: Vec<Gossip>,
    /// FAIL: the failing node; UPDATE: the node the update is about.
    pub about: u32,
    /// UPDATE: the config epoch of the node it is about.
    pub update_epoch: u64,
    /// UPDATE: that node's slots.
    pub update_slots: Option<Rc<SlotBits>>,
}

impl Msg {
    /// The bytes on the wire, as `clusterSendPing` & co. size them.
    pub fn size(&self) -> u32 {
        match self.kind {
            MsgType::Ping | MsgType::Pong | MsgType::Meet => {
                HEADER_BYTES + GOSSIP_BYTES * self.gossip.len() as u32
            }
            MsgType::Fail => FAIL_BYTES,
            MsgType::Update => UPDATE_BYTES,
            MsgType::FailoverAuthRequest | MsgType::FailoverAuthAck | MsgType::MfStart => {
                HEADER_BYTES
            }
        }
    }
}

/// What one node knows of one node (itself included): Redis's `clusterNode`.
///
/// Split in two by how often it is read. This record holds what every gossip entry built and
/// every gossip entry read touches (flags, `numslots`, `ping_sent` and `pong_received` as
/// milliseconds in 32-bit words whose top bits say whether it is known, linked and has
/// failure reports): 16 bytes in wasm, aligned to 16 so that no record straddles two cache
/// lines (24 natively), laid out in `Node::peers` one after the other, so a 1000-node
/// cluster's million views keep their hot part in 16 MB, which a CPU's last-level cache can
/// hold, instead of touching one 64-byte line of a 96-byte record per gossip entry. The rest
/// (`PeerCold`: reports, replicas, epochs, offsets, link time, cached claim, the rare times)
/// sits behind one pointer and reads through `Deref` as if it were here (`p.config_epoch`).
/// The times are exact: from 2^30 - 1 ms (12 days) on for `ping_sent` and 2^31 - 1 ms (24
/// days) for `pong_received`, the record stores its time field's all-ones value and the full
/// value sits in the cold part.
#[derive(Clone, Debug, Default)]
#[repr(C)]
#[cfg_attr(target_pointer_width = "32", repr(align(16)))]
pub struct Peer {
    /// `CLUSTER_NODE_*` flags (`types::flag`).
    pub flags: u16,
    /// `numslots`: slots it owns in the observer's table (at most 16384).
    pub numslots: u16,
    /// `ping_sent` in ms in the low 30 bits (`PING_TIME`: the full time is `rare[3]`), then
    /// `KNOWN` (the observer's table holds it) and `LINKED` (there is an outbound link,
    /// `link().is_some()`, kept by `set_link`).
    ping: u32,
    /// `pong_received` in ms in the low 31 bits (`PONG_TIME`: the full time is `rare[4]`),
    /// then `REPORTED` (`reports` is non-empty, kept by the report functions of `Node`).
    pong: u32,
    /// Everything the gossip does not read.
    cold: Box<PeerCold>,
}

/// `Peer::ping`'s time bits; all ones: the time is in the cold part.
const PING_TIME: u32 = (1 << 30) - 1;
/// `Peer::ping`: the node is known.
const KNOWN: u32 = 1 << 30;
/// `Peer::ping`: there is an outbound link.
const LINKED: u32 = 1 << 31;
/// `Peer::pong`'s time bits; all ones: the time is in the cold part.
const PONG_TIME: u32 = (1 << 31) - 1;
/// `Peer::pong`: there are failure reports.
const REPORTED: u32 = 1 << 31;

/// The part of a `Peer` the gossip does not read (reached through `Deref`).
#[derive(Clone, Debug)]
pub struct PeerCold {
    /// Failure reports: (reporting master, time).
    pub reports: List<(u32, u64)>,
    /// `slaves`: its replicas, for a master.
    pub slaves: List<u32>,
    /// `slaveof` (`Peer::master`): its master's index, `NO_MASTER` for none.
    master: u16,
    /// The outbound link's creation time (`Peer::link`), `NO_LINK` when there is no link.
    link: u64,
    /// `data_received`: the last packet of any kind.
    pub data_received: u64,
    /// The sender's config epoch (its master's, for a replica).
    pub config_epoch: u64,
    /// `repl_offset`: its replication offset as last heard.
    pub repl_offset: u64,
    /// The table version at which `claim_bits` matched our table (`Peer::claim_seen`).
    claim_version: u64,
    /// The last slot bitmap this node claimed that matched our table.
    claim_bits: Option<Rc<SlotBits>>,
    /// `fail_time`, `voted_time`, `orphaned_time`, and `ping_sent` / `pong_received` when
    /// they do not fit in the hot part's time bits; `None` while all five are 0.
    rare: Option<Box<[u64; 5]>>,
}

/// `Peer::master`'s stored value for no master (node indexes are below `MAX_NODES`).
const NO_MASTER: u16 = u16::MAX;
/// `Peer::link`'s stored value for no link (a link's creation time is never this).
const NO_LINK: u64 = u64::MAX;
const _: () = assert!(MAX_NODES < NO_MASTER as usize);
const _: () = assert!(SLOTS <= u16::MAX as usize);

impl Default for PeerCold {
    fn default() -> Self {
        PeerCold {
            reports: List::default(),
            slaves: List::default(),
            master: NO_MASTER,
            link: NO_LINK,
            data_received: 0,
            config_epoch: 0,
            repl_offset: 0,
            claim_version: 0,
            claim_bits: None,
            rare: None,
        }
    }
}

impl std::ops::Deref for Peer {
    type Target = PeerCold;
    fn deref(&self) -> &PeerCold {
        &self.cold
    }
}

impl std::ops::DerefMut for Peer {
    fn deref_mut(&mut self) -> &mut PeerCold {
        &mut self.cold
    }
}

/// A list that is nearly always empty (a peer's failure reports, a master's replicas): one
/// pointer, null while empty, instead of a `Vec`'s three words (a million of them at 1000
/// nodes; the rare non-empty one pays a second allocation). Reads as a slice.
#[derive(Clone, PartialEq, Eq)]
pub struct List<T>(Option<Box<Items<T>>>);

/// A non-empty `List`'s storage.
#[derive(Clone, PartialEq, Eq)]
struct Items<T>(Vec<T>);

impl<T> Default for List<T> {
    fn default() -> Self {
        List(None)
    }
}

impl<T> std::ops::Deref for List<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match &self.0 {
            Some(v) => &v.0,
            None => &[],
        }
    }
}

impl<T> std::ops::DerefMut for List<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.0 {
            Some(v) => &mut v.0,
            None => &mut [],
        }
    }
}

impl<T> List<T> {
    /// Append (as `Vec::push`).
    pub fn push(&mut self, x: T) {
        self.0
            .get_or_insert_with(|| Box::new(Items(Vec::new())))
            .0
            .push(x);
    }
    /// Keep what `f` accepts (as `Vec::retain`); an emptied list frees its storage.
    pub fn retain(&mut self, f: impl FnMut(&T) -> bool) {
        if let Some(v) = &mut self.0 {
            v.0.retain(f);
            if v.0.is_empty() {
                self.0 = None;
            }
        }
    }
    /// Empty it.
    pub fn clear(&mut self) {
        self.0 = None;
    }
}

impl<'a, T> IntoIterator for &'a List<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(target_pointer_width = "32")]
const _: () = assert!(std::mem::size_of::<Peer>() == 16);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Peer>() == 24);

impl Peer {
    /// A newly known node with these flags and nothing else.
    pub fn known_with(flags: u16) -> Peer {
        Peer {
            ping: KNOWN,
            flags,
            ..Peer::default()
        }
    }
    /// Whether the observer's table holds this node (the dict has it).
    #[inline]
    pub fn known(&self) -> bool {
        self.ping & KNOWN != 0
    }
    /// Set whether the observer's table holds this node.
    pub fn set_known(&mut self, known: bool) {
        if known {
            self.ping |= KNOWN;
        } else {
            self.ping &= !KNOWN;
        }
    }
    /// `slaveof`: its master, for a replica.
    pub fn master(&self) -> Option<u32> {
        (self.cold.master != NO_MASTER).then_some(u32::from(self.cold.master))
    }
    /// Set `slaveof` (`None`, or an index past `MAX_NODES`, for none).
    pub fn set_master(&mut self, m: Option<u32>) {
        self.cold.master = m
            .and_then(|m| u16::try_from(m).ok())
            .filter(|m| (*m as usize) < MAX_NODES)
            .unwrap_or(NO_MASTER);
    }
    /// The outbound link's creation time, when there is a link.
    pub fn link(&self) -> Option<u64> {
        (self.cold.link != NO_LINK).then_some(self.cold.link)
    }
    /// Set (or drop, with `None`) the outbound link.
    pub fn set_link(&mut self, ctime: Option<u64>) {
        self.cold.link = ctime.map_or(NO_LINK, |t| t.min(NO_LINK - 1));
        if ctime.is_some() {
            self.ping |= LINKED;
        } else {
            self.ping &= !LINKED;
        }
    }
    /// Whether there is an outbound link (`link().is_some()`, read from the hot part).
    #[inline]
    pub fn has_link(&self) -> bool {
        self.ping & LINKED != 0
    }
    /// Whether it has failure reports (`!reports.is_empty()`, read from the hot part).
    #[inline]
    pub fn has_reports(&self) -> bool {
        self.pong & REPORTED != 0
    }
    /// After a change of `reports`: the hot part's copy of whether there are any.
    pub fn reports_changed(&mut self) {
        if self.cold.reports.is_empty() {
            self.pong &= !REPORTED;
        } else {
            self.pong |= REPORTED;
        }
    }
    /// `ping_sent`: when the unanswered PING went out (0: none in flight).
    #[inline]
    pub fn ping_sent(&self) -> u64 {
        let t = self.ping & PING_TIME;
        if t != PING_TIME {
            u64::from(t)
        } else {
            self.rare(3)
        }
    }
    /// The hot part's first and last fields mixed (a read-ahead: loading them brings in
    /// every cache line the gossip reads of this record, also natively where it may
    /// straddle two).
    #[inline]
    pub fn hot_bits(&self) -> u64 {
        u64::from(self.flags) ^ u64::from(self.pong)
    }
    /// Set `ping_sent`.
    #[inline]
    pub fn set_ping_sent(&mut self, t: u64) {
        match u32::try_from(t) {
            Ok(t) if t < PING_TIME => self.ping = (self.ping & !PING_TIME) | t,
            _ => {
                self.ping |= PING_TIME;
                self.set_rare(3, t);
            }
        }
    }
    /// `pong_received`: the last PONG (or a fresher time from gossip).
    #[inline]
    pub fn pong_received(&self) -> u64 {
        let t = self.pong & PONG_TIME;
        if t != PONG_TIME {
            u64::from(t)
        } else {
            self.rare(4)
        }
    }
    /// Set `pong_received`.
    #[inline]
    pub fn set_pong_received(&mut self, t: u64) {
        match u32::try_from(t) {
            Ok(t) if t < PONG_TIME => self.pong = (self.pong & !PONG_TIME) | t,
            _ => {
                self.pong |= PONG_TIME;
                self.set_rare(4, t);
            }
        }
    }
    /// The last slot bitmap this node claimed that matched our table, with the table version.
    pub fn claim_seen(&self) -> Option<(&Rc<SlotBits>, u64)> {
        self.cold
            .claim_bits
            .as_ref()
            .map(|b| (b, self.cold.claim_version))
    }
    /// Remember (or forget) a claim that matched our table at `version`.
    pub fn set_claim_seen(&mut self, seen: Option<(Rc<SlotBits>, u64)>) {
        match seen {
            Some((bits, version)) => {
                self.cold.claim_bits = Some(bits);
                self.cold.claim_version = version;
            }
            None => {
                self.cold.claim_bits = None;
                self.cold.claim_version = 0;
            }
        }
    }
    fn rare(&self, i: usize) -> u64 {
        self.cold.rare.as_ref().map_or(0, |r| r[i])
    }
    fn set_rare(&mut self, i: usize, t: u64) {
        match &mut self.cold.rare {
            Some(r) => {
                r[i] = t;
                if **r == [0; 5] {
                    self.cold.rare = None;
                }
            }
            None if t != 0 => {
                let mut r = [0; 5];
                r[i] = t;
                self.cold.rare = Some(Box::new(r));
            }
            None => {}
        }
    }
    /// `fail_time`: when it was flagged FAIL (0: never).
    pub fn fail_time(&self) -> u64 {
        self.rare(0)
    }
    /// Set `fail_time`.
    pub fn set_fail_time(&mut self, t: u64) {
        self.set_rare(0, t);
    }
    /// `voted_time`: when we last voted about this master (0: never).
    pub fn voted_time(&self) -> u64 {
        self.rare(1)
    }
    /// Set `voted_time`.
    pub fn set_voted_time(&mut self, t: u64) {
        self.set_rare(1, t);
    }
    /// `orphaned_time`: since when it is a master without working replicas (0: not).
    pub fn orphaned_time(&self) -> u64 {
        self.rare(2)
    }
    /// Set `orphaned_time`.
    pub fn set_orphaned_time(&mut self, t: u64) {
        self.set_rare(2, t);
    }
    /// The is master (see the module docs).
    pub fn is_master(&self) -> bool {
        self.flags & flag::MASTER != 0
    }
    /// The is slave (see the module docs).
    pub fn is_slave(&self) -> bool {
        self.flags & flag::SLAVE != 0
    }
    /// The failed (see the module docs).
    pub fn failed(&self) -> bool {
        self.flags & flag::FAIL != 0
    }
    /// The timed out (see the module docs).
    pub fn timed_out(&self) -> bool {
        self.flags & flag::PFAIL != 0
    }
}

/// Whether the process runs, is stopped (SIGSTOP: connections still accepted, nothing read)
/// or is dead (SIGKILL: connections refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Process {
    /// `Running`.
    Running,
    /// `Hung`.
    Hung,
    /// `Crashed`.
    Crashed,
}

/// `cluster-*` settings the rules read.
#[derive(Clone, Debug)]
pub struct Config {
    /// `cluster-node-timeout`, ms.
    pub node_timeout: u64,
    /// `cluster-require-full-coverage`.
    pub require_full_coverage: bool,
    /// `cluster-allow-replica-migration`.
    pub allow_replica_migration: bool,
    /// `cluster-migration-barrier`.
    pub migration_barrier: u32,
    /// `cluster-replica-validity-factor`.
    pub replica_validity_factor: u64,
    /// `repl-ping-replica-period`, seconds.
    pub repl_ping_period: u64,
    /// One-way latency of every link, ms (per-link overrides in `Sim::set_latency`).
    pub latency_ms: u64,
    /// Probability that a message is lost.
    pub loss: f64,
    /// Record every message sent and delivered in the event stream (off for big benchmarks).
    pub record_messages: bool,
    /// The simulated clock's unix time at t = 0, ms (the log's and CLUSTER NODES' timestamps).
    pub start_unix_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            node_timeout: 15000,
            require_full_coverage: true,
            allow_replica_migration: true,
            migration_barrier: 1,
            replica_validity_factor: 10,
            repl_ping_period: 10,
            latency_ms: 1,
            loss: 0.0,
            record_messages: true,
            start_unix_ms: 1_796_109_600_000,
        }
    }
}
