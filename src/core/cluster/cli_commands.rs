//! The shell commands the lab shows: the `redis-cli --cluster reshard / rebalance / del-node`
//! line that was run, and for a set of slot moves by hand one `redis-cli --cluster reshard` line
//! where it reproduces the batch exactly, otherwise the per-slot SETSLOT / GETKEYSINSLOT /
//! MIGRATE sequence redis-cli itself sends (`clusterManagerMoveSlot`).

use super::rebalance::RebalanceOptions;
use super::reshard::{apply, entry_master, usable, SlotMove};
use crate::core::cluster::topology::{Master, SlotMap};
use crate::core::key::slot::N_SLOTS;

/// `host` and `port` of an address as redis-cli prints it (`127.0.0.1:7000`, `::1:7000`).
fn host_port(addr: &str) -> (&str, &str) {
    let addr = addr.split('@').next().unwrap_or(addr);
    addr.rsplit_once(':').unwrap_or((addr, "6379"))
}

/// A word safe to paste into a POSIX shell: as is if it holds only harmless characters,
/// otherwise in single quotes.
fn sh(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:-/,=+".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The entry node's address, shell-quoted (empty when there is no master).
fn entry(map: &SlotMap) -> String {
    entry_master(map)
        .and_then(|m| map.masters().get(m))
        .map_or_else(String::new, |m| sh(&m.addr))
}

/// A master's node id, shell-quoted (empty when there is no such master).
fn id_of(map: &SlotMap, m: usize) -> String {
    map.masters().get(m).map_or_else(String::new, |m| sh(&m.id))
}

/// `redis-cli --cluster reshard <entry> --cluster-from all --cluster-to <id> --cluster-slots <n>
/// --cluster-yes`, as transcript 13 ran it.
pub fn reshard_all_line(map: &SlotMap, target: usize, n_slots: usize) -> String {
    format!(
        "redis-cli --cluster reshard {} --cluster-from all --cluster-to {} --cluster-slots {n_slots} --cluster-yes",
        entry(map),
        id_of(map, target)
    )
}

/// `redis-cli --cluster reshard <entry> --cluster-from <id>,<id> --cluster-to <id>
/// --cluster-slots <n> --cluster-yes`, as `fixtures/failover/del_node` ran it with one source.
pub fn sources_line(map: &SlotMap, sources: &[usize], target: usize, n_slots: usize) -> String {
    let ids: Vec<String> = sources.iter().map(|&m| id_of(map, m)).collect();
    format!(
        "redis-cli --cluster reshard {} --cluster-from {} --cluster-to {} --cluster-slots {n_slots} --cluster-yes",
        entry(map),
        ids.join(","),
        id_of(map, target)
    )
}

/// `redis-cli --cluster rebalance <entry>` with the options given: `--cluster-weight <id>=<w> …`
/// (one flag, the pairs space-separated, as redis-cli wants them), `--cluster-threshold <t>`
/// when it is not the default 2, `--cluster-use-empty-masters`. Transcript 15 ran it bare.
pub fn rebalance_line(map: &SlotMap, opts: &RebalanceOptions) -> String {
    let mut line = format!("redis-cli --cluster rebalance {}", entry(map));
    if !opts.weights.is_empty() {
        line.push_str(" --cluster-weight");
        for &(m, w) in &opts.weights {
            line.push_str(&format!(" {}={w}", id_of(map, m)));
        }
    }
    if opts.threshold != 2.0 {
        line.push_str(&format!(" --cluster-threshold {}", opts.threshold));
    }
    if opts.use_empty_masters {
        line.push_str(" --cluster-use-empty-masters");
    }
    line
}

/// `redis-cli --cluster del-node <entry> <id>` (`fixtures/failover/del_node`), entering at the
/// first master of `after`, the cluster without the node, that has not failed.
pub fn del_node_line(after: &SlotMap, id: &str) -> String {
    format!("redis-cli --cluster del-node {} {}", entry(after), sh(id))
}

/// `redis-cli -h <host> -p <port> SHUTDOWN NOSAVE`: the node at `addr` stops.
pub fn shutdown_line(addr: &str) -> String {
    let (h, p) = host_port(addr);
    format!("redis-cli -h {} -p {} SHUTDOWN NOSAVE", sh(h), sh(p))
}

/// The shell commands an engineer would paste to perform `moves` by hand, one string per step
/// (a step can span several lines).
///
/// Moves are taken in batches of consecutive moves with the same giver and receiver. When a
/// batch is exactly the giver's lowest-numbered slots at that point (which is what every reshard
/// and rebalance here produces), one line reproduces it exactly:
/// `redis-cli --cluster reshard <entry> --cluster-from <id> --cluster-to <id> --cluster-slots <n>
/// --cluster-yes`, with `<entry>` the first master that has not failed.
/// Otherwise each run of consecutive slots becomes the sequence redis-cli itself sends per slot
/// (`clusterManagerMoveSlot`): `CLUSTER SETSLOT <slot> IMPORTING <giver id>` on the receiver,
/// `CLUSTER SETSLOT <slot> MIGRATING <receiver id>` on the giver, `CLUSTER GETKEYSINSLOT <slot>
/// 10` and `MIGRATE <host> <port> "" 0 60000 KEYS …` until the slot is empty, then `CLUSTER
/// SETSLOT <slot> NODE <receiver id>` on the receiver, the giver and every other master —
/// wrapped in `for slot in $(seq A B); do … done` for a run of several slots. (The key loop
/// splits the key list on white space, so keys containing spaces need care.)
pub fn redis_cli_commands(map: &SlotMap, moves: &[SlotMove]) -> Vec<String> {
    let n = map.n_masters();
    let mut work = map.clone();
    let mut out = Vec::new();
    let valid: Vec<SlotMove> = moves
        .iter()
        .copied()
        .filter(|m| m.from < n && m.to < n && m.from != m.to && (m.slot as usize) < N_SLOTS)
        .collect();
    let mut i = 0;
    while i < valid.len() {
        let (from, to) = (valid[i].from, valid[i].to);
        let mut j = i;
        while j < valid.len() && valid[j].from == from && valid[j].to == to {
            j += 1;
        }
        let batch = &valid[i..j];
        let lowest: Vec<u16> = (0..N_SLOTS as u16)
            .filter(|&s| work.owner(s) == Some(from))
            .take(batch.len())
            .collect();
        let exact = lowest.len() == batch.len()
            && lowest.iter().zip(batch).all(|(&s, m)| s == m.slot)
            && usable(&work, from)
            && usable(&work, to);
        if exact {
            out.push(reshard_line(&work, from, to, batch.len()));
        } else {
            let mut k = 0;
            while k < batch.len() {
                let mut e = k + 1;
                while e < batch.len() && batch[e].slot == batch[e - 1].slot.wrapping_add(1) {
                    e += 1;
                }
                out.push(manual_block(
                    &work,
                    from,
                    to,
                    batch[k].slot,
                    batch[e - 1].slot,
                ));
                k = e;
            }
        }
        apply(&mut work, batch);
        i = j;
    }
    out
}

fn reshard_line(map: &SlotMap, from: usize, to: usize, n: usize) -> String {
    sources_line(map, &[from], to, n)
}

/// The per-slot sequence for slots `first..=last` from `from` to `to`.
fn manual_block(map: &SlotMap, from: usize, to: usize, first: u16, last: u16) -> String {
    let masters = map.masters();
    let (src, dst) = (&masters[from], &masters[to]);
    let cli = |m: &Master| {
        let (h, p) = host_port(&m.addr);
        format!("redis-cli -h {} -p {}", sh(h), sh(p))
    };
    let (dst_host, dst_port) = host_port(&dst.addr);
    let slot = if first == last {
        first.to_string()
    } else {
        "$slot".to_owned()
    };
    let mut lines = vec![
        format!(
            "{} CLUSTER SETSLOT {slot} IMPORTING {}",
            cli(dst),
            sh(&src.id)
        ),
        format!(
            "{} CLUSTER SETSLOT {slot} MIGRATING {}",
            cli(src),
            sh(&dst.id)
        ),
        format!(
            "while keys=$({} CLUSTER GETKEYSINSLOT {slot} 10) && [ -n \"$keys\" ]; do {} MIGRATE {} {} \"\" 0 60000 KEYS $keys; done",
            cli(src),
            cli(src),
            sh(dst_host),
            sh(dst_port)
        ),
    ];
    // SETSLOT NODE goes to every master redis-cli knows: the receiver and giver first here, so
    // the slot is settled on the two nodes that matter before the others hear of it.
    let mut order = vec![to, from];
    order.extend((0..masters.len()).filter(|&m| m != to && m != from));
    for m in order {
        if masters[m].is_failed() {
            continue;
        }
        lines.push(format!(
            "{} CLUSTER SETSLOT {slot} NODE {}",
            cli(&masters[m]),
            sh(&dst.id)
        ));
    }
    if first == last {
        lines.join("\n")
    } else {
        let body: Vec<String> = lines.iter().map(|l| format!("  {l}")).collect();
        format!(
            "for slot in $(seq {first} {last}); do\n{}\ndone",
            body.join("\n")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_split_at_the_last_colon() {
        assert_eq!(host_port("127.0.0.1:7000"), ("127.0.0.1", "7000"));
        assert_eq!(host_port("::1:7000"), ("::1", "7000"));
        assert_eq!(host_port("10.0.0.1:7000@17000"), ("10.0.0.1", "7000"));
        assert_eq!(host_port("localhost"), ("localhost", "6379"));
    }

    #[test]
    fn odd_words_are_quoted_for_the_shell() {
        assert_eq!(sh("abc123"), "abc123");
        assert_eq!(sh("a b"), "'a b'");
        assert_eq!(sh("it's"), r"'it'\''s'");
        assert_eq!(sh(""), "''");
    }
}
