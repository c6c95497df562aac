//! A pasted batch: redis-cli command lines (or a list of keys for one command), each answered
//! as a real cluster answers it from the node the reader picked, with each line's keys and slots.

use super::KeySample;
use crate::core::cluster::topology::SlotMap;
use crate::core::key::args::split_args;
use crate::core::key::escape::EscapeError;
use crate::core::key::slot::key_slot;
use crate::core::server::command::{find_command, key_positions};
use crate::core::server::reply::{cli_text, ErrorReply, Reply};
use crate::core::server::route::{Route, Session};
use crate::core::server::Cluster;

/// The most lines the page answers one by one (more is a batch to plan, not to read).
pub const MAX_LINES: usize = 2_000;

/// What became of one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The node's reply.
    Reply(Reply),
    /// redis-cli could not split the line (unbalanced quotes): nothing was sent.
    Invalid(EscapeError),
}

/// One answered line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the paste.
    pub line_no: usize,
    /// The line as typed (trimmed).
    pub text: String,
    /// The key arguments with their slots, in order.
    pub keys: Vec<(Vec<u8>, u16)>,
    /// The reply, or why nothing was sent.
    pub outcome: Outcome,
}

impl Line {
    /// The reply as redis-cli prints it, without the `(error) ` prefix (the page's verdict).
    pub fn verdict(&self) -> String {
        match &self.outcome {
            Outcome::Reply(Reply::Error(e)) => e.to_string(),
            Outcome::Reply(r) => {
                // `CLUSTER NODES` and the like are printed raw, as redis-cli prints them.
                let args = split_args(&self.text).unwrap_or_default();
                let cli = cli_text(&args, r);
                cli.strip_suffix('\n').unwrap_or(&cli).to_string()
            }
            // redis-cli's own words; the page adds the reason in its language.
            Outcome::Invalid(_) => "Invalid argument(s)".to_owned(),
        }
    }

    /// Whether the line failed (an error reply, or not sent at all).
    pub fn is_error(&self) -> bool {
        match &self.outcome {
            Outcome::Reply(r) => r.is_error(),
            Outcome::Invalid(_) => true,
        }
    }
}

/// Why a batch was not answered at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// The node is not part of the cluster.
    NoSuchNode {
        /// The address given.
        addr: String,
    },
    /// More lines than [`MAX_LINES`].
    TooManyLines {
        /// How many there were.
        lines: usize,
    },
}

/// Sends every non-blank line of `text` to `node` of a fresh cluster shaped like `map`, in
/// order, on one connection (so MULTI … EXEC blocks behave as in redis-cli), and collects the
/// replies. A line redis-cli cannot split is reported and skipped; the rest still run.
pub fn run_lines(map: &SlotMap, node: &str, text: &str) -> Result<Vec<Line>, BatchError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if lines.len() > MAX_LINES {
        return Err(BatchError::TooManyLines { lines: lines.len() });
    }
    let mut cluster = Cluster::new(map.clone());
    if !cluster.has_node(node) {
        return Err(BatchError::NoSuchNode {
            addr: node.to_string(),
        });
    }
    let mut session = Session::new();
    Ok(lines
        .into_iter()
        .map(|(line_no, line)| match split_args(line) {
            Err(e) => Line {
                line_no,
                text: line.to_string(),
                keys: Vec::new(),
                outcome: Outcome::Invalid(e),
            },
            Ok(args) => {
                let keys = key_positions(&args)
                    .map(|spec| {
                        spec.keys(&args)
                            .into_iter()
                            .map(|k| (k.to_vec(), key_slot(k)))
                            .collect()
                    })
                    .unwrap_or_default();
                let reply = cluster.exec(node, &args, &mut session);
                Line {
                    line_no,
                    text: line.to_string(),
                    keys,
                    outcome: Outcome::Reply(reply),
                }
            }
        })
        .collect())
}

