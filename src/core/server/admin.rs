//! The server, connection, cluster, pub/sub and scripting-admin commands that are not data:
//! answered as a default Redis 7.0.15 cluster node answers them (COMMAND, CONFIG GET, PUBLISH,
//! PUBSUB, WAIT, SCRIPT, FUNCTION, ACL WHOAMI, the cluster-mode refusals of SELECT, SWAPDB, MOVE,
//! REPLICAOF, FAILOVER), or noted as not simulated ([`NotRun`]) when a real node's answer would
//! depend on the machine, the clock or connections the page does not have.

use super::command::{parse_i64, CommandId, CommandInfo};
use super::help_table::HELP;
use super::introspect::{command, config_get};
use super::reply::{ErrorReply, NotRun, Reply};
use super::route::Session;
use super::sha1::sha1_hex;
use super::{Cluster, Role};

fn other(text: &str) -> Reply {
    Reply::Error(ErrorReply::Other(text.to_owned()))
}

fn bulk(s: &str) -> Reply {
    Reply::Bulk(Some(s.as_bytes().to_vec()))
}

/// `(un)subscribe`'s reply outside a subscription: `[kind, channel or nil, 0]`. Redis sends one
/// such reply per channel; redis-cli prints the first as the command's reply (recorded: `redis-cli
/// unsubscribe a b` prints only `a`'s), and so does the page.
fn unsubscribed(kind: &str, channels: &[Vec<u8>]) -> Reply {
    Reply::Array(vec![
        bulk(kind),
        Reply::Bulk(channels.first().cloned()),
        Reply::Int(0),
    ])
}

/// Whether INFO knows `name` as a section (or a group of them) in Redis 7.0.15.
fn is_info_section(name: &[u8]) -> bool {
    [
        "server",
        "clients",
        "memory",
        "persistence",
        "stats",
        "replication",
        "cpu",
        "modules",
        "errorstats",
        "cluster",
        "keyspace",
        "latencystats",
        "commandstats",
        "all",
        "default",
        "everything",
    ]
    .iter()
    .any(|s| s.as_bytes().eq_ignore_ascii_case(name))
}

