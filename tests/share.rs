//! `persist`: state → link → state, for arbitrary states and the fixtures' clusters; damaged,
//! truncated, old and future links.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use slotscope::core::cluster::import::import;
use slotscope::core::cluster::lab::made_up_id;
use slotscope::core::cluster::reshard::{apply, reshard_plan, Sources};
use slotscope::core::cluster::topology::{Master, Replica, SlotMap};
use slotscope::core::workload::batch::KEY_COMMANDS;
use slotscope::persist::{
    decode, encode, BusState, Cluster, Lang, PlannerInput, Problem, ScenarioStep, Section,
    SharedState, DEFAULT_BATCH, DEFAULT_KEY, MAX_BATCH_BYTES, MAX_LINK_BYTES,
};

fn round_trip(state: &SharedState) -> SharedState {
    let link = encode(state);
    assert!(link.omitted.is_empty(), "{:?}", link.omitted);
    assert!(link.text.starts_with("s=1."), "{}", link.text);
    assert!(
        link.text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.=".contains(&b)),
        "not fragment-safe: {}",
        link.text
    );
    let back = decode(&format!("#{}", link.text));
    assert_eq!(back.problems, vec![], "{}", link.text);
    assert_eq!(back.version, Some(1));
    back.state
}

// ---------------------------------------------------------------------------------------------
// Strategies.

fn any_id() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9a-f]{40}",
        any::<u64>().prop_map(|n| format!("{n:040x}")),
        prop::sample::select(vec![
            "d3bede0cd4ba07708f552c2e44e8211e0d571a39",
            "bded1dae701c0590f42e07edd6c4f72dcd531d82",
        ])
        .prop_map(str::to_owned),
        "[0-9A-F]{40}",
        ".{0,12}",
        Just(String::new()),
    ]
}

fn any_addr() -> impl Strategy<Value = String> {
    prop_oneof![
        (7000u16..7100).prop_map(|p| format!("127.0.0.1:{p}")),
        ("[a-z.]{1,12}", any::<u16>()).prop_map(|(h, p)| format!("{h}:{p}")),
        ".{0,20}",
    ]
}

fn any_flags() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop_oneof![
            Just("myself".to_string()),
            Just("fail".to_string()),
            ".{0,6}"
        ],
        0..3,
    )
}

/// One change to a cluster, as the topology lab makes them.
#[derive(Clone, Debug)]
enum Op {
    Add(String, String),
    Reshard(usize, usize),
    Assign(u16, u16, Option<usize>),
    Remove(usize),
    Details(
        usize,
        Option<String>,
        Vec<String>,
        Vec<(String, String, Vec<String>)>,
    ),
    Open(usize, u16, String, bool),
}

fn any_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any_addr(), any_id()).prop_map(|(a, i)| Op::Add(a, i)),
        any_addr().prop_map(|a| Op::Add(a.clone(), made_up_id(&a))),
        (0usize..8, 1usize..6000).prop_map(|(t, n)| Op::Reshard(t, n)),
        (0u16..16384, 0u16..16384, prop::option::of(0usize..8)).prop_map(|(a, b, o)| Op::Assign(
            a.min(b),
            a.max(b),
            o
        )),
        (0usize..8).prop_map(Op::Remove),
        (
            0usize..8,
            prop::option::of(".{0,10}"),
            any_flags(),
            prop::collection::vec((any_addr(), any_id(), any_flags()), 0..3)
        )
            .prop_map(|(m, h, f, r)| Op::Details(m, h, f, r)),
        (0usize..8, 0u16..16384, any_id(), any::<bool>())
            .prop_map(|(m, s, i, b)| Op::Open(m, s, i, b)),
    ]
}

