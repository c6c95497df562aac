//! `core::cluster::import` (and `export`) against the CLUSTER NODES, SHARDS and SLOTS output recorded from real Redis 7.0.15 (../shared/fixtures).
//! Long because every paste format and every way to break one is a case of its own.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use slotscope::core::cluster::export::export_nodes;
use slotscope::core::cluster::import::{
    detect, import, Counter, Expected, Format, Found, ImportErrorKind, ImportWarning,
    MAX_INPUT_BYTES,
};
use slotscope::core::cluster::topology::{Replica, SlotMap, SlotRange};
use std::collections::BTreeMap;
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------------
// Fixture files, cut at their prompt lines.

/// One command of a fixture file: its prompt line and the output after it, up to the next prompt.
#[derive(Clone, Debug)]
struct Section {
    /// `file:line` of the prompt, for messages.
    origin: String,
    /// The prompt line (`$ redis-cli -p 7000 CLUSTER NODES`).
    prompt: String,
    /// The prompt line followed by the output, as in the file.
    text: String,
}

/// A prompt as the fixtures write them: bash (`$ ...`) or interactive redis-cli (`host:port> ...`).
fn is_prompt(line: &str) -> bool {
    line.starts_with("$ ")
        || line
            .split_once('>')
            .is_some_and(|(p, _)| p.contains(':') && !p.contains(' '))
}

/// Which command a prompt line runs, read from the prompt itself.
fn command_of(prompt: &str) -> Option<Format> {
    let upper = prompt.to_ascii_uppercase();
    if upper.contains("CLUSTER NODES") {
        Some(Format::Nodes)
    } else if upper.contains("CLUSTER SHARDS") {
        Some(Format::Shards)
    } else if upper.contains("CLUSTER SLOTS") {
        Some(Format::Slots)
    } else {
        None
    }
}

fn read_fixture(rel: &str) -> String {
    let path = common::fixtures_dir().join(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()))
}

fn sections_of(rel: &str) -> Vec<Section> {
    let text = read_fixture(rel);
    let mut out: Vec<Section> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if is_prompt(line) {
            out.push(Section {
                origin: format!("{rel}:{}", i + 1),
                prompt: line.to_owned(),
                text: format!("{line}\n"),
            });
        } else if let Some(s) = out.last_mut() {
            s.text.push_str(line);
            s.text.push('\n');
        }
    }
    out
}

/// Every fixture file that holds CLUSTER NODES, SHARDS or SLOTS output.
fn cluster_files() -> Vec<String> {
    let dir = common::fixtures_dir();
    let mut files = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(dir.join("transcripts"))
        .expect("transcripts/")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        if ["07_", "10_", "12_", "14_", "16_"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            files.push(format!("transcripts/{name}"));
        }
    }
    let mut cases: Vec<_> = std::fs::read_dir(dir.join("reshard_cases"))
        .expect("reshard_cases/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    for case in cases {
        let mut names: Vec<String> = std::fs::read_dir(&case)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt") && n != "commands.txt")
            .collect();
        names.sort();
        let case = case.file_name().unwrap().to_string_lossy().into_owned();
        files.extend(
            names
                .into_iter()
                .map(|n| format!("reshard_cases/{case}/{n}")),
        );
    }
    for n in [7, 11, 78, 100] {
        files.push(format!("create_outputs/create_{n}.txt"));
    }
    files
}

/// All sections of all those files, read once.
fn all_sections() -> &'static [Section] {
    static SECTIONS: OnceLock<Vec<Section>> = OnceLock::new();
    SECTIONS.get_or_init(|| {
        cluster_files()
            .iter()
            .flat_map(|f| sections_of(f))
            .collect()
    })
}

fn cluster_sections(format: Format) -> Vec<&'static Section> {
    all_sections()
        .iter()
        .filter(|s| command_of(&s.prompt) == Some(format))
        .collect()
}

/// The one section of `rel` that runs `format`.
fn section(rel: &str, format: Format) -> Section {
    let mut found: Vec<_> = sections_of(rel)
        .into_iter()
        .filter(|s| command_of(&s.prompt) == Some(format))
        .collect();
    assert_eq!(found.len(), 1, "{rel}: expected one {format} section");
    found.pop().unwrap()
}

// ---------------------------------------------------------------------------------------------
// What a CLUSTER NODES fixture line says, read with nothing but split_whitespace.

#[derive(Debug)]
struct FixtureNode {
    id: String,
    addr: String,
    flags: Vec<String>,
    master_of: Option<String>,
    ranges: Vec<String>,
    migrating: Vec<(u16, String)>,
    importing: Vec<(u16, String)>,
}

fn fixture_nodes(section: &Section) -> Vec<FixtureNode> {
    section
        .text
        .lines()
        .filter(|l| !l.trim().is_empty() && !is_prompt(l) && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let words: Vec<&str> = f[2].split(',').collect();
            let mut node = FixtureNode {
                id: f[0].to_owned(),
                addr: f[1].split('@').next().unwrap().to_owned(),
                flags: words
                    .iter()
                    .filter(|w| **w != "master" && **w != "slave")
                    .map(|w| w.to_string())
                    .collect(),
                master_of: words.contains(&"slave").then(|| f[3].to_owned()),
                ranges: Vec::new(),
                migrating: Vec::new(),
                importing: Vec::new(),
            };
            for s in &f[8..] {
                if let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                    if let Some((slot, id)) = inner.split_once("->-") {
                        node.migrating.push((slot.parse().unwrap(), id.to_owned()));
                    } else {
                        let (slot, id) = inner.split_once("-<-").unwrap();
                        node.importing.push((slot.parse().unwrap(), id.to_owned()));
                    }
                } else {
                    node.ranges.push(s.to_string());
                }
            }
            node
        })
        .collect()
}

fn slots_in(ranges: &[String]) -> usize {
    ranges
        .iter()
        .map(|r| match r.split_once('-') {
            Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
            None => 1,
        })
        .sum()
}

fn ranges_text(map: &SlotMap, master: usize) -> Vec<String> {
    map.ranges_of(master)
        .iter()
        .map(|r| r.to_string())
        .collect()
}

fn port(addr: &str) -> u16 {
    addr.rsplit_once(':').unwrap().1.parse().unwrap()
}