/// What `node` of a fresh cluster shaped like `map` answers when `command` (one of
/// [`KEY_COMMANDS`]) is sent with every key of `keys` at once, routed as Redis routes it
/// (`getNodeByQuery`) without building a command of up to a million arguments: the error reply
/// Redis sends (`CROSSSLOT …`, `CLUSTERDOWN Hash slot not served`, `MOVED …`), or the slot the
/// node serves the keys from. `Ok(None)`: no keys, or a command the table does not know.
pub fn route_key_batch(
    map: &SlotMap,
    node: &str,
    command: &str,
    keys: &KeySample,
) -> Result<Option<u16>, ErrorReply> {
    let cluster = Cluster::new(map.clone());
    let Some(route) = cluster.route_keys_sent(node, command, keys) else {
        return Ok(None);
    };
    match (route.error(), route) {
        (Some(e), _) => Err(e),
        (None, Route::Here { slot }) => Ok(slot),
        (None, _) => Ok(None),
    }
}

/// The commands a plain list of keys can be sent as, one command for the whole batch.
pub const KEY_COMMANDS: &[&str] = &["MGET", "DEL", "UNLINK", "EXISTS", "TOUCH", "MSET"];

/// The one command that sends all `keys` at once: `MGET k1 k2 …`, or for MSET each key with a
/// made-up value (`MSET k1 v1 k2 v2 …`).
pub fn command_for_keys(command: &str, keys: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut args = vec![command.as_bytes().to_vec()];
    let values = takes_values(command);
    for (i, key) in keys.iter().enumerate() {
        args.push(key.clone());
        if values {
            args.push(placeholder_value(i).into_bytes());
        }
    }
    args
}

/// The command a batch of answered command lines reads as in one word, for its per-slot plan:
/// the key-only command of [`KEY_COMMANDS`] (DEL, UNLINK, EXISTS, TOUCH, MGET) that every line
/// with keys was sent as, in any case; `None` when the lines mix commands, send none of those,
/// or have no keys. MSET is never the answer: its plan would replace the lines' values.
pub fn common_key_command(lines: &[Line]) -> Option<&'static str> {
    let mut common = None;
    for line in lines.iter().filter(|l| !l.keys.is_empty()) {
        let name = split_args(&line.text).ok()?.into_iter().next()?;
        let found = KEY_COMMANDS
            .iter()
            .copied()
            .filter(|c| !takes_values(c))
            .find(|c| c.as_bytes().eq_ignore_ascii_case(&name))?;
        if common.is_some_and(|c| c != found) {
            return None;
        }
        common = Some(found);
    }
    common
}

/// The values pasted write commands give their keys, in the order of the lines' keys (a
/// batch's keys), when every line with keys is a plain write of values (`SET k v`, nothing
/// after the value; `MSET k v …`): the per-slot plan of such a batch is MSET with these
/// values, not placeholders. `None` for any other command, a SET with options, or no keys.
pub fn written_values(lines: &[Line]) -> Option<KeySample> {
    let mut values = KeySample::new();
    for line in lines.iter().filter(|l| !l.keys.is_empty()) {
        let args = split_args(&line.text).ok()?;
        let (name, rest) = args.split_first()?;
        let plain_set = name.eq_ignore_ascii_case(b"SET") && rest.len() == 2;
        let mset = name.eq_ignore_ascii_case(b"MSET") && rest.len() % 2 == 0;
        if !(plain_set || mset) || rest.len() != 2 * line.keys.len() {
            return None;
        }
        for pair in rest.chunks(2) {
            values.push(&pair[1]);
        }
    }
    (!values.is_empty()).then_some(values)
}

/// Whether a line read as a key looks like a command line instead: a command's name (any
/// case), a space, and more (`DEL k:1`), as when commands are pasted with a key command
/// chosen.
pub fn looks_like_command(key: &[u8]) -> bool {
    let Some(space) = key.iter().position(|&b| b == b' ') else {
        return false;
    };
    space + 1 < key.len() && find_command(&[key[..space].to_vec()]).is_some()
}

/// Whether `command` (one of [`KEY_COMMANDS`]) takes a value after each key: MSET.
fn takes_values(command: &str) -> bool {
    command.eq_ignore_ascii_case("MSET")
}

