//! Fuzz target `planner`: what the planner card does with its textarea. Commands mode runs
//! `batch::run_lines` (each line through `split_args` and the engine); keys mode reads one key
//! per line with `parse_key` and sends them as one KEY_COMMANDS command. Then `plan`,
//! `chunk_masters`, `retag` and `slot_commands`, whose lines must split back (`split_args`) into
//! exactly the planned keys and, on a healthy cluster, be served by the master they name; and
//! `Template::parse` / `numbered_keys` on the first line.
//!
//! Input: byte 0 = mode (bit 0: keys mode, bits 1-3: which KEY_COMMANDS), map (bits 4-5), node
//! (bits 6-7); byte 1 = chunk size and key count for the template; the rest is the textarea.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use slotscope::core::workload::batch::{
    command_for_keys, run_lines, slot_commands, CommandStyle, KEY_COMMANDS,
};
use slotscope::core::key::args::split_args;
use slotscope::core::workload::KeySample;
use slotscope::core::key::escape::parse_key;
use slotscope::core::workload::{chunk_masters, numbered_keys, plan, Template, Verdict};
use slotscope::core::server::{Cluster, Route, Session};
use slotscope::core::workload::tags::{generate_tags, retag, TagSet};
use slotscope::core::SlotMap;
use std::sync::OnceLock;

/// The planner's "per master" copy uses one `routing:v1:%d` tag per master; the tags depend on
/// the map only, so they are found once per map.
fn tag_sets() -> &'static [Option<TagSet>; 4] {
    static SETS: OnceLock<[Option<TagSet>; 4]> = OnceLock::new();
    SETS.get_or_init(|| {
        let maps = common::maps();
        core::array::from_fn(|i| generate_tags("routing:v1:%d", 1, &maps[i], 1_000_000).ok())
    })
}

/// Groups whose routing is checked per style: the property is the same for each group, and a
/// route costs two passes over the 16384 slots.
const ROUTED_GROUPS: usize = 4;

/// `slot_commands` lines must be redis-cli lines holding exactly the group's keys and, on a
/// healthy cluster, be served by the master their comment names.
fn check_slot_commands(
    p: &slotscope::core::workload::Plan,
    keys: &KeySample,
    map: &SlotMap,
    healthy: bool,
) {
    let cluster = healthy.then(|| Cluster::new(map.clone()));
    for style in [CommandStyle::Mget, CommandStyle::EvalSetEx { ttl: 60 }] {
        let lines = slot_commands(p, keys, map, style, 500);
        assert_eq!(lines.len(), p.slots.len().min(500));
        for (i, (line, group)) in lines.iter().zip(&p.slots).enumerate() {
            let (comment, command) = line.split_once('\n').expect("comment line");
            let args = match split_args(command) {
                Ok(a) => a,
                Err(e) => panic!("slot_commands line does not split: {e:?}\n{command}"),
            };
            let want: Vec<&[u8]> = p
                .keys_in(group)
                .iter()
                .map(|&i| keys.get(i as usize).expect("key index"))
                .collect();
            let got: Vec<&[u8]> = match style {
                CommandStyle::Mget => args[1..].iter().map(Vec::as_slice).collect(),
                CommandStyle::EvalSetEx { .. } => {
                    let n: usize = String::from_utf8_lossy(&args[2]).parse().expect("numkeys");
                    args[3..3 + n].iter().map(Vec::as_slice).collect()
                }
            };
            assert_eq!(got, want, "slot_commands keys differ\n{command}");
            if let (Some(cluster), Some(_), true) = (&cluster, group.master, i < ROUTED_GROUPS) {
                let node = comment.rsplit(' ').next().expect("node");
                let route = cluster.route(node, &args, &Session::new());
                assert!(
                    matches!(route, Ok(Route::Here { .. })),
                    "{command} sent to {node}: {route:?}"
                );
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [mode, knob, rest @ ..] = data else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let map_idx = usize::from(mode >> 4 & 3);
    let map = &common::maps()[map_idx];
    let addrs = common::node_addrs(map);
    let node = match mode >> 6 {
        0 => &addrs[0],
        1 => &addrs[1.min(addrs.len() - 1)],
        2 => &addrs[2.min(addrs.len() - 1)],
        _ => &addrs[addrs.len() - 1],
    };

    // The textarea, read as the planner's `read_batch` reads it.
    let mut keys = KeySample::new();
    if mode & 1 == 0 {
        if let Ok(lines) = run_lines(map, node, &text) {
            for line in &lines {
                let _ = line.verdict();
                let _ = line.is_error();
                for (k, slot) in &line.keys {
                    assert_eq!(*slot, slotscope::core::key_slot(k));
                    keys.push(k);
                }
            }
        }
    } else {
        let command = KEY_COMMANDS[usize::from(mode >> 1 & 7) % KEY_COMMANDS.len()];
        let mut parsed = Vec::new();
        for l in text.lines().filter(|l| !l.trim().is_empty()) {
            if let Ok(k) = parse_key(l.trim()) {
                parsed.push(k);
            }
        }
        for k in &parsed {
            keys.push(k);
        }
        if !parsed.is_empty() {
            let args = command_for_keys(command, &parsed);
            let mut cluster = Cluster::new(map.clone());
            let reply = cluster.exec(node, &args, &mut Session::new());
            let _ = reply.to_cli();
        }
    }

    // The plan of those keys and what the card shows of it.
    let p = plan(&keys, map);
    assert_eq!(p.n_keys as usize, keys.len());
    assert_eq!(
        p.slots.iter().map(|g| g.len as usize).sum::<usize>(),
        keys.len()
    );
    match p.verdict() {
        Verdict::NoKeys => assert!(keys.is_empty()),
        Verdict::OneSlot { .. } => assert_eq!(p.slots.len(), 1),
        Verdict::CrossSlot { slots, .. } => assert!(slots > 1 && p.slots.len() as u64 == slots),
    }
    let chunk = usize::from(knob & 0x3f) + 1;
    let _ = chunk_masters(&keys, map, chunk, false);
    let _ = chunk_masters(&keys, map, chunk, true);
    check_slot_commands(&p, &keys, map, map_idx == 0);
    if let Some(set) = &tag_sets()[map_idx] {
        let retagged = retag(&keys, map, set);
        assert_eq!(retagged.len(), keys.len());
        let _ = plan(&retagged, map);
    }

    // The key generator's template field.
    let first = text.lines().next().unwrap_or("");
    if Template::parse(first).is_ok() {
        let n = u64::from(knob >> 6) * 8;
        let generated = numbered_keys(first, 0..n).expect("a template that parses generates");
        assert_eq!(generated.len() as u64, n);
        let _ = plan(&generated, map);
    }
});