impl Cluster {
    /// Answers the non-data commands of the table; `None` hands the command to the data
    /// commands.
    pub(super) fn admin_command(
        &mut self,
        node: usize,
        info: &'static CommandInfo,
        args: &[Vec<u8>],
        session: &mut Session,
    ) -> Option<Reply> {
        use CommandId as C;
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let name = || info.name.to_owned();
        let unsimulated = || Some(NotRun::Unsimulated { name: name() }.into());
        let not_simulated = || Some(NotRun::NotSimulated { name: name() }.into());
        let topology = || Some(NotRun::Topology { name: name() }.into());
        let is = |i: usize, w: &[u8]| arg(i).eq_ignore_ascii_case(w);
        let reply = match info.id {
            C::Command
            | C::CommandCount
            | C::CommandInfo
            | C::CommandDocs
            | C::CommandGetkeys
            | C::CommandGetkeysandflags
            | C::CommandList => command(info, args)?,
            C::ConfigGet => {
                let port = self
                    .nodes
                    .get(node)
                    .and_then(|n| n.addr.rsplit(':').next())
                    .unwrap_or("6379");
                config_get(port, args.get(2..).unwrap_or(&[]))
            }
            C::Select => match parse_i64(arg(1)).map(i32::try_from) {
                None => ErrorReply::NotInteger.into(),
                Some(Err(_)) => other(
                    "ERR value is out of range, value must between -2147483648 and 2147483647",
                ),
                Some(Ok(0)) => Reply::Ok,
                Some(Ok(_)) => ErrorReply::SelectInCluster.into(),
            },
            C::Swapdb => other("ERR SWAPDB is not allowed in cluster mode"),
            C::Move => other("ERR MOVE is not allowed in cluster mode"),
            C::Replicaof | C::Slaveof => other("ERR REPLICAOF not allowed in cluster mode."),
            C::Failover => other(
                "ERR FAILOVER not allowed in cluster mode. Use CLUSTER FAILOVER command instead.",
            ),
            C::ClusterFailover => {
                if args.len() > 3 {
                    let mut text =
                        b"ERR unknown subcommand or wrong number of arguments for '".to_vec();
                    text.extend(arg(1).iter().take_while(|&&b| b != 0).take(128));
                    text.extend_from_slice(b"'. Try CLUSTER HELP.");
                    return Some(other(&String::from_utf8_lossy(&text)));
                }
                if args.len() == 3 && !is(2, b"force") && !is(2, b"takeover") {
                    return Some(ErrorReply::Syntax.into());
                }
                if matches!(self.role(node), Some(Role::Master(_))) {
                    other("ERR You should send CLUSTER FAILOVER to a replica")
                } else {
                    return topology();
                }
            }
            C::Publish | C::Spublish => Reply::Int(0),
            // pubsubCommand takes one pattern at most (the table's arity -2 allows more).
            C::PubsubChannels | C::PubsubShardchannels if args.len() > 3 => {
                let mut text =
                    b"ERR unknown subcommand or wrong number of arguments for '".to_vec();
                text.extend(arg(1).iter().take_while(|&&b| b != 0).take(128));
                text.extend_from_slice(b"'. Try PUBSUB HELP.");
                other(&String::from_utf8_lossy(&text))
            }
            C::PubsubChannels | C::PubsubShardchannels => Reply::Array(Vec::new()),
            C::PubsubNumpat => Reply::Int(0),
            C::PubsubNumsub | C::PubsubShardnumsub => Reply::Array(
                args.iter()
                    .skip(2)
                    .flat_map(|c| [Reply::Bulk(Some(c.clone())), Reply::Int(0)])
                    .collect(),
            ),
            C::Unsubscribe => unsubscribed("unsubscribe", args.get(1..).unwrap_or(&[])),
            C::Punsubscribe => unsubscribed("punsubscribe", args.get(1..).unwrap_or(&[])),
            C::Sunsubscribe => unsubscribed("sunsubscribe", args.get(1..).unwrap_or(&[])),
            C::Subscribe | C::Psubscribe | C::Ssubscribe | C::Monitor => {
                NotRun::Subscribe { name: name() }.into()
            }
            C::AclHelp
            | C::ClientHelp
            | C::ClusterHelp
            | C::CommandHelp
            | C::ConfigHelp
            | C::FunctionHelp
            | C::LatencyHelp
            | C::MemoryHelp
            | C::ModuleHelp
            | C::PubsubHelp
            | C::ScriptHelp
            | C::SlowlogHelp => {
                let container = info.name.split('|').next().unwrap_or_default();
                let lines = HELP
                    .iter()
                    .find(|(c, _)| *c == container)
                    .map_or(&[][..], |(_, lines)| *lines);
                Reply::Array(
                    lines
                        .iter()
                        .map(|l| Reply::Status((*l).to_owned()))
                        .collect(),
                )
            }
            C::ClientGetname => Reply::Bulk(session.name.clone()),
            C::ClientSetname => {
                let name = arg(2);
                if name.iter().any(|&b| !(b'!'..=b'~').contains(&b)) {
                    return Some(other(
                        "ERR Client names cannot contain spaces, newlines or special characters.",
                    ));
                }
                session.name = (!name.is_empty()).then(|| name.to_vec());
                Reply::Ok
            }
            C::ClientNoEvict => {
                if is(2, b"on") || is(2, b"off") {
                    Reply::Ok
                } else {
                    ErrorReply::Syntax.into()
                }
            }
            // A default node: no config file, no ACL file, latency monitor off, no tracking.
            C::ConfigResetstat | C::SlowlogReset | C::MemoryPurge | C::ClientUnpause => Reply::Ok,
            C::ConfigRewrite => other("ERR The server is running without a config file"),
            C::LatencyReset => Reply::Int(0),
            C::LatencyLatest | C::LatencyHistory => Reply::Array(Vec::new()),
            C::AclList => Reply::Array(vec![bulk("user default on nopass ~* &* +@all")]),
            C::AclSave | C::AclLoad => other(
                "ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order to store users in the Redis configuration.",
            ),
            C::ClientGetredir => Reply::Int(-1),
            C::ClientTrackinginfo => Reply::Array(vec![
                bulk("flags"),
                Reply::Array(vec![bulk("off")]),
                bulk("redirect"),
                Reply::Int(-1),
                bulk("prefixes"),
                Reply::Array(Vec::new()),
            ]),
            C::Wait => self.wait(node, info, args),
            // Only the cluster section (and names that are no section) is the same on every
            // run: `# Cluster\r\ncluster_enabled:1\r\n`, or nothing.
            C::Info
                if args.len() > 1
                    && args
                        .iter()
                        .skip(1)
                        .all(|a| !is_info_section(a) || a.eq_ignore_ascii_case(b"cluster")) =>
            {
                let cluster = args
                    .iter()
                    .skip(1)
                    .any(|a| a.eq_ignore_ascii_case(b"cluster"));
                let text: &[u8] = if cluster {
                    b"# Cluster\r\ncluster_enabled:1\r\n"
                } else {
                    b""
                };
                Reply::Bulk(Some(text.to_vec()))
            }
            C::ScriptExists => {
                let scripts = self.nodes.get(node).map(|n| &n.scripts);
                Reply::Array(
                    args.iter()
                        .skip(2)
                        .map(|sha| {
                            let sha = String::from_utf8_lossy(sha).to_ascii_lowercase();
                            Reply::Int(i64::from(scripts.is_some_and(|s| s.contains_key(&sha))))
                        })
                        .collect(),
                )
            }
            C::ScriptFlush => {
                if args.len() > 3 || (args.len() == 3 && !is(2, b"sync") && !is(2, b"async")) {
                    return Some(other("ERR SCRIPT FLUSH only support SYNC|ASYNC option"));
                }
                if let Some(n) = self.nodes.get_mut(node) {
                    n.scripts.clear();
                }
                Reply::Ok
            }
            C::ScriptLoad => {
                // Redis compiles the script first, and refuses one that is not Lua; the page
                // reads only its Lua subset, so a body outside it gets the page's note rather
                // than a SHA-1 Redis might not give.
                if let Err(why) = super::script::check_script(arg(2)) {
                    return Some(NotRun::Script(why).into());
                }
                let sha = sha1_hex(arg(2));
                if let Some(n) = self.nodes.get_mut(node) {
                    n.scripts.insert(sha.clone(), arg(2).to_vec());
                }
                Reply::Bulk(Some(sha.into_bytes()))
            }
            C::ScriptKill | C::FunctionKill => other("NOTBUSY No scripts in execution right now."),
            C::FunctionList => {
                let mut i = 2;
                while i < args.len() {
                    if is(i, b"withcode") {
                        i += 1;
                    } else if is(i, b"libraryname") {
                        if i + 1 >= args.len() {
                            return Some(other("ERR library name argument was not given"));
                        }
                        i += 2;
                    } else {
                        let mut text = b"ERR Unknown argument ".to_vec();
                        text.extend_from_slice(arg(i));
                        return Some(other(&String::from_utf8_lossy(&text)));
                    }
                }
                Reply::Array(Vec::new())
            }
            C::FunctionStats => Reply::Array(vec![
                bulk("running_script"),
                Reply::Bulk(None),
                bulk("engines"),
                Reply::Array(vec![
                    bulk("LUA"),
                    Reply::Array(vec![
                        bulk("libraries_count"),
                        Reply::Int(0),
                        bulk("functions_count"),
                        Reply::Int(0),
                    ]),
                ]),
            ]),
            C::FunctionFlush => Reply::Ok,
            C::FunctionDelete => other("ERR Library not found"),
            C::Fcall | C::FcallRo => ErrorReply::FunctionNotFound.into(),
            C::AclWhoami => bulk("default"),
            C::AclUsers => Reply::Array(vec![bulk("default")]),
            C::AclCat if args.len() == 2 => Reply::Array(
                super::command::flag::ACL_NAMES
                    .iter()
                    .map(|n| bulk(n))
                    .collect(),
            ),
            C::ModuleList => Reply::Array(Vec::new()),
            C::Auth => {
                // The only user is `default`, which has `nopass` (ACL LIST: `user default on
                // nopass ~* &* +@all`): any password is accepted for it; user names are
                // case-sensitive, and any other user does not exist.
                if args.len() > 3 {
                    ErrorReply::Syntax.into()
                } else if args.len() == 2 {
                    ErrorReply::AuthNotConfigured.into()
                } else if args.len() == 3 && args.get(1).is_some_and(|u| u == b"default") {
                    Reply::Ok
                } else {
                    other("WRONGPASS invalid username-password pair or user is disabled.")
                }
            }
            // The simulated clock: seconds and microseconds.
            C::Time => {
                let now = self.now.max(0);
                Reply::Array(vec![
                    bulk(&(now / 1000).to_string()),
                    bulk(&((now % 1000) * 1000).to_string()),
                ])
            }
            // No save ever ran: the time the (simulated) server started.
            C::Lastsave => Reply::Int(super::CLOCK_START_MS / 1000),
            C::ClusterReplicas | C::ClusterSlaves => self.cluster_replicas(node, arg(2)),
            // The page's cluster is healthy unless the lab failed a node: no failure reports
            // then; a failed node's reports are the cluster bus's to count.
            C::ClusterCountFailureReports => match self.lookup_node(arg(2)) {
                None => ErrorReply::SetSlot(super::reply::SetSlotError::UnknownNode {
                    id: String::from_utf8_lossy(arg(2)).into_owned(),
                })
                .into(),
                Some(_) if self.node_has_failed(arg(2)) => return topology(),
                Some(_) => Reply::Int(0),
            },
            // Output that changes from run to run (ids, times, counters, memory).
            C::Info
            | C::Role
            | C::Hello
            | C::Lolwut
            | C::ClusterInfo
            | C::ClusterShards
            | C::ClusterLinks
            | C::ClientId
            | C::ClientInfo
            | C::ClientList
            | C::MemoryStats
            | C::MemoryDoctor
            | C::MemoryMallocStats
            | C::MemoryUsage
            | C::SlowlogGet
            | C::SlowlogLen
            | C::LatencyDoctor
            | C::LatencyGraph
            | C::LatencyHistogram
            | C::AclLog
            | C::FunctionDump => return unsimulated(),
            // The cluster's shape: the topology lab's work.
            C::ClusterAddslots
            | C::ClusterAddslotsrange
            | C::ClusterDelslots
            | C::ClusterDelslotsrange
            | C::ClusterFlushslots
            | C::ClusterForget
            | C::ClusterMeet
            | C::ClusterReplicate
            | C::ClusterReset
            | C::ClusterBumpepoch
            | C::ClusterSetConfigEpoch
            | C::ClusterSaveconfig
            => return topology(),
            _ if self.is_server_side(info) => return not_simulated(),
            _ => return None,
        };
        Some(reply)
    }