/// The made-up value of the `i`th key (from 0) where a command needs one: `v1`, `v2`, …
fn placeholder_value(i: usize) -> String {
    format!("v{}", i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hash, set, sorted-set, list, HyperLogLog and keyspace commands are routed as Redis
    /// routes them (key positions and arity from Redis 7.0.15's table): CROSSSLOT, MOVED and
    /// wrong arity as a node answers, never "unknown command"; one the node would serve says
    /// the page does not run it.
    #[test]
    fn other_types_are_routed_as_redis_routes_them() {
        let map = SlotMap::fixture_cluster();
        let text = "PFCOUNT hello bar\nCOPY hello bar\nSUNION hello bar\nHGET foo f\nLPUSH foo x\nZADD a 1\nHSET hello f v\nKEYS *";
        let verdicts: Vec<String> = run_lines(&map, "127.0.0.1:7000", text)
            .unwrap()
            .iter()
            .map(Line::verdict)
            .collect();
        let crossslot = "CROSSSLOT Keys in request don't hash to the same slot";
        assert_eq!(verdicts[..3], [crossslot, crossslot, crossslot]);
        assert_eq!(verdicts[3], "MOVED 12182 127.0.0.1:7002");
        assert_eq!(verdicts[4], "MOVED 12182 127.0.0.1:7002");
        assert_eq!(
            verdicts[5],
            "ERR wrong number of arguments for 'zadd' command"
        );
        // HSET and KEYS run on the node's typed key space (empty before).
        assert_eq!(verdicts[6], "(integer) 1");
        assert_eq!(verdicts[7], "1) \"hello\"");
    }

    /// A command the engine does not run is answered with the page's note as data (so the page
    /// can word it in the reader's language), printed as an `ERR slotscope …` error (so its fate
    /// in a transaction or a script is Redis's).
    #[test]
    fn commands_not_run_are_notes() {
        use crate::core::server::reply::NotRun;
        let map = SlotMap::fixture_cluster();
        let text =
            "INFO\nCLUSTER INFO\nEXPIRE hello 10\nSET hello v EX 10\nHSET hello f v\nGET hello";
        let lines = run_lines(&map, "127.0.0.1:7000", text).unwrap();
        let notes: Vec<Option<NotRun>> = lines
            .iter()
            .map(|l| match &l.outcome {
                Outcome::Reply(Reply::Error(ErrorReply::NotRun(n))) => Some(n.clone()),
                _ => None,
            })
            .collect();
        let named = |name: &str| name.to_owned();
        assert_eq!(
            notes,
            vec![
                Some(NotRun::Unsimulated {
                    name: named("info")
                }),
                Some(NotRun::Unsimulated {
                    name: named("cluster|info")
                }),
                // EXPIRE and SET … EX run on the simulated clock; HSET runs.
                None,
                None,
                None,
                None,
            ]
        );
        // Recorded from redis-server 7.0.15: EXPIRE of a missing key is 0; SET … EX is OK.
        assert_eq!(lines[2].verdict(), "(integer) 0");
        assert_eq!(lines[3].verdict(), "OK");
    }

    /// Pasted commands read as one key command when every line with keys is that command (a
    /// line without keys, such as MULTI or PING, does not count); never as MSET, whose plan
    /// would write placeholder values over the lines' own.
    #[test]
    fn pasted_commands_read_as_one_key_command_when_they_are_one() {
        let map = SlotMap::fixture_cluster();
        let common =
            |text: &str| common_key_command(&run_lines(&map, "127.0.0.1:7000", text).unwrap());
        assert_eq!(common("DEL a\ndel b c\nMULTI\nDEL {a}x\nEXEC"), Some("DEL"));
        assert_eq!(common("unlink a\nUNLINK b"), Some("UNLINK"));
        assert_eq!(common("EXISTS a b\nPING"), Some("EXISTS"));
        assert_eq!(common("MGET a b\nMGET c"), Some("MGET"));
        assert_eq!(common("DEL a\nUNLINK b"), None);
        assert_eq!(common("DEL a\nGET b"), None);
        assert_eq!(common("MSET a 1 b 2"), None);
        assert_eq!(common("SET a 1"), None);
        assert_eq!(common("PING\nINFO"), None);
        assert_eq!(common(""), None);
    }

    #[test]
    fn a_key_that_starts_with_a_command_and_a_space_looks_like_a_command() {
        for line in ["DEL k:1", "get user:1", "CLUSTER KEYSLOT x", "mset a 1"] {
            assert!(looks_like_command(line.as_bytes()), "{line}");
        }
        for key in ["user:1", "DEL", "DEL ", "nosuchcommand x", "user 1", ""] {
            assert!(!looks_like_command(key.as_bytes()), "{key}");
        }
    }

    /// A generated batch is routed as Redis routes one command carrying all its keys: Redis's
    /// `CLUSTERDOWN Hash slot not served` (no slot number) for a slot nobody serves, checked
    /// on the first key before CROSSSLOT; CROSSSLOT for served keys in several slots; MOVED
    /// from a node that does not own the one slot; the slot when it does.
    #[test]
    fn a_generated_batch_is_answered_as_redis_answers_it() {
        let mut map = SlotMap::fixture_cluster();
        let keys = |ks: &[&[u8]]| {
            let mut sample = KeySample::new();
            for k in ks {
                sample.push(k);
            }
            sample
        };
        let one = keys(&[b"{user1}:a", b"{user1}:b"]);
        let cross = keys(&[b"hello", b"foo"]);
        let text = |r: Result<Option<u16>, ErrorReply>| match r {
            Err(e) => e.to_string(),
            Ok(slot) => format!("{slot:?}"),
        };
        let m0 = "127.0.0.1:7000";
        let m1 = "127.0.0.1:7001";
        assert_eq!(text(route_key_batch(&map, m1, "MGET", &one)), "Some(8106)");
        assert_eq!(
            text(route_key_batch(&map, m0, "MGET", &one)),
            "MOVED 8106 127.0.0.1:7001"
        );
        assert_eq!(
            text(route_key_batch(&map, m0, "DEL", &cross)),
            "CROSSSLOT Keys in request don't hash to the same slot"
        );
        map.assign(8106, None);
        map.assign(866, None);
        assert_eq!(
            text(route_key_batch(&map, m1, "MGET", &one)),
            "CLUSTERDOWN Hash slot not served"
        );
        assert_eq!(
            text(route_key_batch(&map, m0, "MGET", &cross)),
            "CLUSTERDOWN Hash slot not served"
        );
        assert_eq!(text(route_key_batch(&map, m0, "MGET", &keys(&[]))), "None");
    }

    /// redis-cli prints `CLUSTER NODES` raw, a line per node, as transcripts 10 and 14 show
    /// (`$ redis-cli -p 7000 CLUSTER NODES`), not as one quoted string.
    #[test]
    fn cluster_nodes_is_printed_raw() {
        let map = SlotMap::fixture_cluster();
        let out = run_lines(&map, "127.0.0.1:7000", "CLUSTER NODES").unwrap();
        let nodes = out[0].verdict();
        let lines: Vec<&str> = nodes.lines().collect();
        assert_eq!(lines.len(), 6, "{nodes}");
        for l in &lines {
            let id = l.split(' ').next().unwrap_or_default();
            assert!(
                id.len() == 40 && id.bytes().all(|b| b.is_ascii_hexdigit()),
                "{l}"
            );
        }
        assert!(
            nodes.contains("127.0.0.1:7000@17000 myself,master - 0"),
            "{nodes}"
        );
    }

    /// 04_crossslot_mset_mget.txt: `MSET hello 1 bar 2` from 7000 is CROSSSLOT, and a MULTI block
    /// with keys on another node queues MOVED and aborts (05_multi_exec_crossslot.txt).
    #[test]
    fn lines_are_answered_in_order_on_one_connection() {
        let map = SlotMap::fixture_cluster();
        let out = run_lines(
            &map,
            "127.0.0.1:7000",
            "MSET hello 1 bar 2\n\nMULTI\nSET hello 1\nSET foo 2\nEXEC\nGET \"unclosed\nPING",
        )
        .unwrap();
        let verdicts: Vec<String> = out
            .iter()
            .filter(|l| !matches!(l.outcome, Outcome::Invalid(_)))
            .map(Line::verdict)
            .collect();
        assert_eq!(
            verdicts,
            vec![
                "CROSSSLOT Keys in request don't hash to the same slot",
                "OK",
                "QUEUED",
                "MOVED 12182 127.0.0.1:7002",
                "EXECABORT Transaction discarded because of previous errors.",
                "PONG",
            ]
        );
        assert_eq!(out[5].verdict(), "Invalid argument(s)");
        assert!(matches!(
            out[5].outcome,
            Outcome::Invalid(EscapeError::UnclosedQuote { column: 5, .. })
        ));
        assert_eq!(out[0].line_no, 1);
        assert_eq!(out[2].line_no, 4);
        assert_eq!(
            out[0].keys,
            vec![(b"hello".to_vec(), 866), (b"bar".to_vec(), 5061)]
        );
    }

    #[test]
    fn a_list_of_keys_becomes_one_command() {
        let keys = vec![b"a".to_vec(), b"b".to_vec()];
        assert_eq!(
            command_for_keys("MGET", &keys),
            vec![b"MGET".to_vec(), b"a".to_vec(), b"b".to_vec()]
        );
        assert_eq!(command_for_keys("MSET", &keys).len(), 5);
        assert!(run_lines(&SlotMap::fixture_cluster(), "10.0.0.1:1", "PING").is_err());
        let many = "PING\n".repeat(MAX_LINES + 1);
        assert!(matches!(
            run_lines(&SlotMap::fixture_cluster(), "127.0.0.1:7000", &many),
            Err(BatchError::TooManyLines { .. })
        ));
    }
}

/// How [`slot_commands`] writes each slot's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandStyle {
    /// One of [`KEY_COMMANDS`] with the slot's keys, as [`command_for_keys`] writes it:
    /// `MGET k1 k2 …` reads, `DEL k1 k2 …` deletes, `MSET k1 v1 k2 v2 …` writes placeholder
    /// values.
    Keys(&'static str),
    /// `EVAL <script> n k1 … kn v1 … vn ttl`: a write with an expiry per slot, since MSET has
    /// none (the route cache's fix). The values are placeholders to replace.
    EvalSetEx {
        /// Seconds to live.
        ttl: u32,
    },
}

/// The script of [`CommandStyle::EvalSetEx`]: SET each key to its value with an expiry.
pub const SET_EX_SCRIPT: &str =
    "for i, k in ipairs(KEYS) do redis.call('SET', k, ARGV[i], 'EX', ARGV[#KEYS + 1]) end";

/// One command per slot touched by `plan` (at most `limit`), in slot order, with its keys
/// quoted as redis-cli reads them, each line prefixed with the master it goes to; a style
/// that writes takes each key's value from `values` (by the key's place in `keys`), or a
/// placeholder.
pub fn slot_commands(
    plan: &super::Plan,
    keys: &super::KeySample,
    values: Option<&super::KeySample>,
    map: &SlotMap,
    style: CommandStyle,
    limit: usize,
) -> Vec<String> {
    slot_command_parts(plan, keys, values, map, style, limit)
        .into_iter()
        .map(|c| {
            let node = c.master.unwrap_or("(no master)");
            format!("# slot {} on {node}\n{}", c.slot, c.command)
        })
        .collect()
}

/// One single-slot command of a split batch: the slot, its master's address and the command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotCommand<'a> {
    /// The slot every key of the command is in.
    pub slot: u16,
    /// The address of the master serving it, if one does.
    pub master: Option<&'a str>,
    /// The command, as redis-cli reads it.
    pub command: String,
}

