//! What the sequence diagram's lifelines carry (slot states and keys per node, step by step),
//! checked against transcript 07, the recorded live migration of slot 5712 on Redis 7.0.15.

mod common;

use slotscope::core::client::steps::{scenario_steps, SlotState};
use slotscope::core::client::{scenarios, Endpoint, EventKind, Scenario};

const SOURCE: &str = "127.0.0.1:7001";
const TARGET: &str = "127.0.0.1:7002";
const PROFILE: &[u8] = b"{user:1001}:profile";
const ORDERS: &[u8] = b"{user:1001}:orders";

fn transcript() -> String {
    let path = common::fixtures_dir().join("transcripts/07_slot_migration_ask_tryagain.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The index of the reply to the first request whose words start with `words`.
fn reply_to(sc: &Scenario, words: &str) -> usize {
    let events: Vec<_> = sc.events().collect();
    let req = events
        .iter()
        .position(|e| match &e.kind {
            EventKind::Request { args } => {
                let line: Vec<String> = args
                    .iter()
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect();
                line.join(" ").starts_with(words)
            }
            _ => false,
        })
        .unwrap_or_else(|| panic!("{}: no request {words}", sc.id));
    req + events
        .get(req..)
        .unwrap_or_default()
        .iter()
        .position(|e| matches!(e.kind, EventKind::Reply { .. }))
        .unwrap_or_else(|| panic!("{}: no reply to {words}", sc.id))
}

#[test]
fn the_live_migration_draws_the_states_and_keys_redis_reported() {
    let text = transcript();
    let all = scenarios();
    let sc = all.iter().find(|s| s.id == "live-migration").unwrap();
    let steps = scenario_steps(sc);
    assert!(steps.state_slots.contains(&5712));
    let at = |i: usize| &steps.lifelines[i];

    // Recorded: before any SETSLOT, 7001 holds both keys of slot 5712 (COUNTKEYSINSLOT 2,
    // GETKEYSINSLOT lists them).
    assert!(text.contains("$ redis-cli -p 7001 CLUSTER COUNTKEYSINSLOT 5712\n(integer) 2"));
    assert!(text.contains("1) \"{user:1001}:orders\"\n2) \"{user:1001}:profile\""));
    let importing = reply_to(sc, "CLUSTER SETSLOT 5712 IMPORTING");
    let before = at(importing - 1);
    assert_eq!(
        before.keys_of(SOURCE),
        [ORDERS.to_vec(), PROFILE.to_vec()],
        "byte order: orders < profile"
    );
    assert!(before.keys_of(TARGET).is_empty());
    assert_eq!(before.states_of(SOURCE, 5712), [&SlotState::Owner]);
    assert!(before.states_of(TARGET, 5712).is_empty());

    // Recorded: 7002's CLUSTER NODES shows [5712-<-<7001's id>] once IMPORTING is set.
    assert!(text.contains(
        "127.0.0.1:7002@17002 myself,master - 0 1795982574000 3 connected 10923-16383 [5712-<-f7c6b5d608aefdd517b33641eb638ce56252d0b4]"
    ));
    assert_eq!(
        at(importing).states_of(TARGET, 5712),
        [&SlotState::Importing {
            from: SOURCE.to_string()
        }]
    );
    // The request itself still shows the state before it.
    assert!(at(importing - 1).states_of(TARGET, 5712).is_empty());

    // Recorded: 7001's shows [5712->-<7002's id>] once MIGRATING is set, and it still owns
    // 5461-10922.
    assert!(text.contains("connected 5461-10922 [5712->-44084a172411812451c56a0a3330ec6daa733083]"));
    let migrating = reply_to(sc, "CLUSTER SETSLOT 5712 MIGRATING");
    assert_eq!(
        at(migrating).states_of(SOURCE, 5712),
        [
            &SlotState::Owner,
            &SlotState::Migrating {
                to: TARGET.to_string()
            }
        ]
    );

    // Recorded: after MIGRATE of the profile, each side holds one key of 5712, and 7001
    // answers ASK for the profile but "3" for the orders.
    assert!(text.contains("$ redis-cli -p 7001 CLUSTER COUNTKEYSINSLOT 5712\n(integer) 1"));
    assert!(text.contains("$ redis-cli -p 7002 CLUSTER COUNTKEYSINSLOT 5712\n(integer) 1"));
    assert!(text.contains("$ redis-cli -p 7001 GET {user:1001}:orders\n\"3\""));
    let migrate = reply_to(sc, "MIGRATE 127.0.0.1 7002 {user:1001}:profile");
    assert_eq!(
        at(migrate - 1).keys_of(SOURCE).len(),
        2,
        "not before MIGRATE"
    );
    assert_eq!(at(migrate).keys_of(SOURCE), [ORDERS.to_vec()]);
    assert_eq!(at(migrate).keys_of(TARGET), [PROFILE.to_vec()]);
    // …and stays so to the end of the scenario (it never moves the orders).
    let last = steps.lifelines.last().unwrap();
    assert_eq!(last.keys_of(TARGET), [PROFILE.to_vec()]);
    assert_eq!(last.states_of(TARGET, 5712).len(), 1);
}

#[test]
fn the_end_of_the_migration_hands_the_slot_and_both_keys_to_the_target() {
    let text = transcript();
    let all = scenarios();
    let sc = all.iter().find(|s| s.id == "end-of-migration").unwrap();
    let steps = scenario_steps(sc);
    // Recorded: after the second MIGRATE, 7001 holds no key of 5712.
    assert!(text.contains(
        "KEYS {user:1001}:orders\nOK\n$ redis-cli -p 7001 CLUSTER COUNTKEYSINSLOT 5712\n(integer) 0"
    ));
    let second = reply_to(sc, "MIGRATE 127.0.0.1 7002  0 5000 KEYS");
    assert!(steps.lifelines[second].keys_of(SOURCE).is_empty());
    assert_eq!(steps.lifelines[second].keys_of(TARGET).len(), 2);
    // SETSLOT NODE on 7002 closes its IMPORTING and makes it the owner (as 7002 sees it);
    // once every node was told, 7001 neither owns nor migrates the slot.
    let last = steps.lifelines.last().unwrap();
    assert_eq!(last.states_of(TARGET, 5712), [&SlotState::Owner]);
    assert!(last.states_of(SOURCE, 5712).is_empty());
}

#[test]
fn every_scenario_has_lifelines_for_every_step_and_the_operator_on_the_far_side() {
    for sc in scenarios() {
        let steps = scenario_steps(&sc);
        assert_eq!(steps.lifelines.len(), sc.events().count(), "{}", sc.id);
        for l in &steps.lifelines {
            assert_eq!(l.keys.len(), steps.nodes.len(), "{}", sc.id);
            for b in &l.bands {
                assert!(steps.nodes.contains(&b.node) && steps.state_slots.contains(&b.slot));
            }
        }
        if steps.has_operator {
            assert_eq!(
                steps.lane(&Endpoint::Operator),
                1 + steps.nodes.len(),
                "{}",
                sc.id
            );
        }
    }
}