fn apply_op(map: &mut SlotMap, op: Op) {
    match op {
        Op::Add(addr, id) => {
            let _ = map.add_master(Master::new(addr, id));
        }
        Op::Reshard(target, n) => {
            if target < map.n_masters()
                && let Ok(moves) = reshard_plan(map, &Sources::All, target, n)
            {
                apply(map, &moves);
            }
        }
        Op::Assign(first, last, owner) => {
            for slot in first..=last {
                map.assign(slot, owner);
            }
        }
        Op::Remove(m) => {
            let _ = map.remove_master(m);
        }
        Op::Details(m, hostname, flags, replicas) => {
            if let Some(master) = map.master_mut(m) {
                master.hostname = hostname;
                master.flags = flags;
                master.replicas = replicas
                    .into_iter()
                    .map(|(addr, id, flags)| Replica { addr, id, flags })
                    .collect();
            }
        }
        Op::Open(m, slot, id, migrating) => {
            if let Some(master) = map.master_mut(m) {
                if migrating {
                    master.migrating.push((slot, id));
                } else {
                    master.importing.push((slot, id));
                }
            }
        }
    }
}

fn any_cluster() -> impl Strategy<Value = Cluster> {
    prop_oneof![
        Just(Cluster::Fixture),
        (1usize..=1000).prop_map(Cluster::Created),
        (
            prop_oneof![Just(0usize), 1usize..12],
            prop::collection::vec(any_op(), 0..12)
        )
            .prop_map(|(start, ops)| {
                let mut map = if start == 0 {
                    SlotMap::fixture_cluster()
                } else {
                    SlotMap::created(start, "127.0.0.1", 7000).unwrap()
                };
                for op in ops {
                    apply_op(&mut map, op);
                }
                Cluster::Custom(map)
            }),
    ]
}

fn choice(options: Vec<&'static str>) -> impl Strategy<Value = String> {
    prop::sample::select(options).prop_map(str::to_owned)
}

fn any_planner() -> impl Strategy<Value = PlannerInput> {
    let mut commands = vec!["commands"];
    commands.extend_from_slice(KEY_COMMANDS);
    (
        prop_oneof![Just(DEFAULT_BATCH.to_string()), "(.|\n){0,200}"],
        choice(commands),
        prop::option::of(any_addr()),
        choice(vec!["template", "h3"]),
        ".{0,20}",
        prop_oneof![Just("1000".to_string()), "[0-9-]{0,8}"],
        prop_oneof![Just("100".to_string()), ".{0,5}"],
        choice(vec!["mget", "eval", "tagged"]),
        any::<bool>(),
    )
        .prop_map(
            |(text, command, node, gen_kind, gen_template, gen_count, chunk, style, generated)| {
                PlannerInput {
                    text: text.into(),
                    command,
                    node,
                    gen_kind,
                    gen_template,
                    gen_count,
                    chunk,
                    style,
                    generated,
                }
            },
        )
}

fn any_bus() -> impl Strategy<Value = BusState> {
    (
        ".{0,20}",
        prop::collection::vec(any::<u8>(), 0..64),
        0u64..=3_600_000,
    )
        .prop_map(|(scenario, spec, at_ms)| BusState {
            scenario,
            spec,
            at_ms,
        })
}

fn any_state() -> impl Strategy<Value = SharedState> {
    (
        prop_oneof![Just(Lang::En), Just(Lang::Zh)],
        prop_oneof![
            Just(DEFAULT_KEY.to_string()),
            ".{0,40}",
            r"(\\x[0-9a-f]{2}|[{}a-z])*"
        ],
        any_cluster(),
        prop_oneof![Just(PlannerInput::default()), any_planner()],
        prop::option::of(
            (".{0,20}", any::<u32>()).prop_map(|(scenario, step)| ScenarioStep { scenario, step }),
        ),
        prop::option::of(any_bus()),
    )
        .prop_map(|(lang, key, cluster, planner, redirect, bus)| SharedState {
            lang,
            key,
            cluster,
            planner,
            redirect,
            bus,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn state_to_link_to_state(state in any_state()) {
        prop_assert_eq!(round_trip(&state), state);
    }

    #[test]
    fn any_fragment_decodes_without_panicking(text in ".{0,80}") {
        let _ = decode(&text);
        let _ = decode(&format!("s=1.{text}"));
    }
}

// ---------------------------------------------------------------------------------------------
// The fixtures' clusters.

/// Every `CLUSTER NODES` output in the fixtures, as imported maps.
fn fixture_maps() -> Vec<(String, SlotMap)> {
    let dir = common::fixtures_dir();
    let mut out = Vec::new();
    for sub in ["transcripts", "create_outputs", "reshard_cases"] {
        let mut stack = vec![dir.join(sub)];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).unwrap() {
                    stack.push(entry.unwrap().path());
                }
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            // Each `CLUSTER NODES` prompt's output, up to the next prompt or comment.
            let lines: Vec<&str> = text.lines().collect();
            for (i, l) in lines.iter().enumerate() {
                if !(l.starts_with("$ ") && l.contains("CLUSTER NODES")) {
                    continue;
                }
                let body: Vec<&str> = lines[i + 1..]
                    .iter()
                    .take_while(|l| !l.starts_with("$ ") && !l.starts_with('#'))
                    .copied()
                    .collect();
                if let Ok(imported) = import(&body.join("\n")) {
                    out.push((format!("{}:{}", path.display(), i + 1), imported.map));
                }
            }
        }
    }
    out
}

