//! The command engine against real redis-cli sessions: transcripts 01-07 replayed line by line
//! on one simulated cluster and compared byte for byte, plus split_args, the key table,
//! routing (MULTI, READONLY replicas, ASK/TRYAGAIN) and properties (nothing panics).
//! Long because the transcripts are replayed command by command, each compared byte for byte.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use slotscope::core::key::args::split_args;
use slotscope::core::key::escape::EscapeError;
use slotscope::core::server::command::{key_positions, slot_verdict, CommandError, Verdict};
use slotscope::core::server::{sha1_hex, Cli, Cluster, ErrorReply, Reply, Route, Session, Typed};
use slotscope::core::SlotMap;

/// The text of an error reply, as Redis sends it (after the `-`); anything else is named so an
/// assertion on it fails.
fn error_text(reply: Reply) -> String {
    match reply {
        Reply::Error(e) => e.to_string(),
        other => format!("not an error: {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Transcript replay
// ---------------------------------------------------------------------------------------------

fn read_transcript(name: &str) -> String {
    let path = common::fixtures_dir().join("transcripts").join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read transcript {}: {e}", path.display()))
}

/// Splits a bash command line into words: blanks separate, `"…"` keeps blanks and understands
/// `\"`, `\\`, `\$` and `` \` ``, `'…'` is literal, a backslash outside quotes escapes the next
/// character. (No expansions: the transcripts use none.)
fn bash_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => {
                            current.extend(chars.next());
                        }
                        c => current.push(c),
                    }
                }
            }
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    current.push(c);
                }
            }
            '\\' => {
                in_word = true;
                current.extend(chars.next());
            }
            c => {
                in_word = true;
                current.push(c);
            }
        }
    }
    if in_word {
        words.push(current);
    }
    words
}

/// `127.0.0.1:7000> ` or `127.0.0.1:7000(TX)> ` at the start of `line`: (prompt, typed text).
fn split_prompt(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("127.0.0.1:")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let after = &rest[digits..];
    let tail = after.strip_prefix("(TX)").unwrap_or(after);
    tail.strip_prefix("> ")?;
    let prompt_len = line.len() - tail.len() + 2;
    Some((&line[..prompt_len], &line[prompt_len..]))
}

/// A redis-cli invocation: `redis-cli [-c] [-h host] [-p port] [args…]`.
struct Invocation {
    addr: String,
    cluster_mode: bool,
    args: Vec<Vec<u8>>,
}

fn parse_invocation(words: &[String]) -> Result<Invocation, String> {
    let Some((first, rest)) = words.split_first() else {
        return Err("empty command line".into());
    };
    if first != "redis-cli" {
        return Err(format!("not a redis-cli call: {first}"));
    }
    let (mut host, mut port, mut cluster_mode) = ("127.0.0.1".to_owned(), "6379".to_owned(), false);
    let mut i = 0;
    while let Some(word) = rest.get(i) {
        match word.as_str() {
            "-c" => cluster_mode = true,
            "-p" => {
                i += 1;
                port = rest.get(i).cloned().ok_or("-p without a port")?;
            }
            "-h" => {
                i += 1;
                host = rest.get(i).cloned().ok_or("-h without a host")?;
            }
            w if w.starts_with('-') => return Err(format!("redis-cli option {w} not supported")),
            _ => break,
        }
        i += 1;
    }
    Ok(Invocation {
        addr: format!("{host}:{port}"),
        cluster_mode,
        args: rest[i..].iter().map(|w| w.as_bytes().to_vec()).collect(),
    })
}

/// The result of replaying one transcript.
#[derive(Default)]
struct Outcome {
    /// Commands whose output was compared.
    compared: usize,
    /// Of those, `CLUSTER NODES` outputs compared field by field (timestamps and epochs differ).
    structural: usize,
    /// `file:line: reason` for each command not replayed.
    skipped: Vec<String>,
    /// Differences, with the expected and actual text.
    failures: Vec<String>,
}

/// Replays `name` on `cluster`. `skip` names commands (by their exact text after the `$ ` or
/// the prompt) that the engine cannot run, with the reason.
fn replay(cluster: &mut Cluster, name: &str, skip: &[(&str, &str)]) -> Outcome {
    let text = read_transcript(name);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Outcome::default();
    assert!(
        lines.first().is_some_and(|l| l.starts_with('#')),
        "{name}: line 1 should be a # comment"
    );
    let is_command = |line: &str, interactive: bool| {
        line.starts_with("$ ") || (interactive && split_prompt(line).is_some())
    };
    // Output lines after `start`, up to the next command line.
    let output = |start: usize, interactive: bool| -> (String, usize) {
        let mut end = start;
        while end < lines.len() && !is_command(lines[end], interactive) {
            end += 1;
        }
        let text: String = lines[start..end].iter().map(|l| format!("{l}\n")).collect();
        (text, end)
    };
    let skip_reason = |typed: &str| skip.iter().find(|(t, _)| *t == typed).map(|(_, r)| *r);
    let mut i = 1;
    while i < lines.len() {
        let here = format!("{name}:{}", i + 1);
        let Some(command_line) = lines[i].strip_prefix("$ ") else {
            out.failures.push(format!(
                "{here}: expected a `$ ` command line, found {:?}",
                lines[i]
            ));
            i += 1;
            continue;
        };
        let inv = match parse_invocation(&bash_words(command_line)) {
            Ok(inv) => inv,
            Err(e) => {
                out.failures.push(format!("{here}: {e}"));
                i += 1;
                continue;
            }
        };
        if !inv.args.is_empty() {
            let (expected, next) = output(i + 1, false);
            i = next;
            if let Some(reason) = skip_reason(command_line) {
                out.skipped
                    .push(format!("{here}: `{command_line}`: {reason}"));
                continue;
            }
            let actual = Cli::new(inv.addr, inv.cluster_mode, false)
                .send(cluster, &inv.args)
                .text;
            out.compared += 1;
            let same = if is_cluster_nodes(&inv.args) {
                out.structural += 1;
                same_nodes(&expected, &actual)
            } else {
                actual == expected
            };
            if !same {
                out.failures.push(format!(
                    "{here}: `{command_line}`\n  expected: {expected:?}\n  actual:   {actual:?}"
                ));
            }
            continue;
        }
        // Interactive session: prompt lines until `quit` (or the next `$`).
        let mut cli = Cli::new(inv.addr, inv.cluster_mode, true);
        i += 1;
        while i < lines.len() {
            let Some((prompt, typed)) = split_prompt(lines[i]) else {
                break;
            };
            let here = format!("{name}:{}", i + 1);
            let (expected, next) = output(i + 1, true);
            i = next;
            if let Some(reason) = skip_reason(typed) {
                out.skipped.push(format!("{here}: `{typed}`: {reason}"));
                continue;
            }
            if prompt != cli.prompt() {
                out.failures.push(format!(
                    "{here}: prompt {prompt:?}, but the simulated redis-cli shows {:?}",
                    cli.prompt()
                ));
            }
            let result = cli.type_line(cluster, typed);
            let actual = result.text();
            out.compared += 1;
            let same = if split_args(typed).is_ok_and(|a| is_cluster_nodes(&a)) {
                out.structural += 1;
                same_nodes(&expected, &actual)
            } else {
                actual == expected
            };
            if !same {
                out.failures.push(format!(
                    "{here}: `{typed}`\n  expected: {expected:?}\n  actual:   {actual:?}"
                ));
            }
            if result == Typed::Quit {
                break;
            }
        }
    }
    out
}