/// The map with every flag removed (SHARDS and SLOTS do not carry `myself`).
fn without_flags(mut map: SlotMap) -> SlotMap {
    for i in 0..map.n_masters() {
        let m = map.master_mut(i).unwrap();
        m.flags.clear();
        for r in &mut m.replicas {
            r.flags.clear();
        }
    }
    map
}

/// The map with every config epoch (and the current epoch) at 0: CLUSTER SHARDS and SLOTS show
/// no epochs, so their imports number the masters 1, 2, … instead.
fn without_epochs(mut map: SlotMap) -> SlotMap {
    for i in 0..map.n_masters() {
        map.master_mut(i).unwrap().epoch = 0;
    }
    map.set_current_epoch(0);
    map
}

// ---------------------------------------------------------------------------------------------
// The fixtures import, and say what the fixtures say.

#[test]
fn the_fixtures_hold_the_expected_number_of_cluster_listings() {
    // Every CLUSTER NODES file of reshard_cases (28), three in 07, one each in 10, 12, 14, 16,
    // and the tails of create_{7,11,78,100}.
    assert_eq!(cluster_sections(Format::Nodes).len(), 28 + 3 + 4 + 4);
    assert_eq!(cluster_sections(Format::Shards).len(), 2);
    assert_eq!(cluster_sections(Format::Slots).len(), 3);
}

#[test]
fn every_cluster_nodes_fixture_imports_with_the_slots_on_its_lines() {
    let sections = cluster_sections(Format::Nodes);
    for s in &sections {
        let imported = import(&s.text).unwrap_or_else(|e| panic!("{}: {e:?}", s.origin));
        let map = &imported.map;
        assert_eq!(imported.format, Format::Nodes, "{}", s.origin);
        let nodes = fixture_nodes(s);
        let masters: Vec<_> = nodes.iter().filter(|n| n.master_of.is_none()).collect();
        assert_eq!(map.n_masters(), masters.len(), "{}", s.origin);

        // Sorted by address (all fixtures share 127.0.0.1, so by port).
        let mut ports: Vec<u16> = masters.iter().map(|n| port(&n.addr)).collect();
        ports.sort();
        let got: Vec<u16> = map.masters().iter().map(|m| port(&m.addr)).collect();
        assert_eq!(got, ports, "{}: masters in address order", s.origin);

        for n in &masters {
            let i = map
                .master_by_id(&n.id)
                .unwrap_or_else(|| panic!("{}: no master {}", s.origin, n.id));
            let m = &map.masters()[i];
            assert_eq!(m.addr, n.addr, "{}", s.origin);
            assert_eq!(m.flags, n.flags, "{}: flags of {}", s.origin, n.addr);
            assert_eq!(ranges_text(map, i), n.ranges, "{}: {}", s.origin, n.addr);
            assert_eq!(m.migrating, n.migrating, "{}: {}", s.origin, n.addr);
            assert_eq!(m.importing, n.importing, "{}: {}", s.origin, n.addr);
            assert_eq!(m.hostname, None);
        }
        let mut n_replicas = 0;
        for n in nodes.iter().filter(|n| n.master_of.is_some()) {
            let i = map.master_by_id(n.master_of.as_ref().unwrap()).unwrap();
            let want = Replica {
                addr: n.addr.clone(),
                id: n.id.clone(),
                flags: n.flags.clone(),
            };
            assert!(
                map.masters()[i].replicas.contains(&want),
                "{}: replica {}",
                s.origin,
                n.addr
            );
            n_replicas += 1;
        }
        let total: usize = map.masters().iter().map(|m| m.replicas.len()).sum();
        assert_eq!(total, n_replicas, "{}", s.origin);

        let claimed: usize = masters.iter().map(|n| slots_in(&n.ranges)).sum();
        if claimed == 16384 {
            assert_eq!(imported.warnings, vec![], "{}", s.origin);
        } else {
            // Only h_del_node/11: the deleted node knows only itself, with no slots.
            assert!(
                matches!(&imported.warnings[..], [ImportWarning::Uncovered { count, .. }] if *count == 16384 - claimed),
                "{}: {:?}",
                s.origin,
                imported.warnings
            );
        }
    }
}

#[test]
fn the_migration_transcript_shows_both_open_ends_of_slot_5712() {
    let nodes = sections_of("transcripts/07_slot_migration_ask_tryagain.txt")
        .into_iter()
        .filter(|s| command_of(&s.prompt) == Some(Format::Nodes))
        .collect::<Vec<_>>();
    assert_eq!(nodes.len(), 3);
    let src = "f7c6b5d608aefdd517b33641eb638ce56252d0b4"; // 7001
    let dst = "44084a172411812451c56a0a3330ec6daa733083"; // 7002

    // Asked of 7001 (the source): `[5712->-<7002>]` on 7001's own line.
    let map = import(&nodes[0].text).unwrap().map;
    let m = &map.masters()[map.master_by_id(src).unwrap()];
    assert_eq!(m.addr, "127.0.0.1:7001");
    assert_eq!(m.migrating, vec![(5712, dst.to_owned())]);
    assert_eq!(m.flags, ["myself"]);
    assert_eq!(map.owner_master(5712).unwrap().addr, "127.0.0.1:7001");

    // Asked of 7002 (the target): `[5712-<-<7001>]` on 7002's line.
    let map = import(&nodes[1].text).unwrap().map;
    let m = &map.masters()[map.master_by_id(dst).unwrap()];
    assert_eq!(m.importing, vec![(5712, src.to_owned())]);
    assert!(map.masters().iter().all(|m| m.migrating.is_empty()));

    // After SETSLOT NODE: 5712 belongs to 7002, and 7001 owns 5461-5711 and 5713-10922.
    let map = import(&nodes[2].text).unwrap().map;
    assert_eq!(map.owner_master(5712).unwrap().addr, "127.0.0.1:7002");
    assert_eq!(
        map.ranges_of(map.master_by_id(src).unwrap()),
        vec![SlotRange::new(5461, 5711), SlotRange::new(5713, 10922)]
    );
}

