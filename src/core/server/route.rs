//! Routing, as Redis 7.0's `getNodeByQuery` decides it: the connection's state ([`Session`]:
//! MULTI queue, READONLY, ASKING) and where a command goes ([`Route`]: served here, MOVED, ASK,
//! TRYAGAIN, CROSSSLOT, CLUSTERDOWN), over one command or a whole transaction.

use super::command::{
    engine_key_indexes, engine_lookup, flag, CommandError, CommandId, CommandInfo,
};
use super::reply::{ClusterDown, ErrorReply};
use super::{Cluster, Role};
use crate::core::key::slot::key_slot;

/// Per-connection state: the MULTI queue and the READONLY and ASKING flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    pub(super) readonly: bool,
    pub(super) asking: bool,
    pub(super) multi: Option<Vec<Vec<Vec<u8>>>>,
    pub(super) dirty: bool,
    /// The connection's name (`CLIENT SETNAME`).
    pub(super) name: Option<Vec<u8>>,
    /// The keys WATCH remembers (EXEC, DISCARD and UNWATCH forget them).
    pub(super) watched: Vec<Watched>,
}

/// A key WATCH remembers: on which node, its write count then, whether it had expired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Watched {
    pub(super) addr: String,
    pub(super) key: Vec<u8>,
    pub(super) version: u64,
    pub(super) expired: bool,
}

impl Session {
    /// A fresh connection.
    pub fn new() -> Session {
        Session::default()
    }

    /// Whether MULTI was sent and not yet ended by EXEC or DISCARD.
    pub fn in_multi(&self) -> bool {
        self.multi.is_some()
    }

    /// The commands queued since MULTI.
    pub fn queued(&self) -> &[Vec<Vec<u8>>] {
        self.multi.as_deref().unwrap_or(&[])
    }

    /// Whether a command was refused while queueing (EXEC will answer EXECABORT).
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Whether READONLY was sent (a replica then serves reads of its master's slots).
    pub fn is_readonly(&self) -> bool {
        self.readonly
    }

    /// Whether ASKING was sent for the next command.
    pub fn is_asking(&self) -> bool {
        self.asking
    }

    /// Marks the transaction failed, as Redis's `flagTransaction` does (only inside MULTI).
    pub(super) fn flag(&mut self) {
        if self.multi.is_some() {
            self.dirty = true;
        }
    }

    pub(super) fn discard(&mut self) {
        self.multi = None;
        self.dirty = false;
        self.watched.clear();
    }
}

/// Where a command goes, as Redis's `getNodeByQuery` decides it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// This node serves it; `slot` is the slot of its keys, if it has any.
    Here {
        /// The slot of the command's keys.
        slot: Option<u16>,
    },
    /// The slot lives on another master for good: `MOVED <slot> <addr>`.
    Moved {
        /// The slot.
        slot: u16,
        /// The owner's address.
        addr: String,
    },
    /// The slot is migrating and the key is (or would be) on the target: `ASK <slot> <addr>`.
    Ask {
        /// The slot.
        slot: u16,
        /// The migration target's address.
        addr: String,
    },
    /// The keys are in different slots.
    CrossSlot,
    /// A multi-key command whose keys are split between source and target of a migration.
    TryAgain,
    /// No master serves the slot.
    SlotNotServed {
        /// The slot.
        slot: u16,
    },
    /// Some slot is not served (or its master failed): the whole cluster refuses keyed commands.
    ClusterDown,
}

impl Route {
    /// The error Redis replies with, or `None` when this node serves the command.
    pub fn error(&self) -> Option<ErrorReply> {
        match self {
            Route::Here { .. } => None,
            Route::Moved { slot, addr } => Some(ErrorReply::Moved {
                slot: *slot,
                addr: addr.clone(),
            }),
            Route::Ask { slot, addr } => Some(ErrorReply::Ask {
                slot: *slot,
                addr: addr.clone(),
            }),
            Route::CrossSlot => Some(ErrorReply::CrossSlot),
            Route::TryAgain => Some(ErrorReply::TryAgain),
            Route::SlotNotServed { .. } => {
                Some(ErrorReply::ClusterDown(ClusterDown::SlotNotServed))
            }
            Route::ClusterDown => Some(ErrorReply::ClusterDown(ClusterDown::Down)),
        }
    }
}