#[test]
fn every_imported_fixture_cluster_round_trips() {
    let maps = fixture_maps();
    assert!(
        maps.len() >= 20,
        "only {} CLUSTER NODES outputs found",
        maps.len()
    );
    let mut open_slots = 0;
    for (origin, map) in maps {
        open_slots += map
            .masters()
            .iter()
            .map(|m| m.migrating.len() + m.importing.len())
            .sum::<usize>();
        let state = SharedState {
            cluster: Cluster::Custom(map),
            ..SharedState::default()
        };
        assert_eq!(round_trip(&state), state, "{origin}");
    }
    assert!(
        open_slots > 0,
        "no fixture with migrating or importing slots was tried"
    );
}

#[test]
fn fixture_and_created_clusters_are_recognised_and_one_tag() {
    assert_eq!(
        Cluster::from_map(&SlotMap::fixture_cluster()),
        Cluster::Fixture
    );
    let five = SlotMap::created(5, "127.0.0.1", 7000).unwrap();
    assert_eq!(Cluster::from_map(&five), Cluster::Created(5));
    let mut moved = five.clone();
    moved.assign(0, Some(4));
    assert_eq!(Cluster::from_map(&moved), Cluster::Custom(moved.clone()));
    let created = SharedState {
        cluster: Cluster::Created(1000),
        ..SharedState::default()
    };
    assert!(
        encode(&created).text.len() <= 20,
        "{}",
        encode(&created).text
    );
    assert_eq!(Cluster::Created(5).to_map().unwrap(), five);
}

// ---------------------------------------------------------------------------------------------
// Size.

#[test]
fn links_are_short() {
    let default = encode(&SharedState::default()).text;
    assert!(default.len() <= 64, "{default}");
    assert_eq!(decode(&default).state, SharedState::default());

    // Six masters after an add-node and a reshard to it, the fixture ids and replicas kept.
    let mut map = SlotMap::fixture_cluster();
    for port in [7006, 7007, 7008] {
        let idx = map
            .add_master(Master::new(
                format!("127.0.0.1:{port}"),
                made_up_id(&format!("127.0.0.1:{port}")),
            ))
            .unwrap();
        let moves = reshard_plan(&map, &Sources::All, idx, 1000).unwrap();
        apply(&mut map, &moves);
    }
    assert_eq!(map.n_masters(), 6);
    let state = SharedState {
        key: "user:1000".into(),
        cluster: Cluster::Custom(map),
        redirect: Some(ScenarioStep {
            scenario: "live-migration".into(),
            step: 3,
        }),
        ..SharedState::default()
    };
    let link = encode(&state).text;
    println!("6-master link ({} chars): {link}", link.len());
    assert!(link.len() <= 200, "{} chars: {link}", link.len());
    assert_eq!(round_trip(&state), state);
}