fn is_cluster_nodes(args: &[Vec<u8>]) -> bool {
    args.len() == 2
        && args[0].eq_ignore_ascii_case(b"cluster")
        && args[1].eq_ignore_ascii_case(b"nodes")
}

/// `CLUSTER NODES` outputs compared field by field: id, address, flags, master, link state and
/// slots (with `[slot->-id]` / `[slot-<-id]`) must match; ping/pong times and config epochs,
/// which change from run to run, and the line order (a hash table's) are not compared.
fn same_nodes(expected: &str, actual: &str) -> bool {
    let fields = |text: &str| {
        let mut lines: Vec<Vec<String>> = text
            .lines()
            .map(|l| {
                let words: Vec<&str> = l.split(' ').collect();
                words
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !matches!(i, 4..=6))
                    .map(|(_, w)| (*w).to_owned())
                    .collect()
            })
            .collect();
        lines.sort();
        lines
    };
    let (e, a) = (fields(expected), fields(actual));
    !e.is_empty() && e.iter().all(|l| l.len() >= 5) && e == a
}

fn report(outcomes: &[(&str, Outcome)], expected_skips: usize) {
    let mut failures = Vec::new();
    let mut skipped = 0;
    for (name, outcome) in outcomes {
        eprintln!(
            "{name}: {} commands compared ({} CLUSTER NODES field by field), {} skipped, {} differ",
            outcome.compared,
            outcome.structural,
            outcome.skipped.len(),
            outcome.failures.len()
        );
        for s in &outcome.skipped {
            eprintln!("  skipped {s}");
        }
        assert!(outcome.compared > 0, "{name}: nothing was compared");
        skipped += outcome.skipped.len();
        failures.extend(outcome.failures.iter().cloned());
    }
    assert!(
        failures.is_empty(),
        "{} replies differ from redis-cli:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        skipped, expected_skips,
        "number of skipped transcript lines"
    );
}

#[test]
fn transcripts_02_to_06_replay_byte_for_byte_on_one_cluster() {
    // The recorded cluster was empty before 02; values carry over from file to file
    // (06 reads "2" for hello because 05 INCRed it).
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let files = [
        "02_moved.txt",
        "03_cli_c_redirect.txt",
        "04_crossslot_mset_mget.txt",
        "05_multi_exec_crossslot.txt",
        "06_eval_crossslot.txt",
    ];
    let outcomes: Vec<_> = files
        .iter()
        .map(|f| (*f, replay(&mut cluster, f, &[])))
        .collect();
    report(&outcomes, 0);
    // What the cluster holds afterwards, node by node.
    assert_eq!(cluster.peek("127.0.0.1:7000", b"hello"), Some(&b"2"[..]));
    assert_eq!(cluster.peek("127.0.0.1:7004", b"hello"), Some(&b"2"[..]));
    assert_eq!(cluster.peek("127.0.0.1:7002", b"foo"), Some(&b"bar"[..]));
    assert_eq!(
        cluster.peek("127.0.0.1:7001", b"{user1}:b"),
        Some(&b"3"[..])
    );
    assert_eq!(cluster.dbsize("127.0.0.1:7000"), Some(1));
    assert_eq!(cluster.dbsize("127.0.0.1:7001"), Some(4));
    assert_eq!(cluster.dbsize("127.0.0.1:7002"), Some(1));
}

/// Transcript 07 on a fresh fixture cluster (the node ids are the recorded ones): SETSLOT
/// IMPORTING/MIGRATING, MIGRATE (single key and KEYS form), ASK, ASKING for one command, MOVED
/// back from the target, TRYAGAIN from both sides, SETSLOT NODE, MOVED from the old owner.
/// Every reply byte for byte, except CLUSTER NODES, compared field by field.
#[test]
fn transcript_07_slot_migration_replays() {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let outcome = replay(&mut cluster, "07_slot_migration_ask_tryagain.txt", &[]);
    assert_eq!(outcome.structural, 3, "the three CLUSTER NODES outputs");
    report(&[("07_slot_migration_ask_tryagain.txt", outcome)], 0);
    let (m1, m2) = ("127.0.0.1:7001", "127.0.0.1:7002");
    assert_eq!(
        cluster.peek(m2, b"{user:1001}:profile"),
        Some(&b"alice"[..])
    );
    assert_eq!(cluster.peek(m2, b"{user:1001}:orders"), Some(&b"3"[..]));
    assert_eq!(cluster.peek(m1, b"{user:1001}:orders"), None);
    let map = cluster.map();
    assert_eq!(map.owner_master(5712).map(|m| m.addr.as_str()), Some(m2));
    assert!(map
        .masters()
        .iter()
        .all(|m| m.migrating.is_empty() && m.importing.is_empty()));
}

#[test]
fn transcript_01_keyslot_edge_cases_replay() {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let outcome = replay(&mut cluster, "01_keyslot_edge_cases.txt", &[]);
    assert_eq!(outcome.compared, 37, "36 CLUSTER KEYSLOT lines and quit");
    report(&[("01_keyslot_edge_cases.txt", outcome)], 0);
}

#[test]
fn cluster_slots_matches_the_recorded_output() {
    let mut cluster = Cluster::new(SlotMap::fixture_cluster());
    let name = "10_before_add_node_cluster_slots.txt";
    let outcome = replay(&mut cluster, name, &[]);
    report(&[(name, outcome)], 0);
}