type Queued<'a> = (&'static CommandInfo, &'a [Vec<u8>]);

/// What `getNodeByQuery` treats specially.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    /// MIGRATE: served locally whenever the slot is open.
    Migrate,
    /// SPUBLISH, SSUBSCRIBE, SUNSUBSCRIBE: channels, not keys.
    PubsubShard,
}

impl Cluster {
    /// Whether every slot is served by a master that has not failed (`cluster_state:ok`).
    pub(super) fn cluster_ok(&self) -> bool {
        if self.map.n_unowned() > 0 {
            return false;
        }
        // Usually no master has failed: then there is nothing to count (this runs for every
        // routed command, and counting scans all 16384 slots).
        if !self.map.masters().iter().any(|m| m.is_failed()) {
            return true;
        }
        let counts = self.map.slot_counts();
        !self
            .map
            .masters()
            .iter()
            .zip(counts)
            .any(|(m, n)| n > 0 && m.is_failed())
    }

    /// Where the command `args` sent to the node at `node_addr` goes, without running it.
    /// For EXEC it is the whole queued transaction of `session` that is routed. An address
    /// outside the cluster serves no slot, so every keyed command is MOVED to the slot's owner.
    pub fn route(
        &self,
        node_addr: &str,
        args: &[Vec<u8>],
        session: &Session,
    ) -> Result<Route, CommandError> {
        let info = engine_lookup(args)?;
        // An index past the end has no role and no keys.
        let node = self.node_index(node_addr).unwrap_or(usize::MAX);
        Ok(self.route_command(node, info, args, session))
    }

    pub(super) fn route_command(
        &self,
        node: usize,
        info: &'static CommandInfo,
        args: &[Vec<u8>],
        session: &Session,
    ) -> Route {
        if info.id == CommandId::Exec {
            let Some(queue) = &session.multi else {
                return Route::Here { slot: None };
            };
            let cmds: Vec<Queued<'_>> = queue
                .iter()
                .filter_map(|q| engine_lookup(q).ok().map(|i| (i, q.as_slice())))
                .collect();
            let write = cmds.iter().any(|(i, _)| i.write);
            self.route_many(node, &cmds, write, session)
        } else {
            self.route_many(node, &[(info, args)], info.write, session)
        }
    }

    /// Redis 7.0's `getNodeByQuery`, over one command or a whole transaction.
    fn route_many(
        &self,
        node: usize,
        cmds: &[Queued<'_>],
        write: bool,
        session: &Session,
    ) -> Route {
        let keys: Vec<&[u8]> = cmds
            .iter()
            .flat_map(|(info, args)| {
                engine_key_indexes(info, args)
                    .into_iter()
                    .filter_map(|pos| args.get(pos).map(Vec::as_slice))
            })
            .collect();
        // MIGRATE works on the local node whenever the slot is open (not inside EXEC); the
        // sharded pub/sub commands are routed by their channels' slot.
        let kind = match cmds {
            [(info, _)] if info.id == CommandId::Migrate => Kind::Migrate,
            [(info, _)]
                if matches!(
                    info.id,
                    CommandId::Spublish | CommandId::Ssubscribe | CommandId::Sunsubscribe
                ) =>
            {
                Kind::PubsubShard
            }
            _ => Kind::Plain,
        };
        // RESTORE-ASKING carries the `asking` flag: served on an importing node as if ASKING
        // was sent.
        let asking = session.asking || matches!(cmds, [(info, _)] if info.is(flag::ASKING));
        self.route_keys_as(node, keys, write, kind, asking, session.readonly)
    }

    /// `getNodeByQuery` over a list of keys: `migrate` says the command is MIGRATE, `asking`
    /// that the connection sent ASKING (or the command carries the ASKING flag, as
    /// RESTORE-ASKING does).
    pub(super) fn route_keys<'k>(
        &self,
        node: usize,
        keys: impl IntoIterator<Item = &'k [u8]>,
        write: bool,
        migrate: bool,
        asking: bool,
        readonly: bool,
    ) -> Route {
        let kind = if migrate { Kind::Migrate } else { Kind::Plain };
        self.route_keys_as(node, keys, write, kind, asking, readonly)
    }