#[test]
fn reshard_cases_match_summary_tsv() {
    let rows = common::read_tsv("reshard_cases/summary.tsv", common::SUMMARY_COLUMNS);
    let mut states: BTreeMap<(String, String), Vec<&Vec<String>>> = BTreeMap::new();
    for row in &rows {
        states
            .entry((row[0].clone(), row[1].clone()))
            .or_default()
            .push(row);
    }
    assert_eq!(states.len(), 27);
    for ((case, state), rows) in &states {
        let rel = format!("reshard_cases/{case}/{state}.txt");
        let imported = import(&read_fixture(&rel)).unwrap_or_else(|e| panic!("{rel}: {e:?}"));
        let map = &imported.map;
        let n_masters = rows.iter().filter(|r| r[4] == "master").count();
        assert_eq!(map.n_masters(), n_masters, "{rel}");
        for row in rows {
            let (addr, id, role, slots, ranges) = (&row[2], &row[3], &row[4], &row[5], &row[7]);
            if role == "master" {
                let i = map
                    .master_by_id(id)
                    .unwrap_or_else(|| panic!("{rel}: {addr}"));
                assert_eq!(&map.masters()[i].addr, addr, "{rel}");
                assert_eq!(ranges_text(map, i).join(","), *ranges, "{rel}: {addr}");
                assert_eq!(map.slot_counts()[i].to_string(), *slots, "{rel}: {addr}");
            } else {
                assert_eq!(role, "slave", "{rel}");
                assert_eq!(slots, "0", "{rel}");
                let replica_of = map
                    .masters()
                    .iter()
                    .filter(|m| m.replicas.iter().any(|r| &r.id == id && &r.addr == addr))
                    .count();
                assert_eq!(replica_of, 1, "{rel}: replica {addr}");
            }
        }
        assert_eq!(map.n_unowned(), 0, "{rel}");
        assert_eq!(imported.warnings, vec![], "{rel}");
    }
}