/// [`slot_commands`] as data, so a caller can word the comment line in its own language.
pub fn slot_command_parts<'a>(
    plan: &super::Plan,
    keys: &super::KeySample,
    values: Option<&super::KeySample>,
    map: &'a SlotMap,
    style: CommandStyle,
    limit: usize,
) -> Vec<SlotCommand<'a>> {
    use core::fmt::Write;
    plan.slots
        .iter()
        .take(limit)
        .map(|group| {
            // Written into one string: a slot's command can hold 100,000 keys.
            let (ks, at): (Vec<&[u8]>, Vec<usize>) = plan
                .keys_in(group)
                .iter()
                .filter_map(|&i| keys.get(i as usize).map(|k| (k, i as usize)))
                .unzip();
            // The `n`th key's value (from 0 in this command): the pasted one, or a placeholder.
            let push_value = |command: &mut String, n: usize| {
                command.push_str(" \"");
                match values.and_then(|v| v.get(at[n])) {
                    Some(v) => crate::core::key::escape::push_formatted(command, v),
                    None => command.push_str(&placeholder_value(n)),
                }
                command.push('"');
            };
            let master = group
                .master
                .and_then(|m| map.masters().get(m))
                .map(|m| m.addr.as_str());
            let mut command =
                String::with_capacity(ks.iter().map(|k| k.len() + 3).sum::<usize>() + 16);
            match style {
                CommandStyle::Keys(name) => command.push_str(name),
                CommandStyle::EvalSetEx { .. } => {
                    let _ = write!(command, "EVAL \"{SET_EX_SCRIPT}\" {}", ks.len());
                }
            }
            let with_values = matches!(style, CommandStyle::Keys(name) if takes_values(name));
            for (i, k) in ks.iter().enumerate() {
                command.push_str(" \"");
                crate::core::key::escape::push_formatted(&mut command, k);
                command.push('"');
                if with_values {
                    push_value(&mut command, i);
                }
            }
            if let CommandStyle::EvalSetEx { ttl } = style {
                for i in 0..ks.len() {
                    push_value(&mut command, i);
                }
                let _ = write!(command, " {ttl}");
            }
            SlotCommand {
                slot: group.slot,
                master,
                command,
            }
        })
        .collect()
}

