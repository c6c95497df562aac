//! `CLUSTER SHARDS` (Redis 7): per shard, its slots and its nodes, from either redis-cli form.

use super::build::{NodeInfo, Role};
use super::error::{Expected as E, Found, ImportError, ImportErrorKind};
use super::lines::{expected, is_host, shorten, text, Line};
use super::tree::{
    field, fields, hostname_value, id_value, item, list, port_value, raw_is, raw_value, slot_range,
    Node, Value,
};
use std::collections::HashMap;

/// Rebuilds `redis-cli --raw CLUSTER SHARDS` output (one value per line, empty arrays as blank
/// lines, which were skipped) into the terminal form's tree. The field names drive it: `slots`
/// opens a shard, `nodes` its node list, `id` each node; every other name is followed by its
/// value.
pub(super) fn raw_shards(content: &[Line<'_>]) -> Result<Node, ImportError> {
    let mut shards = Vec::new();
    let mut i = 0;
    while let Some(start) = content.get(i) {
        if !raw_is(Some(start), "slots") {
            return Err(expected(
                start.no,
                E::RawShardStart,
                text(start.text.trim()),
            ));
        }
        i += 1;
        let mut slots = Vec::new();
        while let Some(l) = content.get(i).filter(|l| l.text.trim() != "nodes") {
            slots.push(raw_value(l));
            i += 1;
        }
        if content.get(i).is_none() {
            return Err(expected(start.no, E::RawShardNodes, Found::EndOfPaste));
        }
        i += 1;
        let mut nodes = Vec::new();
        while let Some(node_start) = content.get(i).filter(|l| l.text.trim() != "slots") {
            if !raw_is(Some(node_start), "id") {
                return Err(expected(
                    node_start.no,
                    E::RawNodeStart,
                    text(node_start.text.trim()),
                ));
            }
            let mut fields = Vec::new();
            // Name/value pairs, up to the next node (`id`) or the next shard (`slots`).
            while let Some(key) = content.get(i) {
                let Some(value) = content.get(i + 1) else {
                    return Err(expected(
                        key.no,
                        E::ValueOf(shorten(key.text.trim())),
                        Found::EndOfPaste,
                    ));
                };
                fields.push(raw_value(key));
                fields.push(raw_value(value));
                i += 2;
                if raw_is(content.get(i), "id") || raw_is(content.get(i), "slots") {
                    break;
                }
            }
            nodes.push(Node {
                line: node_start.no,
                value: Value::Array(fields),
            });
        }
        let word = |w: &str| Node {
            line: start.no,
            value: Value::Str(w.to_owned()),
        };
        shards.push(Node {
            line: start.no,
            value: Value::Array(vec![
                word("slots"),
                Node {
                    line: start.no,
                    value: Value::Array(slots),
                },
                word("nodes"),
                Node {
                    line: start.no,
                    value: Value::Array(nodes),
                },
            ]),
        });
    }
    Ok(Node {
        line: content.first().map_or(1, |l| l.no),
        value: Value::Array(shards),
    })
}

// CLUSTER SHARDS: per shard, "slots" (a flat list of first/last pairs) and "nodes" (each a map:
// id, port or tls-port, ip, endpoint, hostname, role, replication-offset, health).

pub(super) fn read_shards(root: &Node) -> Result<Vec<NodeInfo>, ImportError> {
    let shards = list(root, E::ShardList)?;
    let mut out: Vec<NodeInfo> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for shard in shards {
        let shard_fields = fields(shard, E::Shard)?;
        let slots_node = field(&shard_fields, "slots")
            .ok_or_else(|| expected(shard.line, E::ShardField("slots"), Found::Missing))?;
        let nodes_node = field(&shard_fields, "nodes")
            .ok_or_else(|| expected(shard.line, E::ShardField("nodes"), Found::Missing))?;
        let slot_items = list(slots_node, E::ShardSlots)?;
        let mut ranges = Vec::with_capacity(slot_items.len() / 2);
        for pair in slot_items.chunks(2) {
            let Some(first) = pair.first() else { continue };
            let last = item(pair, 1, first.line, E::LastSlot)?;
            ranges.push((first.line, slot_range(first, last)?));
        }

        let mut members = Vec::new();
        for node in list(nodes_node, E::ShardNodes)? {
            let f = fields(node, E::ShardNode)?;
            let need = |name: &'static str| {
                field(&f, name)
                    .ok_or_else(|| expected(node.line, E::NodeField(name), Found::Missing))
            };
            let id = id_value(need("id")?)?;
            let port = port_value(
                field(&f, "port")
                    .or_else(|| field(&f, "tls-port"))
                    .ok_or_else(|| expected(node.line, E::NodeField("port"), Found::Missing))?,
            )?;
            let ip_node = field(&f, "ip")
                .or_else(|| field(&f, "endpoint"))
                .ok_or_else(|| expected(node.line, E::NodeField("ip"), Found::Missing))?;
            let ip = ip_node
                .text()
                .filter(|ip| is_host(ip))
                .ok_or_else(|| expected(ip_node.line, E::Ip, ip_node.describe()))?;
            let hostname = match field(&f, "hostname") {
                Some(h) => hostname_value(h)?,
                None => None,
            };
            let role_node = need("role")?;
            let is_master = match role_node.text().as_deref() {
                Some("master") => true,
                Some("replica" | "slave") => false,
                _ => return Err(expected(role_node.line, E::Role, role_node.describe())),
            };
            let mut info = NodeInfo::new(
                node.line,
                id,
                format!("{ip}:{port}"),
                hostname,
                Role::Master,
            );
            // SHARDS says "fail" (docs: "failed") for a node flagged FAIL: the one flag it shows.
            if field(&f, "health")
                .and_then(Node::text)
                .is_some_and(|h| h == "fail" || h == "failed")
            {
                info.flags.push("fail".to_owned());
            }
            if let Some(&first_line) = seen.get(&info.id) {
                return Err(ImportError::at(
                    node.line,
                    ImportErrorKind::DuplicateNode {
                        id: info.id,
                        first_line,
                    },
                ));
            }
            seen.insert(info.id.clone(), node.line);
            members.push((is_master, info));
        }

        // The shard's slots go to its master. Should a shard list two (a failed old master
        // beside the promoted replica), a master that is not failed gets them; the other
        // stays a master without slots.
        let owner = members
            .iter()
            .position(|(m, n)| *m && !n.flags.iter().any(|f| f == "fail"))
            .or_else(|| members.iter().position(|(m, _)| *m));
        let Some(owner) = owner else {
            return Err(expected(shard.line, E::ShardMaster, Found::OnlyReplicas));
        };
        let owner_id = members
            .get(owner)
            .map(|(_, n)| n.id.clone())
            .unwrap_or_default();
        for (i, (is_master, mut info)) in members.into_iter().enumerate() {
            if i == owner {
                info.slots = std::mem::take(&mut ranges);
            } else if !is_master {
                info.role = Role::ReplicaOf(Some(owner_id.clone()));
            }
            out.push(info);
        }
    }
    Ok(out)
}
