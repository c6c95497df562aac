//! Replays a transcript recorded from a real redis-server 7.0.15 (`record.py` beside it: each
//! command line sent with `redis-cli --no-raw`, its output pasted below `> command`) on one
//! node's key space ([`Db::exec`]) and compares what redis-cli would print, byte for byte.
//! `~> command` marks a reply whose order is the hash table's (compared as a multiset), and
//! `?> command` a random one (SPOP), run for its effect and not compared.
//! Commands of the other helpers' modules the transcripts use for setup or inspection (`SET`,
//! `EXISTS`, `TYPE`, `OBJECT ENCODING`, `DEL`, `RPUSH`, whole-list `LRANGE`) fall back to a
//! minimal stand-in when `Db::exec` does not run them yet.

use slotscope::core::key::args::split_args;
use slotscope::core::server::data::{Db, List, Value};
use slotscope::core::server::Reply;

/// The simulated clock the replays run at (unix ms).
pub const NOW: i64 = 1_700_000_000_000;

fn fallback(db: &mut Db, name: &str, args: &[Vec<u8>]) -> Reply {
    let key = args.get(1).cloned().unwrap_or_default();
    match name {
        "set" => {
            let v = args.get(2).cloned().unwrap_or_default();
            db.insert(&key, Value::Str(v), NOW, false);
            Reply::Ok
        }
        "rpush" => {
            let mut list = match db.value(&key, NOW) {
                Some(Value::List(l)) => l.clone(),
                _ => List::default(),
            };
            list.items.extend(args.iter().skip(2).cloned());
            let n = list.items.len() as i64;
            db.insert(&key, Value::List(list), NOW, false);
            Reply::Int(n)
        }
        "lrange" => match db.value(&key, NOW) {
            Some(Value::List(l)) => Reply::Array(
                l.items
                    .iter()
                    .map(|v| Reply::Bulk(Some(v.clone())))
                    .collect(),
            ),
            _ => Reply::Array(vec![]),
        },
        "exists" => Reply::Int(i64::from(db.value(&key, NOW).is_some())),
        "del" => Reply::Int(i64::from(db.remove(&key, NOW).is_some())),
        "type" => Reply::Status(
            db.value(&key, NOW)
                .map_or("none", |v| v.type_name())
                .to_owned(),
        ),
        "object" => {
            let key = args.get(2).cloned().unwrap_or_default();
            let enc = match db.value(&key, NOW) {
                Some(Value::Set(s)) => s.encoding(),
                Some(Value::ZSet(z)) => z.encoding(),
                Some(other) => panic!("no stand-in encoding for {}", other.type_name()),
                None => return Reply::Bulk(None),
            };
            Reply::Bulk(Some(enc.as_bytes().to_vec()))
        }
        other => panic!("the transcript uses {other}, which nothing runs"),
    }
}

/// Runs one command line on `db` and returns what redis-cli prints.
pub fn run_line(db: &mut Db, line: &str) -> String {
    let args = split_args(line).expect("a command line redis-cli reads");
    let mut name = String::from_utf8_lossy(&args[0]).to_ascii_lowercase();
    if name == "object" {
        name = format!(
            "object|{}",
            String::from_utf8_lossy(&args[1]).to_ascii_lowercase()
        );
    }
    match db.exec(NOW, &name, &args) {
        Some(reply) => reply.to_cli(),
        None => fallback(db, name.split('|').next().unwrap_or(""), &args).to_cli(),
    }
}

/// An array's printed lines without their `N) ` numbers, sorted.
fn unordered(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .lines()
        .map(|l| {
            // Every leading `N) ` goes (a nested array's first line carries two).
            let mut t = l.trim_start();
            while let Some(i) = t.find(") ") {
                if i == 0 || !t[..i].bytes().all(|b| b.is_ascii_digit()) {
                    break;
                }
                t = t[i + 2..].trim_start();
            }
            t.to_owned()
        })
        .collect();
    lines.sort();
    lines
}

/// Replays `transcript` on a fresh key space; every mismatch is reported at once.
pub fn replay(transcript: &str) {
    let mut db = Db::default();
    let mut failures = Vec::new();
    let mut lines = transcript.lines().peekable();
    let mut count = 0;
    while let Some(line) = lines.next() {
        if let Some(c) = line.strip_prefix("?> ") {
            // A random reply (SPOP): run for its effect, its reply is not compared.
            run_line(&mut db, c);
            continue;
        }
        let (unordered_reply, cmd) = if let Some(c) = line.strip_prefix("> ") {
            (false, c)
        } else if let Some(c) = line.strip_prefix("~> ") {
            (true, c)
        } else {
            continue;
        };
        let mut expected = String::new();
        while let Some(next) = lines.peek() {
            if next.starts_with("> ")
                || next.starts_with("~> ")
                || next.starts_with("?> ")
                || next.starts_with('#')
            {
                break;
            }
            expected.push_str(next);
            expected.push('\n');
            lines.next();
        }
        let got = run_line(&mut db, cmd);
        count += 1;
        let same = if unordered_reply {
            unordered(&got) == unordered(&expected)
        } else {
            got == expected
        };
        if !same {
            failures.push(format!("> {cmd}\nredis:\n{expected}page:\n{got}"));
        }
    }
    assert!(count > 0, "an empty transcript proves nothing");
    assert!(
        failures.is_empty(),
        "{} of {count} replies differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
