//! Generates Redis 7.0.15's command table from Redis's own replies to `COMMAND` and
//! `COMMAND DOCS` (kept byte for byte in `data/redis-7.0.15/`, a test checks they still equal the
//! shared fixtures): every command and subcommand with its `CommandId`, arity, flags, legacy key
//! range, ACL categories, tips and key specs, and each one's docs in a compact form (a string
//! table and a small opcode stream that `core::server::table` turns back into the reply).

use serde_json::Value;
#[path = "src/core/server/flag_names.rs"]
mod flag_names;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

const FLAGS: &[&str] = &flag_names::COMMAND_FLAGS;

const ACL: &[&str] = &flag_names::ACL_CATEGORIES;

const KEY_FLAGS: &[&str] = &flag_names::KEY_SPEC_FLAGS;

/// Argument flags of `COMMAND DOCS` (`addReplyFlagsForArg`): printed as status replies.
const ARG_FLAGS: &[&str] = &["optional", "multiple", "multiple_token"];

fn bits(names: &[Value], order: &[&str], what: &str, cmd: &str) -> u64 {
    let mut out = 0u64;
    let mut last: Option<usize> = None;
    for n in names {
        let n = n.as_str().expect("flag is a string");
        let n = n.strip_prefix('@').unwrap_or(n);
        let i = order
            .iter()
            .position(|f| *f == n)
            .unwrap_or_else(|| panic!("{cmd}: unknown {what} {n}"));
        assert!(
            last.is_none_or(|l| l < i),
            "{cmd}: {what} out of Redis's order"
        );
        last = Some(i);
        out |= 1 << i;
    }
    out
}

/// The CamelCase variant name: the name's words (split at `|`, `_` and `-`) each capitalised.
fn variant(name: &str) -> String {
    name.split(['|', '_', '-'])
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

fn int(v: &Value) -> i64 {
    v.as_i64().expect("an integer")
}

struct Docs {
    strings: Vec<String>,
    index: HashMap<String, usize>,
    bytes: Vec<u8>,
}

const OP_ARRAY: u8 = 0;
const OP_BULK: u8 = 1;
const OP_STATUS: u8 = 2;
const OP_INT: u8 = 3;
const OP_SUBDOCS: u8 = 4;

impl Docs {
    fn varint(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.bytes.push(b);
                return;
            }
            self.bytes.push(b | 0x80);
        }
    }

    fn string(&mut self, op: u8, s: &str) {
        let i = match self.index.get(s) {
            Some(&i) => i,
            None => {
                self.strings.push(s.to_owned());
                self.index.insert(s.to_owned(), self.strings.len() - 1);
                self.strings.len() - 1
            }
        };
        self.bytes.push(op);
        self.varint(i as u64);
    }

    fn array(&mut self, n: usize) {
        self.bytes.push(OP_ARRAY);
        self.varint(n as u64);
    }

    fn int(&mut self, v: i64) {
        self.bytes.push(OP_INT);
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// A JSON value of the docs as RESP2 (maps flattened), `key` saying whose value it is.
    fn value(&mut self, key: &str, v: &Value) {
        match v {
            Value::String(s) => self.string(OP_BULK, s),
            Value::Number(n) => self.int(n.as_i64().expect("integer")),
            // The fixture's converter read some two-flag arrays as maps: `{"optional":
            // "multiple"}` is `["optional", "multiple"]`.
            Value::Object(m) if key == "flags" || key == "doc_flags" => {
                self.array(m.len() * 2);
                for (k, v) in m {
                    self.string(OP_STATUS, k);
                    self.string(OP_STATUS, v.as_str().expect("flag"));
                }
            }
            Value::Array(items) if key == "flags" || key == "doc_flags" => {
                self.array(items.len());
                for f in items {
                    let f = f.as_str().expect("flag");
                    assert!(key == "doc_flags" || ARG_FLAGS.contains(&f));
                    self.string(OP_STATUS, f);
                }
            }
            Value::Object(m) => self.map(m),
            Value::Array(items) => {
                self.array(items.len());
                for item in items {
                    self.value("", item);
                }
            }
            other => panic!("unexpected docs value {other}"),
        }
    }

    fn map(&mut self, m: &serde_json::Map<String, Value>) {
        self.array(m.len() * 2);
        for (k, v) in m {
            self.string(OP_BULK, k);
            self.value(k, v);
        }
    }

    /// One command's docs map; its subcommands' docs are referenced by their index in the
    /// command's subcommand list (each is encoded on its own, for `COMMAND DOCS a|b`).
    fn command(&mut self, doc: &Value, subs: &[String]) -> (usize, usize) {
        let m = doc.as_object().expect("docs map");
        let start = self.bytes.len();
        self.array(m.len() * 2);
        for (k, v) in m {
            self.string(OP_BULK, k);
            if k == "subcommands" {
                let list = v.as_array().expect("subcommands list");
                let names: Vec<&str> = list
                    .iter()
                    .step_by(2)
                    .map(|n| n.as_str().expect("name"))
                    .collect();
                self.bytes.push(OP_SUBDOCS);
                self.varint(names.len() as u64);
                for n in names {
                    let i = subs
                        .iter()
                        .position(|s| s == n)
                        .expect("documented subcommand");
                    self.varint(i as u64);
                }
            } else {
                self.value(k, v);
            }
        }
        (start, self.bytes.len())
    }
}

