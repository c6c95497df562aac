//! Fuzz target `simulator`: lines typed into the engine's interactive redis-cli
//! (`Cli::type_line`, with or without `-c`) or into the Redirections free mode
//! (`redirect::parse_action`: `@host:port CMD` for the operator, anything else for the client),
//! replayed with `redirect::play` under a client policy and redirect budget, on one of four
//! clusters; then `CLUSTER NODES` of the entry node.
//! Nothing may panic and every command must return.
//!
//! Input: byte 0 = map (bits 0-1), entry node (bits 2-4), `-c` (bit 5), interactive (bit 6),
//! redis-cli or free mode (bit 7); byte 1 = policy (bits 0-1: a library, -c, MOVED-only, or a
//! library with every action in one `play`, as the scenarios run), max redirects (bits 2-4),
//! stale route (bit 5), which library (bits 6-7 and bit 4 of byte 0: one of six); the rest is
//! the lines typed.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use slotscope::core::client::{
    parse_action, play, request_resp, typed_form, Action, Client, Policy, Step, LIBRARIES,
};
use slotscope::core::server::{Cli, Cluster, Typed};

/// Redirect budgets: none, a few, the library presets (Lettuce 5, ioredis / redis-rs 16).
const MAX_REDIRECTS: [u32; 8] = [0, 1, 2, 3, 5, 16, 16, 100];

fn look_at(steps: &[Step]) {
    for step in steps {
        for event in &step.events {
            let _ = (event.is_moved(), event.is_ask());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else { return };
    let text = String::from_utf8_lossy(rest);
    let map = &common::maps()[usize::from(a & 3)];
    let addrs = common::node_addrs(map);
    let entry = &addrs[usize::from(a >> 2 & 7) % addrs.len()];
    let mut cluster = Cluster::new(map.clone());

    if a & 0x80 == 0 {
        // redis-cli, interactive or one-shot, with or without -c.
        let mut cli = Cli::new(entry.clone(), a & 0x20 != 0, a & 0x40 != 0);
        for line in text.lines() {
            let _ = cli.prompt();
            match cli.type_line(&mut cluster, line) {
                Typed::Sent(out) => {
                    if let Some(reply) = &out.reply {
                        let _ = reply.to_resp();
                    }
                }
                Typed::Quit => break,
                _ => {}
            }
        }
    } else {
        // The free mode's client.
        let library = LIBRARIES[usize::from((b >> 6) | (a >> 2 & 4)) % LIBRARIES.len()];
        let policy = match b & 3 {
            1 => Policy::RedisCliC,
            2 => Policy::MovedOnly,
            _ => Policy::Library(library),
        };
        let one_play = b & 3 == 3;
        let mut client = Client::new(policy, MAX_REDIRECTS[usize::from(b >> 2 & 7)], map)
            .connected_to(entry.clone());
        if b & 0x20 != 0 {
            // A stale table: user:1002's slot 9779 and {user:1001}'s 5712 point elsewhere.
            client.set_route(9779, &addrs[0]);
            client.set_route(5712, entry);
        }
        let mut actions = Vec::new();
        for line in text.lines() {
            let Ok(action) = parse_action(line) else {
                continue;
            };
            let (Action::Client { args } | Action::Operator { args, .. }) = &action;
            let _ = typed_form(args);
            let _ = request_resp(args);
            if one_play {
                actions.push(action);
            } else {
                // The free mode: one `play` per line sent.
                look_at(&play(&mut cluster, &mut client, vec![action]));
            }
        }
        if one_play {
            look_at(&play(&mut cluster, &mut client, actions));
        }
        let _ = client.table();
    }
    let _ = cluster.cluster_nodes_of(entry);
});