#[cfg(test)]
mod command_tests {
    use super::*;
    use crate::core::key::args::split_args;
    use crate::core::server::Route;
    use crate::core::workload::plan;
    use crate::core::workload::KeySample;

    #[test]
    fn slot_commands_split_a_batch_into_single_slot_commands_that_redis_accepts() {
        let map = SlotMap::fixture_cluster();
        let mut keys = KeySample::new();
        for k in [&b"{user1}:a"[..], b"foo", b"{user1}:b", b"a\"b"] {
            keys.push(k);
        }
        let p = plan(&keys, &map);
        let styles = KEY_COMMANDS.iter().map(|c| CommandStyle::Keys(c));
        for style in styles.chain([CommandStyle::EvalSetEx { ttl: 60 }]) {
            let lines = slot_commands(&p, &keys, None, &map, style, 100);
            assert_eq!(lines.len(), 3, "{lines:?}");
            // Each command, sent to the master its comment names, is served there (no
            // CROSSSLOT, no MOVED): the split is right. (The page's engine does not run the
            // EVAL loop itself, so routing is what is checked.)
            let cluster = Cluster::new(map.clone());
            for l in &lines {
                let (comment, command) = l.split_once('\n').unwrap();
                let node = comment.rsplit(' ').next().unwrap();
                let args = split_args(command).unwrap();
                let route = cluster.route(node, &args, &Session::new()).unwrap();
                assert!(matches!(route, Route::Here { .. }), "{command}: {route:?}");
            }
        }
    }