struct Gen {
    docs: Docs,
    variants: Vec<(String, String)>,
    doc_of: HashMap<String, Value>,
}

impl Gen {
    fn command(&mut self, c: &Value, out: &mut String, indent: &str) {
        let name = c["name"].as_str().expect("name");
        let v = variant(name);
        assert!(
            !self.variants.iter().any(|(x, _)| *x == v),
            "two commands named {v}"
        );
        self.variants.push((v.clone(), name.to_owned()));
        let flags = bits(c["flags"].as_array().expect("flags"), FLAGS, "flag", name);
        let acl = bits(
            c["acl_categories"].as_array().expect("acl"),
            ACL,
            "category",
            name,
        );
        let tips: Vec<String> = c["tips"]
            .as_array()
            .expect("tips")
            .iter()
            .map(|t| format!("{:?}", t.as_str().expect("tip")))
            .collect();
        let subs = c["subcommands"].as_array().expect("subcommands");
        let sub_names: Vec<String> = subs
            .iter()
            .map(|s| s["name"].as_str().expect("name").to_owned())
            .collect();
        let doc = self
            .doc_of
            .get(name)
            .cloned()
            .expect("every command is documented");
        let (ds, de) = self.docs.command(&doc, &sub_names);
        writeln!(out, "{indent}CommandInfo {{").unwrap();
        writeln!(out, "{indent}    id: CommandId::{v},").unwrap();
        writeln!(out, "{indent}    name: {name:?},").unwrap();
        writeln!(out, "{indent}    arity: {},", int(&c["arity"])).unwrap();
        writeln!(out, "{indent}    flags: {flags:#x},").unwrap();
        writeln!(out, "{indent}    write: {},", flags & 1 != 0).unwrap();
        writeln!(out, "{indent}    noscript: {},", flags & (1 << 6) != 0).unwrap();
        writeln!(
            out,
            "{indent}    legacy: ({}, {}, {}),",
            int(&c["first_key"]),
            int(&c["last_key"]),
            int(&c["step"])
        )
        .unwrap();
        writeln!(out, "{indent}    acl: {acl:#x},").unwrap();
        writeln!(out, "{indent}    tips: &[{}],", tips.join(", ")).unwrap();
        writeln!(out, "{indent}    key_specs: &[").unwrap();
        for spec in c["key_specs"].as_array().expect("key specs") {
            let notes = match spec.get("notes") {
                Some(n) => format!("Some({:?})", n.as_str().expect("notes")),
                None => "None".to_owned(),
            };
            let kflags = bits(
                spec["flags"].as_array().expect("flags"),
                KEY_FLAGS,
                "key flag",
                name,
            );
            let bs = &spec["begin_search"];
            let begin = match bs["type"].as_str().expect("type") {
                "index" => format!("BeginSearch::Index({})", int(&bs["spec"]["index"])),
                "keyword" => format!(
                    "BeginSearch::Keyword {{ keyword: {:?}, startfrom: {} }}",
                    bs["spec"]["keyword"].as_str().expect("keyword"),
                    int(&bs["spec"]["startfrom"])
                ),
                "unknown" => "BeginSearch::Unknown".to_owned(),
                t => panic!("begin_search {t}"),
            };
            let fk = &spec["find_keys"];
            let find = match fk["type"].as_str().expect("type") {
                "range" => format!(
                    "FindKeys::Range {{ lastkey: {}, keystep: {}, limit: {} }}",
                    int(&fk["spec"]["lastkey"]),
                    int(&fk["spec"]["keystep"]),
                    int(&fk["spec"]["limit"])
                ),
                "keynum" => format!(
                    "FindKeys::Keynum {{ keynumidx: {}, firstkey: {}, keystep: {} }}",
                    int(&fk["spec"]["keynumidx"]),
                    int(&fk["spec"]["firstkey"]),
                    int(&fk["spec"]["keystep"])
                ),
                "unknown" => "FindKeys::Unknown".to_owned(),
                t => panic!("find_keys {t}"),
            };
            writeln!(
                out,
                "{indent}        KeySpecDef {{ notes: {notes}, flags: {kflags:#x}, begin: {begin}, find: {find} }},"
            )
            .unwrap();
        }
        writeln!(out, "{indent}    ],").unwrap();
        writeln!(out, "{indent}    docs: ({ds}, {de}),").unwrap();
        writeln!(out, "{indent}    subcommands: &[").unwrap();
        for s in subs {
            self.command(s, out, &format!("{indent}        "));
        }
        writeln!(out, "{indent}    ],").unwrap();
        writeln!(out, "{indent}}},").unwrap();
    }
}

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let info_path = dir.join("data/redis-7.0.15/command_info.json");
    let docs_path = dir.join("data/redis-7.0.15/command_docs.json");
    println!("cargo:rerun-if-changed={}", info_path.display());
    println!("cargo:rerun-if-changed={}", docs_path.display());
    println!("cargo:rerun-if-changed=build.rs");
    let read = |p: &PathBuf| -> Value {
        let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    };
    let info = read(&info_path);
    let docs = read(&docs_path);
    let commands = info["commands"].as_array().expect("commands");
    let mut doc_of: HashMap<String, Value> = HashMap::new();
    for (name, doc) in docs["docs"].as_object().expect("docs") {
        doc_of.insert(name.clone(), doc.clone());
        if let Some(subs) = doc.get("subcommands").and_then(Value::as_array) {
            for pair in subs.chunks(2) {
                if let [n, d] = pair {
                    doc_of.insert(n.as_str().expect("name").to_owned(), d.clone());
                }
            }
        }
    }
    let docs_order: Vec<&String> = docs["docs"].as_object().expect("docs").keys().collect();
    let mut g = Gen {
        docs: Docs {
            strings: Vec::new(),
            index: HashMap::new(),
            bytes: Vec::new(),
        },
        variants: Vec::new(),
        doc_of,
    };
    let mut table = String::new();
    writeln!(
        table,
        "/// The command table: Redis 7.0.15's 240 commands in the order its `COMMAND` listed them,\n/// each with its subcommands.\npub(super) static COMMANDS: &[CommandInfo] = &["
    )
    .unwrap();
    for c in commands {
        g.command(c, &mut table, "    ");
    }
    writeln!(table, "];").unwrap();
    let position = |n: &str| {
        commands
            .iter()
            .position(|c| c["name"].as_str() == Some(n))
            .expect("documented command is in the table")
    };
    let order: Vec<String> = docs_order.iter().map(|n| position(n).to_string()).collect();
    writeln!(
        table,
        "/// The order `COMMAND DOCS` listed the commands in (indexes into [`COMMANDS`]).\npub(super) static DOCS_ORDER: &[u16] = &[{}];",
        order.join(", ")
    )
    .unwrap();

    let mut out = String::new();
    writeln!(
        out,
        "/// Which command a table entry is: one variant per command and subcommand of Redis 7.0.15\n/// (generated by `build.rs` from `data/redis-7.0.15/command_info.json`). The variant is the\n/// name's words (split at `|`, `_` and `-`) each capitalised: `get` → `Get`, `getset` →\n/// `Getset`, `cluster|keyslot` → `ClusterKeyslot`, `georadius_ro` → `GeoradiusRo`,\n/// `restore-asking` → `RestoreAsking`.\n#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\npub enum CommandId {{"
    )
    .unwrap();
    for (v, name) in &g.variants {
        writeln!(out, "    /// `{name}`.\n    {v},").unwrap();
    }
    writeln!(out, "}}\n").unwrap();
    out.push_str(&table);
    let text: String = g.docs.strings.concat();
    let mut ends = Vec::new();
    let mut at = 0usize;
    for s in &g.docs.strings {
        at += s.len();
        ends.push(at.to_string());
    }
    writeln!(
        out,
        "/// Every string of the docs, back to back (see [`DOC_ENDS`]).\npub(super) static DOC_TEXT: &str = {text:?};\n/// Where each string of [`DOC_TEXT`] ends.\npub(super) static DOC_ENDS: &[u32] = &[{}];",
        ends.join(",")
    )
    .unwrap();
    let bytes: Vec<String> = g.docs.bytes.iter().map(u8::to_string).collect();
    writeln!(
        out,
        "/// The docs of every command as opcodes (array, bulk, status, integer, subcommand docs)\n/// over [`DOC_TEXT`]'s strings.\npub(super) static DOC_OPS: &[u8] = &[{}];",
        bytes.join(",")
    )
    .unwrap();
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out_dir.join("commands.rs"), out).expect("write the table");
}