#[test]
fn shards_and_slots_give_the_map_of_cluster_nodes_taken_at_the_same_moment() {
    let mut compared = 0;
    for prefix in [
        "10_before_add_node",
        "14_after_reshard",
        "16_after_rebalance",
    ] {
        let nodes_rel = format!("transcripts/{prefix}_cluster_nodes.txt");
        let nodes = import(&section(&nodes_rel, Format::Nodes).text).unwrap();
        assert_eq!(nodes.warnings, vec![]);
        for (suffix, format) in [("shards", Format::Shards), ("slots", Format::Slots)] {
            let rel = format!("transcripts/{prefix}_cluster_{suffix}.txt");
            if !common::fixtures_dir().join(&rel).exists() {
                continue;
            }
            let other =
                import(&section(&rel, format).text).unwrap_or_else(|e| panic!("{rel}: {e:?}"));
            assert_eq!(other.format, format, "{rel}");
            assert_eq!(other.warnings, vec![], "{rel}");
            assert_eq!(
                without_epochs(without_flags(other.map)),
                without_epochs(without_flags(nodes.map.clone())),
                "{rel} vs {nodes_rel}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 5, "10 and 14 have SHARDS and SLOTS, 16 has SLOTS");
}

#[test]
fn detection_names_the_command_each_fixture_section_ran() {
    let mut n = 0;
    for s in all_sections() {
        match command_of(&s.prompt) {
            Some(format) => {
                assert_eq!(detect(&s.text), Some(format), "{}", s.origin);
                n += 1;
            }
            // CLUSTER INFO, --cluster check/info/reshard/rebalance, GET, MIGRATE, ...
            None => {
                assert_eq!(detect(&s.text), None, "{}: {}", s.origin, s.prompt);
                assert!(import(&s.text).is_err(), "{}: {}", s.origin, s.prompt);
            }
        }
    }
    assert_eq!(n, 39 + 2 + 3);
    // Whole transcripts holding other commands are not mistaken for a listing either.
    for rel in [
        "transcripts/00_cluster_create.txt",
        "transcripts/01_keyslot_edge_cases.txt",
        "transcripts/02_moved.txt",
        "transcripts/10_before_add_node_cluster_info.txt",
        "transcripts/10_before_add_node_cluster_check.txt",
        "create_outputs/create_2_refused.txt",
    ] {
        assert_eq!(detect(&read_fixture(rel)), None, "{rel}");
        assert!(import(&read_fixture(rel)).is_err(), "{rel}");
    }
}

// ---------------------------------------------------------------------------------------------
// The same output in other clothes: --raw, CR LF, indentation, interactive prompts.

/// What `redis-cli --raw` prints for the terminal-form reply `text`: no item numbers, no quotes,
/// no `(integer)`, and an empty array as an empty line.
fn to_raw(text: &str) -> String {
    let mut out = String::new();
    for line in text
        .lines()
        .filter(|l| !is_prompt(l) && !l.starts_with('#'))
    {
        let mut rest = line.trim_start();
        // Strip every `N) ` prefix.
        loop {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            match rest[digits..].strip_prefix(')') {
                Some(after) if digits > 0 => rest = after.trim_start(),
                _ => break,
            }
        }
        let value = if let Some(n) = rest.strip_prefix("(integer) ") {
            n
        } else if rest == "(empty array)" {
            ""
        } else {
            rest.trim_matches('"')
        };
        out.push_str(value);
        out.push('\n');
    }
    out
}

#[test]
fn raw_output_gives_the_same_map_as_the_terminal_form() {
    let mut n = 0;
    for format in [Format::Shards, Format::Slots] {
        for s in cluster_sections(format) {
            let raw = to_raw(&s.text);
            assert!(!raw.contains(')') && !raw.contains('"'), "{raw}");
            assert_eq!(detect(&raw), Some(format), "{}", s.origin);
            let nested = import(&s.text).unwrap();
            let flat = import(&raw).unwrap_or_else(|e| panic!("{} (raw): {e:?}", s.origin));
            assert_eq!(flat, nested, "{} (raw)", s.origin);
            n += 1;
        }
    }
    assert_eq!(n, 5);
}

#[test]
fn crlf_indentation_prompts_and_trailing_blanks_change_nothing() {
    for format in [Format::Nodes, Format::Shards, Format::Slots] {
        for s in cluster_sections(format).into_iter().take(6) {
            let want = import(&s.text).unwrap();
            let body: Vec<&str> = s.text.lines().skip(1).collect();
            let variants = [
                // Windows line ends.
                s.text.replace('\n', "\r\n"),
                // Pasted from an indented block, with trailing spaces.
                body.iter().map(|l| format!("    {l}   \n")).collect(),
                // Interactive redis-cli, with the next empty prompt copied too.
                format!(
                    "127.0.0.1:7000> {}\n{}\n127.0.0.1:7000> \n",
                    format.command(),
                    body.join("\n")
                ),
                // A comment, blank lines, and no prompt at all.
                format!("# pasted by hand\n\n{}\n\n\n", body.join("\n")),
                // A shell prompt with user and host.
                format!(
                    "me@box:~$ redis-cli -p 7000 {}\n{}",
                    format.command(),
                    body.join("\n")
                ),
            ];
            for (i, v) in variants.iter().enumerate() {
                let got = import(v).unwrap_or_else(|e| panic!("{} variant {i}: {e:?}", s.origin));
                assert_eq!(got, want, "{} variant {i}", s.origin);
                assert_eq!(detect(v), Some(format), "{} variant {i}", s.origin);
            }
        }
    }
}

#[test]
fn nodes_lines_in_any_order_give_the_same_map() {
    for s in cluster_sections(Format::Nodes) {
        let want = import(&s.text).unwrap();
        let mut lines: Vec<&str> = s.text.lines().collect();
        lines.reverse();
        assert_eq!(
            import(&lines.join("\n")).unwrap().map,
            want.map,
            "{}",
            s.origin
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-written listings for what the fixtures do not show: hostnames, failure flags, noaddr.

/// The example of the Redis documentation's CLUSTER NODES page (Redis 7 form, with hostnames),
/// plus a failed `noaddr` master and a replica flagged `fail?` and `nofailover`.
const DOC_EXAMPLE: &str = "\
07c37dfeb235213a872192d90877d0cd55635b91 127.0.0.1:30004@31004,hostname4 slave e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 0 1426238317239 4 connected
67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 127.0.0.1:30002@31002,hostname2 master - 0 1426238316232 2 connected 5461-10922
292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 127.0.0.1:30003@31003,hostname3 master - 0 1426238318243 3 connected 10923-16383
6ec23923021cf3ffec47632106199cb7f496ce01 127.0.0.1:30005@31005,hostname5 slave,fail?,nofailover 67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 0 1426238316232 5 connected
824fe116063bc5fcf9f4ffd895bc17aee7731ac3 127.0.0.1:30006@31006,hostname6 slave 292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 0 1426238317741 6 connected
e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 127.0.0.1:30001@31001,hostname1 myself,master - 0 0 1 connected 0-5460
1111111111111111111111111111111111111111 :0@0 master,fail,noaddr - 1426238310000 1426238310000 7 disconnected
2222222222222222222222222222222222222222 127.0.0.1:30007@31007 handshake - 0 0 0 connected
";

#[test]
fn hostnames_flags_noaddr_and_handshake_are_kept() {
    let imported = import(DOC_EXAMPLE).unwrap();
    assert_eq!(imported.warnings, vec![]);
    let map = imported.map;
    let addrs: Vec<&str> = map.masters().iter().map(|m| m.addr.as_str()).collect();
    // noaddr (empty host) sorts first; the node in handshake has no role word: a master.
    assert_eq!(
        addrs,
        [
            ":0",
            "127.0.0.1:30001",
            "127.0.0.1:30002",
            "127.0.0.1:30003",
            "127.0.0.1:30007"
        ]
    );
    let m = &map.masters()[0];
    assert_eq!(m.flags, ["fail", "noaddr"]);
    assert!(m.is_failed());
    assert_eq!(map.masters()[1].flags, ["myself"]);
    assert_eq!(map.masters()[1].hostname.as_deref(), Some("hostname1"));
    assert_eq!(map.masters()[4].flags, ["handshake"]);
    assert_eq!(map.masters()[4].hostname, None);
    let r = &map.masters()[2].replicas;
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].addr, "127.0.0.1:30005");
    assert_eq!(r[0].id, "6ec23923021cf3ffec47632106199cb7f496ce01");
    assert_eq!(r[0].flags, ["fail?", "nofailover"]);
    assert_eq!(map.masters()[1].replica_addrs(), "127.0.0.1:30004");
    assert_eq!(map.ranges_of(3), vec![SlotRange::new(10923, 16383)]);
    assert_eq!(map.n_unowned(), 0);
}

const SLOTS_WITH_HOSTNAMES: &str = "\
127.0.0.1:30001> CLUSTER SLOTS
1) 1) (integer) 0
   2) (integer) 16383
   3) 1) \"127.0.0.1\"
      2) (integer) 30001
      3) \"e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca\"
      4) 1) \"hostname\"
         2) \"host-1.example\"
   4) 1) \"127.0.0.1\"
      2) (integer) 30004
      3) \"07c37dfeb235213a872192d90877d0cd55635b91\"
      4) 1) \"hostname\"
         2) \"host-4.example\"
";

#[test]
fn slots_metadata_gives_the_hostname() {
    let imported = import(SLOTS_WITH_HOSTNAMES).unwrap();
    let m = &imported.map.masters()[0];
    assert_eq!(m.addr, "127.0.0.1:30001");
    assert_eq!(m.hostname.as_deref(), Some("host-1.example"));
    assert_eq!(m.replicas[0].addr, "127.0.0.1:30004");
    // With `cluster-preferred-endpoint-type hostname` the endpoint is the hostname and the IP
    // moves into the metadata.
    let preferred = SLOTS_WITH_HOSTNAMES
        .replacen("\"127.0.0.1\"", "\"host-1.example\"", 1)
        .replacen("1) \"hostname\"", "1) \"ip\"", 1)
        .replacen("2) \"host-1.example\"", "2) \"127.0.0.1\"", 1);
    assert_eq!(import(&preferred).unwrap(), imported);
}

#[test]
fn a_failed_node_in_shards_keeps_the_fail_flag() {
    let s = section(
        "transcripts/10_before_add_node_cluster_shards.txt",
        Format::Shards,
    );
    let text = s.text.replacen("\"online\"", "\"failed\"", 1);
    let map = import(&text).unwrap().map;
    assert_eq!(map.masters()[0].addr, "127.0.0.1:7000");
    assert_eq!(map.masters()[0].flags, ["fail"]);
    assert!(map.masters()[1..].iter().all(|m| m.flags.is_empty()));
}