#[test]
fn the_script_sha_in_06_is_sha1_of_the_body() {
    assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    let text = read_transcript("06_eval_crossslot.txt");
    let line = text
        .lines()
        .find(|l| l.contains("non local key"))
        .expect("06 has the non-local-key error");
    let sha = line
        .split("node script: ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .expect("sha in the error");
    assert_eq!(sha1_hex(b"return redis.call('GET', 'foo')"), sha);
}

#[test]
fn bash_words_follow_bash_quoting() {
    assert_eq!(
        bash_words(r#"redis-cli -p 7000 EVAL "return redis.call('GET', KEYS[1])" 1 foo"#),
        vec![
            "redis-cli",
            "-p",
            "7000",
            "EVAL",
            "return redis.call('GET', KEYS[1])",
            "1",
            "foo"
        ]
    );
    assert_eq!(
        bash_words(r#"a "b\"c" 'd e' f\ g"#),
        vec!["a", "b\"c", "d e", "f g"]
    );
    assert_eq!(bash_words(r#"x "" y"#), vec!["x", "", "y"]);
}

// ---------------------------------------------------------------------------------------------
// split_args
// ---------------------------------------------------------------------------------------------

fn strs(args: &[Vec<u8>]) -> Vec<String> {
    args.iter()
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect()
}

#[test]
fn split_args_splits_on_blanks() {
    assert_eq!(
        strs(&split_args("  GET   foo\tbar  ").unwrap()),
        ["GET", "foo", "bar"]
    );
    assert!(split_args("").unwrap().is_empty());
    assert!(split_args(" \t\r\n ").unwrap().is_empty());
    // Outside quotes a backslash is just a character.
    assert_eq!(
        split_args(r"a\x41 \n").unwrap(),
        vec![b"a\\x41".to_vec(), b"\\n".to_vec()]
    );
    // \v and \f are skipped between arguments but belong to an unquoted argument.
    assert_eq!(split_args("\x0ba\x0bb").unwrap(), vec![b"a\x0bb".to_vec()]);
}

#[test]
fn split_args_double_quotes_and_escapes() {
    assert_eq!(
        split_args(r#""\x00\xff\xFf" "\n\r\t\b\a\\\"\q""#).unwrap(),
        vec![b"\x00\xff\xff".to_vec(), b"\n\r\t\x08\x07\\\"q".to_vec()]
    );
    // `\x` without two hex digits is a plain `x`.
    assert_eq!(
        split_args(r#""\x4g" "\xZ""#).unwrap(),
        vec![b"x4g".to_vec(), b"xZ".to_vec()]
    );
    assert_eq!(
        split_args(r#""hello world""#).unwrap(),
        vec![b"hello world".to_vec()]
    );
    assert_eq!(split_args(r#""""#).unwrap(), vec![Vec::<u8>::new()]);
    // A quote may open in the middle of an argument.
    assert_eq!(split_args(r#"ab"c d""#).unwrap(), vec![b"abc d".to_vec()]);
    assert_eq!(
        split_args("\"用户\"").unwrap(),
        vec!["用户".as_bytes().to_vec()]
    );
}

#[test]
fn split_args_single_quotes() {
    assert_eq!(
        split_args(r#"'it\'s' 'a\nb' '"'"#).unwrap(),
        vec![b"it's".to_vec(), b"a\\nb".to_vec(), b"\"".to_vec()]
    );
}

#[test]
fn split_args_errors_name_their_column() {
    let cases: &[(&str, EscapeError)] = &[
        (
            r#"GET "foo"#,
            EscapeError::UnclosedQuote {
                column: 5,
                quote: '"',
            },
        ),
        (
            "GET 'foo",
            EscapeError::UnclosedQuote {
                column: 5,
                quote: '\'',
            },
        ),
        (
            r#"GET "foo"bar"#,
            EscapeError::TextAfterQuote { column: 10 },
        ),
        ("GET 'foo'bar", EscapeError::TextAfterQuote { column: 10 }),
        (
            r#"GET "foo\"#,
            EscapeError::UnclosedQuote {
                column: 5,
                quote: '"',
            },
        ),
        // Columns count characters, not bytes.
        (
            "SET 用户 \"x",
            EscapeError::UnclosedQuote {
                column: 8,
                quote: '"',
            },
        ),
        ("SET \"用\"户", EscapeError::TextAfterQuote { column: 8 }),
    ];
    for (line, expected) in cases {
        let err = split_args(line).unwrap_err();
        assert_eq!(&err, expected, "{line}");
    }
}

#[test]
fn split_args_stops_at_nul_like_c() {
    assert_eq!(strs(&split_args("GET a\0 b").unwrap()), ["GET", "a"]);
    assert!(split_args("GET \"a\0\"").is_err());
}

// ---------------------------------------------------------------------------------------------
// The key table
// ---------------------------------------------------------------------------------------------

fn positions(line: &str) -> Vec<usize> {
    key_positions(&split_args(line).unwrap())
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .positions
}

#[test]
fn key_table_positions() {
    let cases: &[(&str, &[usize])] = &[
        ("GET k", &[1]),
        ("get k", &[1]),
        ("SET k v", &[1]),
        ("SET k v NX GET EX 10", &[1]),
        ("GETSET k v", &[1]),
        ("INCR k", &[1]),
        ("DECR k", &[1]),
        ("INCRBY k 2", &[1]),
        ("APPEND k v", &[1]),
        ("STRLEN k", &[1]),
        ("DEL a b c", &[1, 2, 3]),
        ("UNLINK a b", &[1, 2]),
        ("EXISTS a b", &[1, 2]),
        ("TOUCH a", &[1]),
        ("MGET a b c", &[1, 2, 3]),
        ("MSET a 1 b 2", &[1, 3]),
        ("MSETNX a 1 b 2 c 3", &[1, 3, 5]),
        ("EXPIRE k 10", &[1]),
        ("TTL k", &[1]),
        ("TYPE k", &[1]),
        ("RENAME a b", &[1, 2]),
        ("RENAMENX a b", &[1, 2]),
        ("SUNION a b", &[1, 2]),
        ("SINTER a b", &[1, 2]),
        ("SDIFF a b c", &[1, 2, 3]),
        ("SUNIONSTORE d a b", &[1, 2, 3]),
        ("SINTERSTORE d a", &[1, 2]),
        ("SDIFFSTORE d a b", &[1, 2, 3]),
        // Redis lists the destination last.
        ("ZUNIONSTORE d 2 a b WEIGHTS 1 2", &[3, 4, 1]),
        ("ZINTERSTORE d 1 a", &[3, 1]),
        ("BLPOP a b 0", &[1, 2]),
        ("BRPOP a 0", &[1]),
        ("BLMOVE a b LEFT RIGHT 0", &[1, 2]),
        ("LMOVE a b LEFT RIGHT", &[1, 2]),
        ("RPOPLPUSH a b", &[1, 2]),
        ("SMOVE a b m", &[1, 2]),
        ("EVAL s 2 a b x y", &[3, 4]),
        ("EVALSHA s 1 a x", &[3]),
        ("FCALL f 1 a x", &[3]),
        // EVAL with no declared keys, or a numkeys Redis cannot use, routes nowhere.
        ("EVAL s 0 a", &[]),
        ("EVAL s x a", &[]),
        ("EVAL s 5 a", &[]),
        ("EVAL s -1 a", &[]),
        ("PING", &[]),
        ("CLUSTER KEYSLOT k", &[]),
        ("cluster info", &[]),
        ("CLUSTER NODES", &[]),
        ("CLUSTER SLOTS", &[]),
        ("CLUSTER SHARDS", &[]),
        ("MULTI", &[]),
        ("EXEC", &[]),
        ("DISCARD", &[]),
        ("ASKING", &[]),
        ("READONLY", &[]),
        ("DBSIZE", &[]),
        ("INFO", &[]),
        ("INFO keyspace", &[]),
        // Redis's routing sees MSET's keys even when MSET itself will refuse the arity.
        ("MSET a 1 b", &[1, 3]),
    ];
    for (line, expected) in cases {
        assert_eq!(positions(line), *expected, "{line}");
    }
}

#[test]
fn unknown_commands_and_arity_are_worded_as_redis_7() {
    let err = |line: &str| key_positions(&split_args(line).unwrap()).unwrap_err();
    assert_eq!(
        err("FOO a b").to_string(),
        "ERR unknown command 'FOO', with args beginning with: 'a' 'b' "
    );
    assert_eq!(
        err("foo").to_string(),
        "ERR unknown command 'foo', with args beginning with: "
    );
    assert_eq!(
        err("MSET a").to_string(),
        "ERR wrong number of arguments for 'mset' command"
    );
    assert_eq!(
        err("GET").to_string(),
        "ERR wrong number of arguments for 'get' command"
    );
    assert_eq!(
        err("CLUSTER KEYSLOT").to_string(),
        "ERR wrong number of arguments for 'cluster|keyslot' command"
    );
    assert_eq!(
        err("CLUSTER FOO").to_string(),
        "ERR unknown subcommand 'FOO'. Try CLUSTER HELP."
    );
    assert!(matches!(err(""), CommandError::Empty));
    // Long arguments are cut as Redis cuts them (128 bytes in all).
    let long = format!("FOO {} {}", "a".repeat(200), "b".repeat(10));
    let text = err(&long).to_string();
    assert_eq!(
        text,
        format!(
            "ERR unknown command 'FOO', with args beginning with: '{}' ",
            "a".repeat(128)
        )
    );
    // Line breaks in the echoed arguments become spaces.
    assert_eq!(
        key_positions(&[b"FOO".to_vec(), b"a\r\nb".to_vec()])
            .unwrap_err()
            .to_string(),
        "ERR unknown command 'FOO', with args beginning with: 'a  b' "
    );
}

#[test]
fn slot_verdicts() {
    assert_eq!(slot_verdict(&[]), Verdict::NoKeys);
    assert_eq!(slot_verdict(&[b"foo"]), Verdict::OneSlot(12182));
    assert_eq!(
        slot_verdict(&[b"{user1}:a", b"{user1}:b", b"user1"]),
        Verdict::OneSlot(8106)
    );
    let v = slot_verdict(&[b"hello", b"hello", b"bar"]);
    assert_eq!(
        v,
        Verdict::CrossSlot {
            first: 866,
            other: 5061
        }
    );
    assert_eq!(
        v.error().map(|e| e.to_string()).as_deref(),
        Some("CROSSSLOT Keys in request don't hash to the same slot")
    );
}

// ---------------------------------------------------------------------------------------------
// The engine beyond the transcripts
// ---------------------------------------------------------------------------------------------

fn run(cluster: &mut Cluster, addr: &str, session: &mut Session, line: &str) -> Reply {
    cluster.exec(addr, &split_args(line).unwrap(), session)
}

const M0: &str = "127.0.0.1:7000";
const M1: &str = "127.0.0.1:7001";
const M2: &str = "127.0.0.1:7002";
const R0: &str = "127.0.0.1:7004"; // replica of 7000

#[test]
fn replicas_serve_reads_only_after_readonly() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    assert_eq!(run(&mut c, M0, &mut s, "SET hello world"), Reply::Ok);
    let mut r = Session::new();
    assert_eq!(
        error_text(run(&mut c, R0, &mut r, "GET hello")),
        "MOVED 866 127.0.0.1:7000"
    );
    assert_eq!(run(&mut c, R0, &mut r, "READONLY"), Reply::Ok);
    assert!(r.is_readonly());
    assert_eq!(
        run(&mut c, R0, &mut r, "GET hello"),
        Reply::Bulk(Some(b"world".to_vec()))
    );
    // Writes still go to the master; slots of other masters are still MOVED.
    assert_eq!(
        error_text(run(&mut c, R0, &mut r, "SET hello x")),
        "MOVED 866 127.0.0.1:7000"
    );
    assert_eq!(
        error_text(run(&mut c, R0, &mut r, "GET foo")),
        "MOVED 12182 127.0.0.1:7002"
    );
    // A keyless write is refused by the replica itself.
    assert_eq!(
        error_text(run(&mut c, R0, &mut r, "FLUSHALL")),
        "READONLY You can't write against a read only replica."
    );
    assert_eq!(run(&mut c, R0, &mut r, "READWRITE"), Reply::Ok);
    assert_eq!(
        error_text(run(&mut c, R0, &mut r, "GET hello")),
        "MOVED 866 127.0.0.1:7000"
    );
    assert_eq!(run(&mut c, R0, &mut r, "DBSIZE"), Reply::Int(1));
}

#[test]
fn crossslot_comes_before_moved_and_arity_before_both() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    // hello (866, on 7000) and foo (12182, on 7002), asked of 7001: CROSSSLOT, not MOVED.
    assert_eq!(
        error_text(run(&mut c, M1, &mut s, "MGET hello foo")),
        "CROSSSLOT Keys in request don't hash to the same slot"
    );
    assert_eq!(
        error_text(run(&mut c, M1, &mut s, "MSET hello")),
        "ERR wrong number of arguments for 'mset' command"
    );
    assert_eq!(
        error_text(run(&mut c, M1, &mut s, "NOPE hello foo")),
        "ERR unknown command 'NOPE', with args beginning with: 'hello' 'foo' "
    );
    // MSET with an odd count: routing first (Redis sees keys a, b), then the arity error.
    assert_eq!(
        error_text(run(&mut c, M0, &mut s, "MSET {t}a 1 {t}b")),
        "MOVED 15891 127.0.0.1:7002"
    );
    assert_eq!(
        error_text(run(&mut c, M2, &mut s, "MSET {t}a 1 {t}b")),
        "ERR wrong number of arguments for 'mset' command"
    );
}

#[test]
fn multi_exec_rules() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    assert_eq!(
        error_text(run(&mut c, M0, &mut s, "EXEC")),
        "ERR EXEC without MULTI"
    );
    assert_eq!(
        error_text(run(&mut c, M0, &mut s, "DISCARD")),
        "ERR DISCARD without MULTI"
    );
    assert_eq!(run(&mut c, M0, &mut s, "MULTI"), Reply::Ok);
    assert_eq!(
        error_text(run(&mut c, M0, &mut s, "MULTI")),
        "ERR MULTI calls can not be nested"
    );
    assert_eq!(
        run(&mut c, M0, &mut s, "SET hello 1"),
        Reply::Status("QUEUED".into())
    );
    assert_eq!(s.queued().len(), 1);
    assert_eq!(run(&mut c, M0, &mut s, "DISCARD"), Reply::Ok);
    assert!(!s.in_multi());
    assert_eq!(run(&mut c, M0, &mut s, "GET hello"), Reply::Bulk(None));
    // An unknown command while queueing aborts the transaction, like MOVED does.
    run(&mut c, M0, &mut s, "MULTI");
    run(&mut c, M0, &mut s, "SET hello 1");
    assert!(run(&mut c, M0, &mut s, "NOPE").is_error());
    assert!(s.is_dirty());
    assert_eq!(
        error_text(run(&mut c, M0, &mut s, "EXEC")),
        "EXECABORT Transaction discarded because of previous errors."
    );
    assert!(!s.in_multi());
    // Errors of queued commands at EXEC time are elements of the array.
    run(&mut c, M0, &mut s, "MULTI");
    run(&mut c, M0, &mut s, "SET hello abc");
    run(&mut c, M0, &mut s, "INCR hello");
    run(&mut c, M0, &mut s, "MSET hello 1 hello");
    assert_eq!(
        run(&mut c, M0, &mut s, "EXEC").to_cli(),
        "1) OK\n2) (error) ERR value is not an integer or out of range\n\
         3) (error) ERR wrong number of arguments for 'mset' command\n"
    );
    // EXEC routes the transaction: keys of another node queue with MOVED.
    run(&mut c, M0, &mut s, "MULTI");
    assert_eq!(
        error_text(run(&mut c, M0, &mut s, "GET foo")),
        "MOVED 12182 127.0.0.1:7002"
    );
    assert!(run(&mut c, M0, &mut s, "EXEC").is_error());
}

#[test]
fn string_commands() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    let mut r = |line: &str| run(&mut c, M2, &mut s, line);
    assert_eq!(r("SET {t}a 1 NX"), Reply::Ok);
    assert_eq!(r("SET {t}a 2 NX"), Reply::Bulk(None));
    assert_eq!(r("SET {t}a 3 XX GET"), Reply::Bulk(Some(b"1".to_vec())));
    assert_eq!(error_text(r("SET {t}a 3 NX XX")), "ERR syntax error");
    assert_eq!(
        error_text(r("SET {t}a 3 EX 0")),
        "ERR invalid expire time in 'set' command"
    );
    // SET … EX runs on the simulated clock (redis-server 7.0.15: OK, then TTL 10).
    assert_eq!(r("SET {t}a 3 EX 10"), Reply::Ok);
    assert_eq!(r("TTL {t}a"), Reply::Int(10));
    assert_eq!(r("INCRBY {t}a 5"), Reply::Int(8));
    assert_eq!(r("DECR {t}a"), Reply::Int(7));
    assert_eq!(r("APPEND {t}a x"), Reply::Int(2));
    assert_eq!(r("STRLEN {t}a"), Reply::Int(2));
    assert_eq!(
        r("GETSET {t}a 9223372036854775807"),
        Reply::Bulk(Some(b"7x".to_vec()))
    );
    assert_eq!(
        error_text(r("INCR {t}a")),
        "ERR increment or decrement would overflow"
    );
    assert_eq!(r("EXISTS {t}a {t}a {t}b"), Reply::Int(2));
    assert_eq!(r("TYPE {t}a"), Reply::Status("string".into()));
    assert_eq!(r("TTL {t}b"), Reply::Int(-2));
    assert_eq!(r("RENAME {t}a {t}b"), Reply::Ok);
    assert_eq!(error_text(r("RENAME {t}a {t}b")), "ERR no such key");
    assert_eq!(r("MSETNX {t}b 1 {t}c 2"), Reply::Int(0));
    assert_eq!(r("MSETNX {t}c 1 {t}d 2"), Reply::Int(1));
    assert_eq!(r("DEL {t}b {t}c {t}zz"), Reply::Int(2));
    assert_eq!(r("CLUSTER COUNTKEYSINSLOT 15891"), Reply::Int(1));
    assert_eq!(
        r("CLUSTER MYID"),
        Reply::Bulk(Some(b"44084a172411812451c56a0a3330ec6daa733083".to_vec()))
    );
    assert_eq!(r("PING"), Reply::Status("PONG".into()));
    // Sets now run: a union of two missing keys is empty, as Redis 7.0.15 answers
    // (recorded: `SUNION nokey` → `(empty array)`, tests/data/recorded/sets.txt).
    assert_eq!(r("SUNION {t}a {t}b"), Reply::Array(vec![]));
    assert!(error_text(r("SUNION a b")).starts_with("CROSSSLOT"));
    assert!(error_text(r("CLUSTER SHARDS"))
        .starts_with("ERR slotscope does not simulate 'cluster|shards'"));
    assert_eq!(r("FLUSHALL"), Reply::Ok);
    assert_eq!(r("DBSIZE"), Reply::Int(0));
}

#[test]
fn eval_subset_and_its_errors() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    let mut r = |line: &str| run(&mut c, M0, &mut s, line);
    assert_eq!(
        r(r#"EVAL "return redis.call('SET', KEYS[1], ARGV[1])" 1 hello 5"#),
        Reply::Ok
    );
    assert_eq!(
        r(r#"EVAL "return {KEYS[1], ARGV[1], 7, redis.call('INCR', KEYS[1])}" 1 hello a"#).to_cli(),
        "1) \"hello\"\n2) \"a\"\n3) (integer) 7\n4) (integer) 6\n"
    );
    assert_eq!(r(r#"EVAL "return KEYS[2]" 1 hello"#), Reply::Bulk(None));
    let sha = sha1_hex(b"return redis.call('GET', KEYS[1])");
    assert_eq!(
        error_text(r(&format!("EVALSHA {sha} 1 hello"))),
        "NOSCRIPT No matching script. Please use EVAL."
    );
    assert_eq!(
        r(r#"EVAL "return redis.call('GET', KEYS[1])" 1 hello"#),
        Reply::Bulk(Some(b"6".to_vec()))
    );
    assert_eq!(
        r(&format!("EVALSHA {} 1 hello", sha.to_uppercase())),
        Reply::Bulk(Some(b"6".to_vec()))
    );
    assert_eq!(
        error_text(r(r#"EVAL "return 1" 2 a"#)),
        "ERR Number of keys can't be greater than number of args"
    );
    assert_eq!(
        error_text(r(r#"EVAL "return 1" -1"#)),
        "ERR Number of keys can't be negative"
    );
    assert_eq!(
        error_text(r(r#"EVAL "return 1" x"#)),
        "ERR value is not an integer or out of range"
    );
    let body = "return redis.call('INCR', 'bar', 'x')";
    assert_eq!(
        error_text(r(&format!("EVAL \"{body}\" 0"))),
        format!(
            "ERR Wrong number of args calling Redis command from script script: {}, on @user_script:1.",
            sha1_hex(body.as_bytes())
        )
    );
    let body = "return redis.call('SET', 'hello', 'x') and 1";
    assert!(error_text(r(&format!("EVAL \"{body}\" 0")))
        .starts_with("ERR slotscope does not run this script"));
    // Errors from the called command carry the script's name and line.
    let body = "return {\n redis.call('INCR', 'hello'),\n redis.call('INCR', KEYS[1])}";
    r("SET hello x");
    assert_eq!(
        error_text(cluster_line(&mut r, body, 1, "hello")),
        format!(
            "ERR value is not an integer or out of range script: {}, on @user_script:2.",
            sha1_hex(body.as_bytes())
        )
    );
    // Declared keys elsewhere: MOVED before anything runs.
    assert_eq!(
        error_text(r(r#"EVAL "return redis.call('SET', KEYS[1], 'x')" 1 foo"#)),
        "MOVED 12182 127.0.0.1:7002"
    );
}

fn cluster_line(
    r: &mut impl FnMut(&str) -> Reply,
    body: &str,
    numkeys: usize,
    keys: &str,
) -> Reply {
    let escaped = body.replace('\n', "\\n");
    r(&format!("EVAL \"{escaped}\" {numkeys} {keys}"))
}

/// The routing half of transcript 07: slot 5712 migrating from 7001 to 7002.
#[test]
fn ask_asking_and_tryagain_while_a_slot_migrates() {
    let mut map = SlotMap::fixture_cluster();
    let source = map
        .master_by_id("f7c6b5d608aefdd517b33641eb638ce56252d0b4")
        .unwrap();
    let target = map
        .master_by_id("44084a172411812451c56a0a3330ec6daa733083")
        .unwrap();
    map.master_mut(source)
        .unwrap()
        .migrating
        .push((5712, "44084a172411812451c56a0a3330ec6daa733083".into()));
    map.master_mut(target)
        .unwrap()
        .importing
        .push((5712, "f7c6b5d608aefdd517b33641eb638ce56252d0b4".into()));
    // The key is written before the slot opens, as in 07.
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    assert_eq!(
        run(&mut c, M1, &mut s, "SET {user:1001}:orders 3"),
        Reply::Ok
    );
    c.set_map(map);
    // Keys the source still has are served; missing ones are ASKed to the target.
    assert_eq!(
        run(&mut c, M1, &mut s, "GET {user:1001}:orders"),
        Reply::Bulk(Some(b"3".to_vec()))
    );
    assert_eq!(
        error_text(run(&mut c, M1, &mut s, "GET {user:1001}:profile")),
        "ASK 5712 127.0.0.1:7002"
    );
    assert_eq!(
        error_text(run(&mut c, M1, &mut s, "SET {user:1001}:newkey x")),
        "ASK 5712 127.0.0.1:7002"
    );
    assert_eq!(
        error_text(run(
            &mut c,
            M1,
            &mut s,
            "MGET {user:1001}:profile {user:1001}:orders"
        )),
        "TRYAGAIN Multiple keys request during rehashing of slot"
    );
    // The target answers MOVED without ASKING, and serves one command after it.
    let mut t = Session::new();
    assert_eq!(
        error_text(run(&mut c, M2, &mut t, "GET {user:1001}:profile")),
        "MOVED 5712 127.0.0.1:7001"
    );
    assert_eq!(run(&mut c, M2, &mut t, "ASKING"), Reply::Ok);
    assert!(t.is_asking());
    assert_eq!(
        run(&mut c, M2, &mut t, "SET {user:1001}:profile alice"),
        Reply::Ok
    );
    assert!(!t.is_asking());
    assert_eq!(
        error_text(run(&mut c, M2, &mut t, "GET {user:1001}:profile")),
        "MOVED 5712 127.0.0.1:7001"
    );
    run(&mut c, M2, &mut t, "ASKING");
    assert_eq!(
        error_text(run(
            &mut c,
            M2,
            &mut t,
            "MGET {user:1001}:profile {user:1001}:orders"
        )),
        "TRYAGAIN Multiple keys request during rehashing of slot"
    );
    // redis-cli -c follows the ASK: ASKING, then the command on the target, silently.
    let mut cli = Cli::new(M1, true, false);
    let out = cli.send(&mut c, &split_args("GET {user:1001}:profile").unwrap());
    assert_eq!(out.text, "\"alice\"\n");
    assert_eq!(out.redirects.len(), 1);
    assert!(out.redirects[0].ask);
    assert_eq!(cli.addr(), M2);
    // Interactively it says so.
    let mut cli = Cli::new(M1, true, true);
    let typed = cli.type_line(&mut c, "GET {user:1001}:profile");
    assert_eq!(
        typed.text(),
        "-> Redirected to slot [5712] located at 127.0.0.1:7002\n\"alice\"\n"
    );
    assert_eq!(
        c.route(
            M1,
            &split_args("GET {user:1001}:x").unwrap(),
            &Session::new()
        ),
        Ok(Route::Ask {
            slot: 5712,
            addr: M2.into()
        })
    );
}

#[test]
fn uncovered_slots_take_the_cluster_down() {
    let mut map = SlotMap::fixture_cluster();
    map.assign(0, None);
    let mut c = Cluster::new(map);
    let mut s = Session::new();
    assert_eq!(
        error_text(run(&mut c, M0, &mut s, "GET hello")),
        "CLUSTERDOWN The cluster is down"
    );
    assert_eq!(
        error_text(run(&mut c, M0, &mut s, "GET \"\"")),
        "CLUSTERDOWN Hash slot not served"
    );
    assert_eq!(
        run(&mut c, M0, &mut s, "PING"),
        Reply::Status("PONG".into())
    );
}

#[test]
fn cli_details() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut cli = Cli::new(M0, false, true);
    assert_eq!(cli.prompt(), "127.0.0.1:7000> ");
    assert_eq!(cli.type_line(&mut c, "   "), Typed::Blank);
    assert_eq!(
        cli.type_line(&mut c, "GET \"x").text(),
        "Invalid argument(s)\n"
    );
    assert_eq!(cli.type_line(&mut c, "MULTI").text(), "OK\n");
    assert_eq!(cli.prompt(), "127.0.0.1:7000(TX)> ");
    assert_eq!(cli.type_line(&mut c, "EXEC").text(), "(empty array)\n");
    assert_eq!(cli.prompt(), "127.0.0.1:7000> ");
    assert_eq!(cli.type_line(&mut c, "Exit"), Typed::Quit);
    let mut gone = Cli::new("127.0.0.1:7999", false, false);
    let out = gone.send(&mut c, &split_args("PING").unwrap());
    assert_eq!(
        out.text,
        "Could not connect to Redis at 127.0.0.1:7999: Connection refused\n"
    );
    assert_eq!(out.reply, None);
    assert_eq!(
        Reply::Array(vec![Reply::Error(ErrorReply::Moved {
            slot: 1,
            addr: "a:1".into()
        })])
        .to_resp(),
        b"*1\r\n-MOVED 1 a:1\r\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Properties: no input panics.
// ---------------------------------------------------------------------------------------------

fn line_chars() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => Just('"'),
            3 => Just('\''),
            4 => Just('\\'),
            4 => Just(' '),
            2 => Just('x'),
            1 => Just('\0'),
            1 => Just('\t'),
            1 => Just('用'),
            3 => prop::char::range('0', 'f'),
            2 => any::<char>(),
        ],
        0..40,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn word() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "GET", "set", "MSET", "mget", "DEL", "EXISTS", "INCR", "incrby", "MULTI", "EXEC",
            "DISCARD", "ASKING", "READONLY", "READWRITE", "EVAL", "EVALSHA", "CLUSTER", "KEYSLOT",
            "SLOTS", "GETKEYSINSLOT", "COUNTKEYSINSLOT", "RENAME", "SUNIONSTORE", "ZUNIONSTORE",
            "BLPOP", "FCALL", "FLUSHALL", "PING", "NX", "XX", "GET", "EX", "KEEPTTL",
        ]).prop_map(|w| w.as_bytes().to_vec()),
        4 => prop::sample::select(vec![
            "hello", "foo", "bar", "{user1}:a", "{user1}:b", "{t}x", "", "0", "1", "2", "-1",
            "16384", "5712", "99999999999999999999",
            "return redis.call('GET', KEYS[1])",
            "return {redis.call('GET', KEYS[1]), redis.call('GET', 'bar')}",
            "return redis.call('MGET', KEYS[1], KEYS[2])",
            "return redis.call('EVAL', 'return 1', 0)",
            "return {KEYS, ARGV, KEYS[3], {{{1}}}}",
        ]).prop_map(|w| w.as_bytes().to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..12),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn split_args_never_panics(line in line_chars()) {
        match split_args(&line) {
            Ok(args) => prop_assert!(args.len() <= line.len()),
            Err(e) => prop_assert!(e.column() >= 1 && e.column() <= line.chars().count() + 1),
        }
    }

    #[test]
    fn typed_lines_never_panic(lines in prop::collection::vec(line_chars(), 1..6)) {
        let mut cluster = Cluster::new(SlotMap::fixture_cluster());
        let mut cli = Cli::new(M0, true, true);
        for line in &lines {
            let _ = cli.type_line(&mut cluster, line).text();
        }
    }

    #[test]
    fn exec_never_panics(
        commands in prop::collection::vec(prop::collection::vec(word(), 0..7), 1..10),
        nodes in prop::collection::vec(0usize..7, 1..10),
    ) {
        let addrs = [M0, M1, M2, "127.0.0.1:7003", R0, "127.0.0.1:7005", "127.0.0.1:9"];
        let mut cluster = Cluster::new(SlotMap::fixture_cluster());
        let mut session = Session::new();
        for (args, n) in commands.iter().zip(nodes.iter().cycle()) {
            let reply = cluster.exec(addrs[*n], args, &mut session);
            let _ = (reply.to_cli(), reply.to_resp());
            let _ = key_positions(args).map(|spec| spec.keys(args));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Typed errors print Redis's text
// ---------------------------------------------------------------------------------------------

/// Every error the recorded sessions show, built as data, prints exactly as redis-cli printed
/// it in the transcripts of a real Redis 7.0.15 cluster.
#[test]
fn typed_errors_print_as_the_transcripts_recorded_them() {
    let dir = common::fixtures_dir().join("transcripts");
    let mut recorded = String::new();
    for entry in std::fs::read_dir(&dir).expect("transcripts") {
        let path = entry.expect("entry").path();
        recorded.push_str(&std::fs::read_to_string(&path).expect("transcript"));
    }
    let moved = |slot: u16, addr: &str| ErrorReply::Moved {
        slot,
        addr: addr.to_owned(),
    };
    let errors = [
        moved(12182, M2),
        moved(5712, M1),
        moved(9779, M1),
        ErrorReply::Ask {
            slot: 5712,
            addr: M2.to_owned(),
        },
        ErrorReply::TryAgain,
        ErrorReply::CrossSlot,
        ErrorReply::ExecAbort,
        ErrorReply::Script {
            error: slotscope::core::server::reply::ScriptCallError::NonLocalKey,
            sha: "8a834a7d18be1c3adf6cd25d34bc92a10665fb77".to_owned(),
            line: 1,
        },
    ];
    for e in errors {
        let printed = Reply::Error(e.clone()).to_cli();
        assert!(recorded.contains(&printed), "{e:?} prints {printed:?}");
    }
}

/// The errors no transcript recorded print Redis 7.0.15's text (from its source: cluster.c,
/// server.c, multi.c, t_string.c, eval.c), not a paraphrase.
#[test]
fn typed_errors_print_redis_source_text() {
    use slotscope::core::server::reply::{ClusterDown, ScriptCallError, SetSlotError};
    let cases: Vec<(ErrorReply, &str)> = vec![
        (
            ErrorReply::ClusterDown(ClusterDown::SlotNotServed),
            "CLUSTERDOWN Hash slot not served",
        ),
        (
            ErrorReply::ClusterDown(ClusterDown::Down),
            "CLUSTERDOWN The cluster is down",
        ),
        (
            ErrorReply::ReadonlyReplica,
            "READONLY You can't write against a read only replica.",
        ),
        (ErrorReply::NestedMulti, "ERR MULTI calls can not be nested"),
        (ErrorReply::ExecWithoutMulti, "ERR EXEC without MULTI"),
        (
            ErrorReply::NotInteger,
            "ERR value is not an integer or out of range",
        ),
        (
            ErrorReply::SetSlot(SetSlotError::NotOwner { slot: 7 }),
            "ERR I'm not the owner of hash slot 7",
        ),
        (
            ErrorReply::TargetReplied(Box::new(ErrorReply::BusyKey)),
            "ERR Target instance replied with error: BUSYKEY Target key name already exists.",
        ),
        (
            ErrorReply::Script {
                error: ScriptCallError::Reply(Box::new(ErrorReply::NotInteger)),
                sha: "ab".to_owned(),
                line: 2,
            },
            "ERR value is not an integer or out of range script: ab, on @user_script:2.",
        ),
        (
            ErrorReply::NoScript,
            "NOSCRIPT No matching script. Please use EVAL.",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
        assert_eq!(
            Reply::Error(e).to_resp(),
            format!("-{text}\r\n").into_bytes()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Found by the differential test (tests/differential.rs) against a real 7.0.15 cluster; each
// expected reply below is what redis-server 7.0.15 answered (recorded with redis-cli).
// ---------------------------------------------------------------------------------------------

/// Once a transaction is aborted, Redis answers QUEUED but keeps no more commands
/// (`queueMultiCommand`), so a later key in another slot cannot make EXEC answer CROSSSLOT.
/// Recorded: `MULTI`, `SET {a}1 x`, `GET` (arity error), `GET k1` → `QUEUED`, then `EXEC` →
/// `EXECABORT …` (without the refused `GET`, the same EXEC answers CROSSSLOT).
#[test]
fn an_aborted_transaction_keeps_no_more_commands() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    assert_eq!(run(&mut c, M2, &mut s, "MULTI"), Reply::Ok);
    assert_eq!(
        run(&mut c, M2, &mut s, "SET {a}1 x"),
        Reply::Status("QUEUED".into())
    );
    assert_eq!(
        error_text(run(&mut c, M2, &mut s, "GET")),
        "ERR wrong number of arguments for 'get' command"
    );
    assert_eq!(
        run(&mut c, M2, &mut s, "GET k1"),
        Reply::Status("QUEUED".into())
    );
    assert_eq!(
        error_text(run(&mut c, M2, &mut s, "EXEC")),
        "EXECABORT Transaction discarded because of previous errors."
    );
    run(&mut c, M2, &mut s, "MULTI");
    run(&mut c, M2, &mut s, "SET {a}1 x");
    run(&mut c, M2, &mut s, "GET k1");
    assert_eq!(
        error_text(run(&mut c, M2, &mut s, "EXEC")),
        "CROSSSLOT Keys in request don't hash to the same slot"
    );
}

/// Lua keeps numbers as doubles, and Redis casts them back with C's `(long long)`.
/// Recorded: `EVAL "return 9223372036854775806" 0` → `(integer) -9223372036854775808`,
/// `EVAL "return 9007199254740993" 0` → `(integer) 9007199254740992`, and
/// `EVAL "return redis.call('INCRBY', KEYS[1], '9223372036854775807')" 1 x` (x missing) →
/// `(integer) -9223372036854775808`.
#[test]
fn script_integers_pass_through_lua_doubles() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    let eval = |c: &mut Cluster, s: &mut Session, script: &str, keys: &[&str]| {
        let mut args = vec![
            b"EVAL".to_vec(),
            script.as_bytes().to_vec(),
            keys.len().to_string().into_bytes(),
        ];
        args.extend(keys.iter().map(|k| k.as_bytes().to_vec()));
        c.exec(M0, &args, s)
    };
    assert_eq!(
        eval(&mut c, &mut s, "return 9223372036854775806", &[]),
        Reply::Int(i64::MIN)
    );
    assert_eq!(
        eval(&mut c, &mut s, "return 9007199254740993", &[]),
        Reply::Int(9_007_199_254_740_992)
    );
    assert_eq!(
        eval(&mut c, &mut s, "return {-9223372036854775807, 5}", &[]),
        Reply::Array(vec![Reply::Int(i64::MIN), Reply::Int(5)])
    );
    // "hello" hashes to slot 866, served by 7000.
    assert_eq!(
        eval(
            &mut c,
            &mut s,
            "return redis.call('INCRBY', KEYS[1], '9223372036854775807')",
            &["hello"]
        ),
        Reply::Int(i64::MIN)
    );
}

/// Recorded: `EVAL "return redis.call('MULTI')" 0` →
/// `ERR This Redis command is not allowed from script script: <sha1>, on @user_script:1.`
/// ("from script", singular).
#[test]
fn a_script_calling_multi_is_refused_in_redis_words() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    let script = "return redis.call('MULTI')";
    let reply = c.exec(
        M0,
        &[b"EVAL".to_vec(), script.as_bytes().to_vec(), b"0".to_vec()],
        &mut s,
    );
    assert_eq!(
        error_text(reply),
        format!(
            "ERR This Redis command is not allowed from script script: {}, on @user_script:1.",
            sha1_hex(script.as_bytes())
        )
    );
}

/// A Lua number given to `redis.call` is written as `"%.17g"` of the double. Recorded:
/// `redis.call('SET', KEYS[1], 99999999999999999)` stores `1e+17`,
/// `… 123456789012345678)` stores `1.2345678901234568e+17`, `… -100000000000000000)` stores
/// `-1e+17`, `… 12345)` stores `12345`.
#[test]
fn lua_numbers_given_to_redis_call_are_written_as_redis_writes_them() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    for (literal, stored) in [
        ("99999999999999999", "1e+17"),
        ("123456789012345678", "1.2345678901234568e+17"),
        ("-100000000000000000", "-1e+17"),
        ("12345", "12345"),
        ("9007199254740993", "9007199254740992"),
    ] {
        let script = format!("return redis.call('SET', KEYS[1], {literal})");
        let args = [
            b"EVAL".to_vec(),
            script.into_bytes(),
            b"1".to_vec(),
            b"hello".to_vec(),
        ];
        assert_eq!(c.exec(M0, &args, &mut s), Reply::Ok);
        assert_eq!(c.peek(M0, b"hello"), Some(stored.as_bytes()), "{literal}");
    }
}

/// MIGRATE with KEYS and a non-empty key argument has no keys at all in 7.0.15
/// (`migrateGetKeys`: "a syntax error … leave it to migrateCommand"), so it is never
/// redirected. Recorded on the fixtures' layout: `MIGRATE 127.0.0.1 7001 foo 0 5000 KEYS k1` on
/// 7000 and on 7002 → `ERR When using MIGRATE KEYS option, the key argument must be set to the
/// empty string`; on 7003 (a replica) → `READONLY You can't write against a read only
/// replica.`; inside MULTI on 7000 → `QUEUED`. The engine routes it by `foo` (MOVED).
#[test]
fn migrate_keys_with_a_key_argument_has_no_keys() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let line = "MIGRATE 127.0.0.1 7001 foo 0 5000 KEYS k1";
    let refused =
        "ERR When using MIGRATE KEYS option, the key argument must be set to the empty string";
    assert_eq!(
        error_text(run(&mut c, M0, &mut Session::new(), line)),
        refused
    );
    assert_eq!(
        error_text(run(&mut c, M2, &mut Session::new(), line)),
        refused
    );
    assert_eq!(
        error_text(run(&mut c, "127.0.0.1:7003", &mut Session::new(), line)),
        "READONLY You can't write against a read only replica."
    );
    let mut s = Session::new();
    run(&mut c, M0, &mut s, "MULTI");
    assert_eq!(
        run(&mut c, M0, &mut s, line),
        Reply::Status("QUEUED".into())
    );
}

/// A touched WATCHed key aborts the transaction like a refused command does: Redis keeps no
/// more queued commands (`queueMultiCommand` returns early on `CLIENT_DIRTY_CAS` too), so a
/// key in another slot queued after the touch cannot make EXEC answer CROSSSLOT. Recorded on
/// 7002 with two connections A and B: A `WATCH k1`, B `SET k1 x`, A `MULTI`, `GET k1`,
/// `GET foo` (both `+QUEUED`), `EXEC` → `*-1`; without B's SET the same EXEC →
/// `-CROSSSLOT …`; with B's SET between A's two GETs → `*-1`. Found by the differential test
/// on a trial merge with the `data` branch, whose engine runs WATCH but still queued them.
#[test]
fn a_touched_watched_key_keeps_no_more_commands() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let (mut a, mut b) = (Session::new(), Session::new());
    assert_eq!(run(&mut c, M2, &mut a, "WATCH k1"), Reply::Ok);
    assert_eq!(run(&mut c, M2, &mut b, "SET k1 x"), Reply::Ok);
    assert_eq!(run(&mut c, M2, &mut a, "MULTI"), Reply::Ok);
    assert_eq!(
        run(&mut c, M2, &mut a, "GET k1"),
        Reply::Status("QUEUED".into())
    );
    assert_eq!(
        run(&mut c, M2, &mut a, "GET foo"),
        Reply::Status("QUEUED".into())
    );
    assert_eq!(run(&mut c, M2, &mut a, "EXEC").to_resp(), b"*-1\r\n");
    run(&mut c, M2, &mut a, "WATCH k1");
    run(&mut c, M2, &mut a, "MULTI");
    run(&mut c, M2, &mut a, "GET k1");
    run(&mut c, M2, &mut a, "GET foo");
    assert_eq!(
        error_text(run(&mut c, M2, &mut a, "EXEC")),
        "CROSSSLOT Keys in request don't hash to the same slot"
    );
    run(&mut c, M2, &mut a, "WATCH k1");
    run(&mut c, M2, &mut a, "MULTI");
    run(&mut c, M2, &mut a, "GET k1");
    run(&mut c, M2, &mut b, "SET k1 y");
    run(&mut c, M2, &mut a, "GET foo");
    assert_eq!(run(&mut c, M2, &mut a, "EXEC").to_resp(), b"*-1\r\n");
}

/// Found by the differential test (seeds 1 and 2), then recorded with redis-cli on a real
/// 7.0.15 cluster master: the default user has `nopass`, so AUTH default <anything> is OK;
/// PUBSUB CHANNELS takes one pattern at most; CLUSTER REPLICAS of a replica, and of an unknown
/// id, are refused.
#[test]
fn differential_regressions_auth_pubsub_replicas() {
    let mut c = Cluster::new(SlotMap::fixture_cluster());
    let mut s = Session::new();
    assert_eq!(run(&mut c, M2, &mut s, "AUTH default whatever"), Reply::Ok);
    assert_eq!(
        error_text(run(&mut c, M2, &mut s, "AUTH bob pw")),
        "WRONGPASS invalid username-password pair or user is disabled."
    );
    assert_eq!(
        error_text(run(&mut c, M2, &mut s, "AUTH default secret nan")),
        "ERR syntax error"
    );
    assert_eq!(
        error_text(run(&mut c, M2, &mut s, "PUBSUB CHANNELS a b c")),
        "ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP."
    );
    assert_eq!(
        error_text(run(
            &mut c,
            M2,
            &mut s,
            "CLUSTER REPLICAS 0000000000000000000000000000000000000000"
        )),
        "ERR Unknown node 0000000000000000000000000000000000000000"
    );
    let replica = SlotMap::fixture_cluster().masters()[0].replicas[0]
        .id
        .clone();
    assert_eq!(
        error_text(run(
            &mut c,
            M2,
            &mut s,
            &format!("CLUSTER REPLICAS {replica}")
        )),
        "ERR The specified node is not a master"
    );
    // Seed 4: strtoul stops at the cursor's NUL byte, so this cursor is 0 (a missing key: the
    // empty scan), as a real node answered.
    let nul = vec![
        b"ZSCAN".to_vec(),
        b"{user:1001}:profile".to_vec(),
        b"\x00\xff\r\n".to_vec(),
    ];
    assert_eq!(
        c.exec("127.0.0.1:7001", &nul, &mut s).to_resp(),
        b"*2\r\n$1\r\n0\r\n*0\r\n"
    );
    // Seed 4: GEOPOS reads a score as C's (uint64_t) cast on x86-64, so 1e300 is 0 (the
    // south-west corner) and -5 wraps to the north-east one, as a real node printed.
    run(&mut c, M2, &mut s, "ZADD g{m} 1e300 a -5 b");
    assert_eq!(
        run(&mut c, M2, &mut s, "GEOPOS g{m} a b").to_cli(),
        "1) 1) \"-179.99999731779098511\"\n   2) \"-85.05112751263942528\"\n\
         2) 1) \"180\"\n   2) \"85.0511287799999991\"\n"
    );
}