    /// [`Cluster::route_keys`] for a command of the given [`Kind`].
    fn route_keys_as<'k>(
        &self,
        node: usize,
        keys: impl IntoIterator<Item = &'k [u8]>,
        write: bool,
        kind: Kind,
        asking: bool,
        readonly: bool,
    ) -> Route {
        let migrate = kind == Kind::Migrate;
        let shard = kind == Kind::PubsubShard;
        // While following a bus, each node routes by what it believes (`follow.rs`).
        let map = self.map_of(node);
        let role = self.role_in_view(node);
        let mut first: Option<&'k [u8]> = None;
        let mut slot = 0u16;
        let mut owner = None;
        let mut migrating_to: Option<&str> = None;
        let mut importing = false;
        let mut multiple_keys = false;
        let mut missing_keys = 0u32;
        let mut existing_keys = 0u32;
        for key in keys {
            let this_slot = key_slot(key);
            match first {
                None => {
                    first = Some(key);
                    slot = this_slot;
                    let Some(m) = map.owner(slot) else {
                        return Route::SlotNotServed { slot };
                    };
                    owner = Some(m);
                    let me = match role {
                        Some(Role::Master(i)) => map.masters().get(i),
                        _ => None,
                    };
                    if let Some(me) = me {
                        let target = me
                            .migrating
                            .iter()
                            .find(|(s, _)| *s == slot)
                            .and_then(|(_, id)| map.master_by_id(id))
                            .and_then(|t| map.masters().get(t))
                            .map(|t| t.addr.as_str());
                        if role == Some(Role::Master(m)) && target.is_some() {
                            migrating_to = target;
                        } else if me.importing.iter().any(|(s, _)| *s == slot) {
                            importing = true;
                        }
                    }
                }
                Some(f) => {
                    if f != key {
                        if this_slot != slot {
                            return Route::CrossSlot;
                        }
                        multiple_keys = true;
                    }
                }
            }
            // A channel is served by the source until the migration ends: nothing to count.
            if (migrating_to.is_some() || importing) && !shard {
                if self.live_entry(node, key).is_none() {
                    missing_keys = missing_keys.saturating_add(1);
                } else {
                    existing_keys = existing_keys.saturating_add(1);
                }
            }
        }
        let Some(owner) = owner else {
            return Route::Here { slot: None };
        };
        // `cluster-allow-pubsubshard-when-down` is `yes` by default; reads are not allowed
        // when down (`cluster-allow-reads-when-down no`).
        if !shard && !self.state_ok(node) {
            return Route::ClusterDown;
        }
        if (migrating_to.is_some() || importing) && migrate {
            return Route::Here { slot: Some(slot) };
        }
        if let Some(addr) = migrating_to
            && missing_keys > 0
        {
            // Redis 7.0 (#9526): some keys here and some gone is TRYAGAIN; all gone is ASK.
            return if existing_keys > 0 {
                Route::TryAgain
            } else {
                Route::Ask {
                    slot,
                    addr: addr.to_owned(),
                }
            };
        }
        if importing && asking {
            return if multiple_keys && missing_keys > 0 {
                Route::TryAgain
            } else {
                Route::Here { slot: Some(slot) }
            };
        }
        if (readonly || shard) && !write && role == Some(Role::Replica(owner)) {
            return Route::Here { slot: Some(slot) };
        }
        if role == Some(Role::Master(owner)) {
            return Route::Here { slot: Some(slot) };
        }
        match map.masters().get(owner) {
            Some(m) => Route::Moved {
                slot,
                addr: m.addr.clone(),
            },
            None => Route::SlotNotServed { slot },
        }
    }

    /// Where `command` (a table command such as `MGET`) sent with `keys` to `node_addr` on a
    /// fresh connection goes, without building its argument list: for a batch of keys the page
    /// makes (up to a million). `None` when the table has no such command.
    pub fn route_keys_sent<'k>(
        &self,
        node_addr: &str,
        command: &str,
        keys: impl IntoIterator<Item = &'k [u8]>,
    ) -> Option<Route> {
        let info = super::command::by_name(command.as_bytes())?;
        let node = self.node_index(node_addr).unwrap_or(usize::MAX);
        Some(self.route_keys(node, keys, info.write, false, false, false))
    }
}