// ---------------------------------------------------------------------------------------------
// Cluster problems are warnings.

const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const C: &str = "cccccccccccccccccccccccccccccccccccccccc";

fn nodes_line(id: &str, addr: &str, flags: &str, master: &str, slots: &str) -> String {
    format!(
        "{id} {addr}@1{} {flags} {master} 0 0 1 connected {slots}\n",
        &addr[addr.len() - 4..]
    )
}

#[test]
fn overlapping_claims_are_reported_and_the_first_claimant_kept() {
    let text = nodes_line(B, "10.0.0.2:7001", "master", "-", "0-99 200-16383")
        + &nodes_line(A, "10.0.0.1:7000", "master", "-", "50-250");
    let imported = import(&text).unwrap();
    let map = &imported.map;
    // A sorts first by address, but B's line came first: B keeps the disputed slots.
    assert_eq!(map.masters()[0].addr, "10.0.0.1:7000");
    assert_eq!(map.owner_master(60).unwrap().addr, "10.0.0.2:7001");
    assert_eq!(map.owner_master(150).unwrap().addr, "10.0.0.1:7000");
    assert_eq!(map.ranges_of(0), vec![SlotRange::new(100, 199)]);
    assert_eq!(
        imported.warnings,
        vec![
            ImportWarning::Overlap {
                range: SlotRange::new(50, 99),
                first: "10.0.0.2:7001".into(),
                second: "10.0.0.1:7000".into(),
                line: 2,
            },
            ImportWarning::Overlap {
                range: SlotRange::new(200, 250),
                first: "10.0.0.2:7001".into(),
                second: "10.0.0.1:7000".into(),
                line: 2,
            },
        ]
    );
}

#[test]
fn uncovered_slots_and_orphan_replicas_are_reported() {
    let text = nodes_line(A, "10.0.0.1:7000", "master", "-", "0-99 5000")
        + &nodes_line(B, "10.0.0.2:7000", "slave", C, "")
        + &nodes_line(C, "10.0.0.3:7000", "slave", "-", "");
    let imported = import(&text).unwrap();
    assert_eq!(imported.map.n_masters(), 1);
    assert!(imported.map.masters()[0].replicas.is_empty());
    assert_eq!(
        imported.warnings,
        vec![
            ImportWarning::OrphanReplica {
                line: 2,
                addr: "10.0.0.2:7000".into(),
                id: B.into(),
                master_id: Some(C.into()),
            },
            ImportWarning::OrphanReplica {
                line: 3,
                addr: "10.0.0.3:7000".into(),
                id: C.into(),
                master_id: None,
            },
            ImportWarning::Uncovered {
                count: 16384 - 101,
                ranges: vec![SlotRange::new(100, 4999), SlotRange::new(5001, 16383)],
            },
        ]
    );
}

#[test]
fn a_master_without_slots_is_still_a_master() {
    let text = nodes_line(A, "10.0.0.1:7000", "master", "-", "0-16383")
        + &nodes_line(B, "10.0.0.2:7000", "master", "-", "");
    let map = import(&text).unwrap().map;
    assert_eq!(map.n_masters(), 2);
    assert_eq!(map.slot_counts(), vec![16384, 0]);
}

// ---------------------------------------------------------------------------------------------
// Malformed pastes: an error that names the line.

/// The line, the kind and (for messages) the whole error of a refused paste.
fn error_of(text: &str) -> (Option<usize>, ImportErrorKind, String) {
    let e = import(text).expect_err("the paste should be refused");
    let shown = format!("{e:?}");
    (e.line, e.kind, shown)
}

/// "Expected this, found that" as data.
fn want(expected: Expected, found: Found) -> ImportErrorKind {
    ImportErrorKind::Expected { expected, found }
}

fn text(s: &str) -> Found {
    Found::Text(s.to_owned())
}

fn nodes_fixture() -> Section {
    section(
        "transcripts/10_before_add_node_cluster_nodes.txt",
        Format::Nodes,
    )
}

#[test]
fn a_truncated_nodes_line_is_refused_at_its_line() {
    let text = read_fixture("transcripts/10_before_add_node_cluster_nodes.txt");
    let lines: Vec<&str> = text.lines().collect();
    // Line 4 of the file is 7000's line; cut it inside its flags, then inside its id.
    for cut in [52, 68, 75, 8] {
        let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        broken[3].truncate(cut);
        let (line, _, shown) = error_of(&broken.join("\n"));
        assert_eq!(line, Some(4), "{shown}");
    }
    let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    broken[3].truncate(68);
    let (_, kind, shown) = error_of(&broken.join("\n"));
    assert!(
        matches!(
            kind,
            ImportErrorKind::Expected {
                expected: Expected::NodeFields,
                found: Found::Fields { count: 3, .. }
            }
        ),
        "{shown}"
    );
}