#[test]
fn a_batch_too_long_for_a_link_is_left_out_and_said() {
    let state = SharedState {
        key: "kept".into(),
        planner: PlannerInput {
            text: "GET k\n".repeat(MAX_BATCH_BYTES / 6 + 1).into(),
            command: "MGET".into(),
            ..PlannerInput::default()
        },
        ..SharedState::default()
    };
    let link = encode(&state);
    assert_eq!(link.omitted, vec![Section::Planner]);
    assert!(link.text.len() < 200);
    let back = decode(&link.text);
    assert_eq!(back.problems, vec![]);
    assert_eq!(back.state.key, "kept");
    assert_eq!(
        back.state.planner.command, "MGET",
        "the other fields still travel"
    );
    // An empty batch, not the default commands read as keys for MGET (the browser that made
    // the link keeps the batch beside it: ui::share::keep_batch).
    assert_eq!(&*back.state.planner.text, "");
}

// ---------------------------------------------------------------------------------------------
// Damage.

fn sample_links() -> Vec<String> {
    let mut map = SlotMap::fixture_cluster();
    let idx = map.add_master(Master::new("127.0.0.1:7006", "n6")).unwrap();
    let moves = reshard_plan(&map, &Sources::All, idx, 100).unwrap();
    apply(&mut map, &moves);
    map.master_mut(0).unwrap().migrating.push((7, "n6".into()));
    vec![
        encode(&SharedState::default()).text,
        encode(&SharedState {
            key: "{a}b".into(),
            ..SharedState::default()
        })
        .text,
        encode(&SharedState {
            lang: Lang::Zh,
            key: "x".into(),
            cluster: Cluster::Custom(map),
            planner: PlannerInput {
                text: "MGET a b".into(),
                generated: true,
                ..PlannerInput::default()
            },
            redirect: Some(ScenarioStep {
                scenario: "tryagain".into(),
                step: 2,
            }),
            bus: None,
        })
        .text,
    ]
}

#[test]
fn every_truncation_says_so() {
    for link in sample_links() {
        for cut in 1..link.len() {
            let d = decode(&link[..cut]);
            assert!(!d.problems.is_empty(), "cut at {cut}: {}", &link[..cut]);
        }
    }
}

/// A cut is told as a cut ("cut short"), never as characters a link never has, and the
/// sections before it are restored: once a cut keeps the key, every longer cut keeps it, and
/// the key survives losing the last character.
#[test]
fn a_cut_link_is_told_as_cut_and_keeps_what_came_before() {
    for link in sample_links() {
        let key = decode(&link).state.key;
        let mut kept = false;
        for cut in 1..link.len() {
            let d = decode(&link[..cut]);
            assert!(
                !d.problems.contains(&Problem::BadBase64),
                "cut at {cut}: {:?}",
                d.problems
            );
            let keeps = d.state.key == key;
            assert!(
                keeps || !kept,
                "cut at {cut} lost the key a shorter cut kept"
            );
            kept |= keeps;
        }
        assert!(kept, "{link}");
    }
}

#[test]
fn every_single_byte_change_says_so() {
    for link in sample_links() {
        let bytes = link.as_bytes();
        for i in 0..bytes.len() {
            for b in (0u8..=255).step_by(7).chain(*b"AZaz09-_.=s1") {
                if b == bytes[i] {
                    continue;
                }
                let mut changed = bytes.to_vec();
                changed[i] = b;
                let text = String::from_utf8_lossy(&changed);
                let d = decode(&text);
                assert!(!d.problems.is_empty(), "byte {i} → {b}: {text}");
            }
        }
    }
}

#[test]
fn a_damaged_planner_section_keeps_the_key_and_cluster() {
    let state = SharedState {
        key: "mine".into(),
        cluster: Cluster::Created(7),
        planner: PlannerInput {
            text: "GET x".into(),
            ..PlannerInput::default()
        },
        ..SharedState::default()
    };
    let good = encode(&state).text;
    // Find a change that damages only the planner: the first one whose problem names it.
    let found = (4..good.len()).find_map(|i| {
        let mut b = good.clone().into_bytes();
        b[i] = if b[i] == b'A' { b'B' } else { b'A' };
        let d = decode(std::str::from_utf8(&b).unwrap());
        (d.problems == vec![Problem::BadSection(Section::Planner)]).then_some(d)
    });
    let d = found.expect("some change damages only the planner section");
    assert_eq!(d.state.key, "mine");
    assert_eq!(d.state.cluster, Cluster::Created(7));
    assert_eq!(d.state.planner, PlannerInput::default());
}