    /// Pasted SET and MSET lines give their values to the per-slot MSET (and EVAL SET … EX):
    /// the copy writes what the lines wrote. A SET with options, or another command, does not.
    #[test]
    fn pasted_writes_give_their_values_to_the_per_slot_plan() {
        let map = SlotMap::fixture_cluster();
        let lines = |text: &str| run_lines(&map, "127.0.0.1:7000", text).unwrap();
        let text = "SET {a}1 x\nMULTI\nmset {a}2 \"y z\" {b}3 w\nEXEC";
        let pasted = lines(text);
        let values = written_values(&pasted).unwrap();
        let values_read: Vec<&[u8]> = values.iter().collect();
        assert_eq!(values_read, [&b"x"[..], b"y z", b"w"]);
        let mut keys = KeySample::new();
        for line in &pasted {
            for (k, _) in &line.keys {
                keys.push(k);
            }
        }
        let p = plan(&keys, &map);
        let msets = slot_commands(
            &p,
            &keys,
            Some(&values),
            &map,
            CommandStyle::Keys("MSET"),
            10,
        );
        let commands: Vec<&str> = msets
            .iter()
            .map(|l| l.split_once('\n').unwrap().1)
            .collect();
        assert_eq!(
            commands,
            [
                "MSET \"{b}3\" \"w\"",
                "MSET \"{a}1\" \"x\" \"{a}2\" \"y z\""
            ]
        );
        let evals = slot_commands(
            &p,
            &keys,
            Some(&values),
            &map,
            CommandStyle::EvalSetEx { ttl: 9 },
            10,
        );
        assert!(
            evals[1].ends_with(" 2 \"{a}1\" \"{a}2\" \"x\" \"y z\" 9"),
            "{}",
            evals[1]
        );
        for other in [
            "SET {a}1 x EX 10",
            "SET {a}1 x\nGET {a}2",
            "GET {a}1",
            "SET {a}1",
            "PING",
        ] {
            assert_eq!(written_values(&lines(other)), None, "{other}");
        }
    }
}