#[test]
fn bad_ranges_and_slots_name_their_line() {
    let s = nodes_fixture();
    let out_of_range = || ImportErrorKind::SlotOutOfRange {
        found: "16384".into(),
    };
    let cases = [
        (
            "0-5460",
            "5-3",
            ImportErrorKind::BackwardRange { first: 5, last: 3 },
        ),
        ("0-5460", "16384", out_of_range()),
        ("0-5460", "0-16384", out_of_range()),
        ("0-5460", "abc", want(Expected::SlotOrRange, text("abc"))),
        ("0-5460", "0-", want(Expected::SlotOrRange, text("0-"))),
        (
            "0-5460",
            "[5712->-xyz]",
            want(Expected::OpenSlot, text("[5712->-xyz]")),
        ),
        (
            "connected 0-5460",
            "linked 0-5460",
            want(Expected::LinkState, text("linked")),
        ),
        (
            "127.0.0.1:7000@17000",
            "127.0.0.1@17000",
            want(Expected::BusAddress, text("127.0.0.1@17000")),
        ),
        (
            "myself,master",
            "myself,-",
            want(Expected::Flags, text("myself,-")),
        ),
        (
            "1795982589000 1 connected 0-5460",
            "x 1 connected 0-5460",
            want(Expected::Counter(Counter::PongRecv), text("x")),
        ),
    ];
    for (from, to, wanted) in cases {
        let broken = s.text.replacen(from, to, 1);
        assert_ne!(broken, s.text);
        let (line, kind, _) = error_of(&broken);
        assert_eq!((line, kind), (Some(3), wanted), "{from} -> {to}");
    }
    // The first error kinds are the specific ones.
    let (_, kind, _) = error_of(&s.text.replacen("0-5460", "5-3", 1));
    assert_eq!(kind, ImportErrorKind::BackwardRange { first: 5, last: 3 });
    // A slot in SLOTS output past 16383.
    let slots = section(
        "transcripts/10_before_add_node_cluster_slots.txt",
        Format::Slots,
    );
    let at = slots
        .text
        .lines()
        .position(|l| l.contains("(integer) 16383"))
        .unwrap()
        + 1;
    let (line, kind, _) = error_of(&slots.text.replacen("(integer) 16383", "(integer) 16384", 1));
    assert_eq!(line, Some(at));
    assert_eq!(
        kind,
        ImportErrorKind::SlotOutOfRange {
            found: "16384".into()
        }
    );
    // And a backward range in SHARDS.
    let shards = section(
        "transcripts/10_before_add_node_cluster_shards.txt",
        Format::Shards,
    );
    let (line, kind, _) = error_of(&shards.text.replacen("(integer) 0\n", "(integer) 6000\n", 1));
    assert_eq!(line, Some(4));
    assert_eq!(
        kind,
        ImportErrorKind::BackwardRange {
            first: 6000,
            last: 5460
        }
    );
}

#[test]
fn replicas_list_no_slots_and_nodes_appear_once() {
    let s = nodes_fixture();
    let text = s.text.replacen(" 1 connected\n", " 1 connected 0-10\n", 1);
    let (line, kind, _) = error_of(&text);
    assert_eq!(line, Some(2));
    assert_eq!(
        kind,
        want(Expected::NoSlotsOnReplica, Found::Text("0-10".into()))
    );

    let text = format!("{}{}", s.text, s.text.lines().nth(3).unwrap());
    let (line, kind, _) = error_of(&text);
    assert_eq!(line, Some(8));
    assert!(matches!(
        kind,
        ImportErrorKind::DuplicateNode { first_line: 4, .. }
    ));
}

#[test]
fn shuffled_or_missing_lines_in_shards_and_slots_are_refused_at_a_line() {
    for format in [Format::Shards, Format::Slots] {
        for s in cluster_sections(format) {
            let lines: Vec<&str> = s.text.lines().collect();
            // Swap each pair of neighbouring lines of the reply.
            for i in 1..lines.len() - 1 {
                if lines[i] == lines[i + 1] {
                    continue;
                }
                let mut shuffled = lines.clone();
                shuffled.swap(i, i + 1);
                let (line, _, shown) = error_of(&shuffled.join("\n"));
                let line = line.unwrap_or_else(|| panic!("{} swap {i}: {shown}", s.origin));
                assert!(line <= i + 2, "{} swap {i}: {shown}", s.origin);
            }
            // Drop each line that holds an id, a port or a slot: the reply no longer adds up.
            for i in 1..lines.len() {
                if !(lines[i].contains("(integer)") || lines[i].contains("\"id\"")) {
                    continue;
                }
                let mut cut = lines.clone();
                cut.remove(i);
                let (line, _, shown) = error_of(&cut.join("\n"));
                assert!(
                    line.is_some(),
                    "{} without line {}: {shown}",
                    s.origin,
                    i + 1
                );
            }
        }
    }
}

#[test]
fn a_reply_cut_short_is_refused_or_imports_what_it_holds() {
    let s = section(
        "transcripts/10_before_add_node_cluster_shards.txt",
        Format::Shards,
    );
    let lines: Vec<&str> = s.text.lines().collect();
    // Cut right after the first node's "port" field name: its value is missing.
    let port = lines
        .iter()
        .position(|l| l.trim() == "3) \"port\"")
        .unwrap();
    let (line, kind, _) = error_of(&lines[..=port].join("\n"));
    assert_eq!(
        (line, kind),
        (
            Some(port + 1),
            want(Expected::ValueOf("port".into()), Found::EndOfList)
        )
    );
    // Any cut: never a panic, and an error always names its line.
    for format in [Format::Shards, Format::Slots] {
        for s in cluster_sections(format) {
            let lines: Vec<&str> = s.text.lines().collect();
            for n in 2..lines.len() {
                if let Err(e) = import(&lines[..n].join("\n")) {
                    assert!(e.line.is_some(), "{} cut at {n}: {e:?}", s.origin);
                }
            }
        }
    }
    // A SLOTS node cut after its port has no id.
    let s = section(
        "transcripts/10_before_add_node_cluster_slots.txt",
        Format::Slots,
    );
    let lines: Vec<&str> = s.text.lines().collect();
    let (line, kind, _) = error_of(&lines[..5].join("\n"));
    assert_eq!(
        (line, kind),
        (Some(5), want(Expected::NodeId, Found::EndOfList))
    );
}