#[test]
fn old_future_and_foreign_links() {
    let old = decode("#redirect=live-migration:3");
    assert_eq!(old.version, Some(0));
    assert_eq!(old.problems, vec![]);
    assert_eq!(
        old.state.redirect,
        Some(ScenarioStep {
            scenario: "live-migration".into(),
            step: 3
        })
    );
    assert_eq!(old.state.key, DEFAULT_KEY);
    let bad_step = decode("#redirect=live-migration:-2");
    assert_eq!(
        bad_step.problems,
        vec![Problem::BadSection(Section::Scenario)]
    );
    assert_eq!(bad_step.state.redirect.unwrap().step, 0);

    let future = decode("#s=2.AAAA");
    assert_eq!(future.problems, vec![Problem::UnknownVersion("2".into())]);
    assert_eq!(future.state, SharedState::default());

    assert_eq!(decode("").problems, vec![]);
    assert_eq!(decode("#").version, None);
    assert_eq!(decode("#section-2").problems, vec![Problem::NotALink]);
    let huge = format!("s=1.{}", "A".repeat(MAX_LINK_BYTES));
    assert!(matches!(
        decode(&huge).problems[..],
        [Problem::TooLong { .. }]
    ));
}

#[test]
fn values_the_page_does_not_offer_are_refused() {
    let state = SharedState {
        planner: PlannerInput {
            command: "MGET".into(),
            style: "eval".into(),
            ..PlannerInput::default()
        },
        ..SharedState::default()
    };
    let link = encode(&state).text;
    // Same length swap inside the payload is checked by the CRC; a link made by hand with a
    // valid CRC but an unknown command is what this guards: build one through the encoder.
    let forged = SharedState {
        planner: PlannerInput {
            command: "FLUSHALL".into(),
            ..PlannerInput::default()
        },
        ..SharedState::default()
    };
    let d = decode(&encode(&forged).text);
    assert_eq!(d.problems, vec![Problem::BadSection(Section::Planner)]);
    assert_eq!(d.state.planner.command, "commands");
    assert_eq!(decode(&link).state, state);
}

fn a_bus_state() -> BusState {
    BusState {
        scenario: "free".into(),
        spec: vec![1, 2, 3, 250, 0],
        at_ms: 4321,
    }
}

#[test]
fn the_bus_player_round_trips_and_a_tampered_bus_section_keeps_the_rest() {
    let state = SharedState {
        key: "user:1000".into(),
        bus: Some(a_bus_state()),
        ..SharedState::default()
    };
    assert_eq!(round_trip(&state), state);
    // An instant past one simulated hour is refused, and the other sections are kept.
    let mut late = a_bus_state();
    late.at_ms = 3_600_001;
    let state = SharedState {
        key: "user:1000".into(),
        bus: Some(late),
        ..SharedState::default()
    };
    let back = decode(&encode(&state).text);
    assert_eq!(back.problems, vec![Problem::BadSection(Section::Bus)]);
    assert_eq!(back.state.bus, None);
    assert_eq!(back.state.key, "user:1000", "the other sections are kept");
    // Spec bytes over 16 KB are left out of the link (and named), never cut.
    let mut long = a_bus_state();
    long.spec = vec![7; 20_000];
    let link = encode(&SharedState {
        bus: Some(long),
        ..SharedState::default()
    });
    assert_eq!(link.omitted, vec![Section::Bus]);
    // Any flipped character: a problem at most, never a panic.
    let text = encode(&SharedState {
        bus: Some(a_bus_state()),
        ..SharedState::default()
    })
    .text;
    for i in 4..text.len() {
        let mut b = text.clone().into_bytes();
        b[i] = if b[i] == b'A' { b'B' } else { b'A' };
        let _ = decode(&String::from_utf8(b).unwrap());
    }
}
