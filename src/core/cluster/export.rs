//! A slot map written back as `CLUSTER NODES` text, which [`super::import::import`] reads back.

#[cfg(doc)]
use crate::core::cluster::topology::Master;
use crate::core::cluster::topology::SlotMap;

/// The topology as `CLUSTER NODES` text: one line per master, each followed by its replicas'
/// lines. Ping and pong times are 0, a master's config epoch is [`Master::epoch`] (its replicas
/// show the same, as Redis writes a replica's master's epoch), a node flagged `fail` has its link
/// `disconnected` (Redis drops the link to a node it cannot reach) and every other one
/// `connected`, the cluster bus port is the port + 10000 (0 for port 0,
/// as `noaddr` nodes show `:0@0`), and each master's line carries its own open slots
/// (`[5712->-<id>]`, `[5712-<-<id>]`; real Redis shows them only on the answering node's line).
/// Flags are written `myself` first, then the role, then the rest, as Redis orders them.
///
/// [`import`](super::import::import) of the result gives back the same masters, ranges, replicas, flags, hostnames and
/// open slots, in address order (the order an import produces), provided node ids are 40 hex
/// digits and addresses end in `:port`, as in any real cluster.
pub fn export_nodes(map: &SlotMap) -> String {
    let ranges = map.ranges_by_master();
    let mut out = String::new();
    for (i, master) in map.masters().iter().enumerate() {
        let epoch = master.epoch;
        out.push_str(&master.id);
        out.push(' ');
        out.push_str(&bus_address(&master.addr, master.hostname.as_deref()));
        out.push(' ');
        out.push_str(&flags_field(&master.flags, "master"));
        out.push_str(&format!(" - 0 0 {epoch} {}", link_state(&master.flags)));
        for range in ranges.get(i).into_iter().flatten() {
            out.push_str(&format!(" {range}"));
        }
        for (slot, id) in &master.migrating {
            out.push_str(&format!(" [{slot}->-{id}]"));
        }
        for (slot, id) in &master.importing {
            out.push_str(&format!(" [{slot}-<-{id}]"));
        }
        out.push('\n');
        for replica in &master.replicas {
            out.push_str(&format!(
                "{} {} {} {} 0 0 {epoch} {}\n",
                replica.id,
                bus_address(&replica.addr, None),
                flags_field(&replica.flags, "slave"),
                master.id,
                link_state(&replica.flags)
            ));
        }
    }
    out
}

/// `disconnected` for a node flagged `fail`, else `connected`.
fn link_state(flags: &[String]) -> &'static str {
    if flags.iter().any(|f| f == "fail") {
        "disconnected"
    } else {
        "connected"
    }
}

/// `ip:port@cport[,hostname]` with the default bus port (port + 10000, or 0 for port 0).
fn bus_address(addr: &str, hostname: Option<&str>) -> String {
    let cport = match addr.rsplit_once(':').map(|(_, p)| p.parse::<u64>()) {
        Some(Ok(0)) | None | Some(Err(_)) => 0,
        Some(Ok(port)) => port.saturating_add(10000),
    };
    match hostname {
        Some(h) => format!("{addr}@{cport},{h}"),
        None => format!("{addr}@{cport}"),
    }
}

/// Redis writes `myself` first, then the role, then the other flags.
fn flags_field(flags: &[String], role: &str) -> String {
    let mut words: Vec<&str> = Vec::with_capacity(flags.len() + 1);
    if flags.iter().any(|f| f == "myself") {
        words.push("myself");
    }
    words.push(role);
    words.extend(
        flags
            .iter()
            .map(String::as_str)
            .filter(|f| !matches!(*f, "myself" | "master" | "slave" | "replica" | "noflags")),
    );
    words.join(",")
}