#[test]
fn garbage_empty_and_huge_pastes_are_refused() {
    let (line, kind, _) = error_of("");
    assert_eq!((line, kind), (None, ImportErrorKind::Empty));
    let (line, kind, _) = error_of("  \n# just a comment\r\n$ redis-cli -p 7000 CLUSTER NODES\n\n");
    assert_eq!((line, kind), (None, ImportErrorKind::Empty));

    let (line, kind, _) = error_of("\n\nhello world\nthis is not a cluster\n");
    assert_eq!(line, Some(3));
    assert_eq!(
        kind,
        ImportErrorKind::Unrecognised {
            found: "hello world".into()
        }
    );
    let (line, kind, _) = error_of("$ redis-cli -p 7000 CLUSTER NODES\n(error) ERR This instance has cluster support disabled\n");
    assert_eq!(line, Some(2));
    assert!(
        matches!(kind, ImportErrorKind::RedisError { message } if message == "ERR This instance has cluster support disabled")
    );
    let (_, kind, _) = error_of("127.0.0.1:7000> CLUSTER SLOTS\n(empty array)\n");
    assert_eq!(kind, ImportErrorKind::NoMasters);
    let (_, kind, _) = error_of(&nodes_line(A, "10.0.0.1:7000", "slave", B, ""));
    assert_eq!(kind, ImportErrorKind::NoMasters);

    let (line, kind, _) = error_of(&format!("{}(integer) 0\n", "1) ".repeat(20)));
    assert_eq!((line, kind), (Some(1), ImportErrorKind::TooDeep));
    let (line, _, shown) = error_of("1# \"slots\" => 1) (integer) 0\n");
    assert_eq!(line, Some(1), "RESP3 is not read: {shown}");

    // 10 MB: refused at once, before any line is read.
    let huge = nodes_fixture()
        .text
        .repeat(10 * 1024 * 1024 / nodes_fixture().text.len() + 1);
    // How quickly: `cargo bench --bench timings` (import_refusal).
    let (line, kind, _) = error_of(&huge);
    assert_eq!(line, None);
    assert_eq!(kind, ImportErrorKind::TooLarge { bytes: huge.len() });
    // Just under the cap, a big paste costs little and fails at its first bad line.
    let big = "x".repeat(MAX_INPUT_BYTES);
    let (line, kind, shown) = error_of(&big);
    assert_eq!(line, Some(1));
    assert_eq!(
        kind,
        ImportErrorKind::Unrecognised {
            found: format!("{}…", "x".repeat(48))
        },
        "a long line is quoted short: {shown}"
    );
    // 2 MB of `0-16383` claims: refused quickly too.
    let claims = nodes_line(
        A,
        "10.0.0.1:7000",
        "master",
        "-",
        &"0-16383 ".repeat(200_000),
    );
    let (_, kind, _) = error_of(&claims);
    assert_eq!(kind, ImportErrorKind::TooManySlots);
}

#[test]
fn two_commands_in_one_paste_are_refused_where_the_second_starts() {
    let text = read_fixture("transcripts/07_slot_migration_ask_tryagain.txt");
    // The two views taken during the migration, pasted together.
    let both: String = sections_of("transcripts/07_slot_migration_ask_tryagain.txt")
        .into_iter()
        .filter(|s| command_of(&s.prompt) == Some(Format::Nodes))
        .take(2)
        .map(|s| s.text)
        .collect();
    let (line, kind, _) = error_of(&both);
    assert_eq!((line, kind), (Some(8), ImportErrorKind::SeveralReplies));
    // The whole transcript starts with another command's output.
    assert!(import(&text).is_err());
}

// ---------------------------------------------------------------------------------------------
// Export.

#[test]
fn export_writes_cluster_nodes_lines() {
    let text = export_nodes(&SlotMap::fixture_cluster());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            // Config epochs 1, 8 and 7, as transcript 10 recorded them.
            "d3bede0cd4ba07708f552c2e44e8211e0d571a39 127.0.0.1:7000@17000 master - 0 0 1 connected 0-5460",
            "71fd5a01708f5b5aeee008680022eaad63c28eec 127.0.0.1:7004@17004 slave d3bede0cd4ba07708f552c2e44e8211e0d571a39 0 0 1 connected",
            "f7c6b5d608aefdd517b33641eb638ce56252d0b4 127.0.0.1:7001@17001 master - 0 0 8 connected 5461-10922",
            "3e3df1281e2f65d6e94e784173572c1b4820eccb 127.0.0.1:7005@17005 slave f7c6b5d608aefdd517b33641eb638ce56252d0b4 0 0 8 connected",
            "44084a172411812451c56a0a3330ec6daa733083 127.0.0.1:7002@17002 master - 0 0 7 connected 10923-16383",
            "bded1dae701c0590f42e07edd6c4f72dcd531d82 127.0.0.1:7003@17003 slave 44084a172411812451c56a0a3330ec6daa733083 0 0 7 connected",
        ]
    );
    assert_eq!(import(&text).unwrap().map, SlotMap::fixture_cluster());
    // The open slots of the migration transcript, each on its own master's line.
    let mut map = SlotMap::fixture_cluster();
    let (src, dst) = (map.masters()[1].id.clone(), map.masters()[2].id.clone());
    map.master_mut(1)
        .unwrap()
        .migrating
        .push((5712, dst.clone()));
    map.master_mut(2)
        .unwrap()
        .importing
        .push((5712, src.clone()));
    map.master_mut(0).unwrap().flags.push("myself".into());
    let text = export_nodes(&map);
    assert!(text.contains(" myself,master - 0 0 1 connected 0-5460\n"));
    assert!(text.contains(&format!(" 5461-10922 [5712->-{dst}]\n")));
    assert!(text.contains(&format!(" 10923-16383 [5712-<-{src}]\n")));
    assert_eq!(import(&text).unwrap().map, map);
}

#[test]
fn every_fixture_listing_survives_export_and_import() {
    for format in [Format::Nodes, Format::Shards, Format::Slots] {
        for s in cluster_sections(format) {
            let first = import(&s.text).unwrap();
            let text = export_nodes(&first.map);
            let again =
                import(&text).unwrap_or_else(|e| panic!("{} exported: {e:?}\n{text}", s.origin));
            assert_eq!(again.format, Format::Nodes);
            assert_eq!(again.map, first.map, "{}", s.origin);
            assert_eq!(export_nodes(&again.map), text, "{}", s.origin);
        }
    }
}

/// A map built from `SlotMap::created` and dressed up: hostnames, flags, replicas, open slots,
/// slots moved to other masters or left unowned.
#[derive(Clone, Debug)]
struct Dress {
    hostnames: Vec<bool>,
    flags: Vec<u8>,
    replicas: Vec<u8>,
    open: Vec<(u16, usize, bool)>,
    moved: Vec<(u16, u16, Option<usize>)>,
}

fn dress() -> impl Strategy<Value = Dress> {
    (
        prop::collection::vec(any::<bool>(), 0..20),
        prop::collection::vec(any::<u8>(), 0..20),
        prop::collection::vec(0u8..4, 0..20),
        prop::collection::vec((0u16..16384, any::<usize>(), any::<bool>()), 0..6),
        prop::collection::vec(
            (0u16..16384, 0u16..300, prop::option::of(any::<usize>())),
            0..8,
        ),
    )
        .prop_map(|(hostnames, flags, replicas, open, moved)| Dress {
            hostnames,
            flags,
            replicas,
            open,
            moved,
        })
}