    /// Whether the command acts on the server itself (the groups the data commands never
    /// reach): everything left of the server, connection, cluster, pub/sub and scripting
    /// groups once the commands above are answered.
    fn is_server_side(&self, info: &CommandInfo) -> bool {
        use CommandId as C;
        let container = info.name.split('|').next().unwrap_or(info.name);
        matches!(
            container,
            "acl"
                | "client"
                | "config"
                | "latency"
                | "memory"
                | "module"
                | "slowlog"
                | "script"
                | "function"
                | "cluster"
                | "command"
                | "pubsub"
        ) || matches!(
            info.id,
            C::Bgrewriteaof
                | C::Bgsave
                | C::Save
                | C::Shutdown
                | C::Psync
                | C::Sync
                | C::Replconf
                | C::Auth
                | C::Hello
                | C::Lolwut
                | C::Monitor
        )
    }

    /// `WAIT numreplicas timeout`: a master answers how many replicas have acknowledged its
    /// writes (all of its connected replicas, on the page); a replica refuses.
    fn wait(&self, node: usize, info: &CommandInfo, args: &[Vec<u8>]) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let master = match self.role(node) {
            Some(Role::Master(m)) => m,
            _ => {
                return other(
                    "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.",
                );
            }
        };
        let Some(wanted) = parse_i64(arg(1)) else {
            return ErrorReply::NotInteger.into();
        };
        let timeout = match parse_i64(arg(2)) {
            None => return other("ERR timeout is not an integer or out of range"),
            Some(t) if t < 0 => return other("ERR timeout is negative"),
            Some(t) => t,
        };
        let replicas = self.map.masters().get(master).map_or(0, |m| {
            m.replicas
                .iter()
                .filter(|r| !r.flags.iter().any(|f| f == "fail" || f == "fail?"))
                .count()
        }) as i64;
        if wanted > replicas && timeout == 0 {
            return NotRun::WaitsForever {
                name: info.name.to_owned(),
            }
            .into();
        }
        Reply::Int(replicas)
    }
}