fn dressed(n: usize, first_port: u16, d: &Dress) -> SlotMap {
    const FLAGS: [&str; 6] = [
        "myself",
        "fail?",
        "fail",
        "nofailover",
        "handshake",
        "noaddr",
    ];
    let mut map = SlotMap::created(n, "10.1.2.3", first_port).unwrap();
    let ids: Vec<String> = map.masters().iter().map(|m| m.id.clone()).collect();
    let mut replica_port = first_port as usize + n;
    for i in 0..n {
        let m = map.master_mut(i).unwrap();
        if d.hostnames.get(i).copied().unwrap_or(false) {
            m.hostname = Some(format!("node-{i}.redis.local"));
        }
        let bits = d.flags.get(i).copied().unwrap_or(0);
        m.flags = FLAGS
            .iter()
            .enumerate()
            .filter(|(b, _)| bits >> b & 1 == 1)
            .map(|(_, f)| f.to_string())
            .collect();
        for k in 0..d.replicas.get(i).copied().unwrap_or(0) {
            let mut r = Replica::new(
                format!("10.1.2.3:{replica_port}"),
                format!("{:040x}", 0xdead_0000_usize + replica_port),
            );
            if bits >> (6 + k % 2) & 1 == 1 {
                r.flags.push("fail".into());
            }
            m.replicas.push(r);
            replica_port += 1;
        }
    }
    for &(slot, who, migrating) in &d.open {
        let (i, other) = (who % n, ids[(who / 7) % n].clone());
        let m = map.master_mut(i).unwrap();
        if migrating {
            m.migrating.push((slot, other));
        } else {
            m.importing.push((slot, other));
        }
    }
    for &(first, len, owner) in &d.moved {
        for slot in first..first.saturating_add(len).min(16384) {
            map.assign(slot, owner.map(|o| o % n));
        }
    }
    map
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn created_clusters_survive_export_and_import(n in 1usize..=300, first_port in 1024u16..=60000) {
        let map = SlotMap::created(n, "127.0.0.1", first_port).unwrap();
        let back = import(&export_nodes(&map)).unwrap();
        prop_assert_eq!(back.format, Format::Nodes);
        prop_assert_eq!(&back.map, &map);
        // Fewer masters than slots: every slot is covered, so no warning.
        prop_assert!(back.warnings.is_empty());
    }

    #[test]
    fn dressed_clusters_survive_export_and_import(n in 1usize..=120, first_port in 1024u16..=60000, d in dress()) {
        let map = dressed(n, first_port, &d);
        let text = export_nodes(&map);
        let back = import(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(&back.map, &map);
        let uncovered = back.warnings.iter().any(|w| matches!(w, ImportWarning::Uncovered { .. }));
        prop_assert_eq!(uncovered, map.n_unowned() > 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Never a panic.

/// Pieces of all three formats, so random pastes reach deep into each reader.
fn fragment() -> impl Strategy<Value = String> {
    let pieces: Vec<String> = [
        "\n",
        " ",
        "   ",
        "\r\n",
        "1) ",
        "2) ",
        " 3) ",
        "10) ",
        "(integer) ",
        "(empty array)",
        "(nil)",
        "\"slots\"",
        "\"nodes\"",
        "\"id\"",
        "\"port\"",
        "\"role\"",
        "\"master\"",
        "\"hostname\"",
        "slots",
        "nodes",
        "id",
        "127.0.0.1:7000@17000",
        ":0@0",
        "\"127.0.0.1\"",
        "myself,master",
        "slave",
        " - 0 0 1 connected ",
        "0-5460",
        "16383",
        "16384",
        "-",
        "$ redis-cli -p 7000 CLUSTER NODES\n",
        "127.0.0.1:7000> ",
        "# comment\n",
        "(error) ERR nope",
    ]
    .iter()
    .map(|p| p.to_string())
    .chain([
        A.to_owned(),
        format!("\"{B}\""),
        format!("[5712->-{C}]"),
        format!("[5712-<-{A}"),
    ])
    .collect();
    prop_oneof![
        6 => prop::sample::select(pieces),
        1 => "[0-9]{1,6}",
        1 => "\\PC{0,8}",
        1 => any::<char>().prop_map(String::from),
    ]
}

fn fixture_texts() -> Vec<String> {
    [Format::Nodes, Format::Shards, Format::Slots]
        .into_iter()
        .flat_map(|f| cluster_sections(f).into_iter().take(3))
        .map(|s| s.text.clone())
        .collect()
}

/// Import must not panic; an error names a line that exists; whatever imports exports and reads
/// back the same.
fn check_any(text: &str) -> Result<(), TestCaseError> {
    let _ = detect(text);
    match import(text) {
        Err(e) => {
            if let Some(l) = e.line {
                prop_assert!(l >= 1 && l <= text.split('\n').count(), "{e:?}");
            }
        }
        Ok(imported) => {
            let exported = export_nodes(&imported.map);
            let back =
                import(&exported).map_err(|e| TestCaseError::fail(format!("{e:?}\n{exported}")))?;
            prop_assert_eq!(back.map, imported.map);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn no_string_makes_import_panic(text in "\\PC{0,400}") {
        check_any(&text)?;
    }

    #[test]
    fn no_mix_of_format_pieces_makes_import_panic(parts in prop::collection::vec(fragment(), 0..80)) {
        check_any(&parts.concat())?;
    }

    #[test]
    fn no_edit_of_a_fixture_makes_import_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0usize..12, fragment()), 1..6),
    ) {
        let texts = fixture_texts();
        let mut text = which.get(&texts).clone();
        for (at, delete, insert) in edits {
            let mut pos = at.index(text.len() + 1);
            while !text.is_char_boundary(pos) {
                pos -= 1;
            }
            let mut end = (pos + delete).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            text.replace_range(pos..end, &insert);
        }
        check_any(&text)?;
    }

    #[test]
    fn no_shuffle_of_fixture_lines_makes_import_panic(
        which in any::<prop::sample::Index>(),
        swaps in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..4),
    ) {
        let texts = fixture_texts();
        let mut lines: Vec<&str> = which.get(&texts).lines().collect();
        for (a, b) in swaps {
            let (a, b) = (a.index(lines.len()), b.index(lines.len()));
            lines.swap(a, b);
        }
        check_any(&lines.join("\n"))?;
    }
}
