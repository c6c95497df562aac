//! The guided tour's quoted facts: every quote appears, byte for byte, in the fixture it names.

mod common;

use slotscope::ui::components::tour::{EN, STOPS};

#[test]
fn every_quoted_fact_is_in_its_fixture() {
    let mut checked = 0;
    for stop in STOPS {
        assert!(
            !stop.facts.is_empty(),
            "stop {} quotes no recorded fact",
            stop.id
        );
        for fact in stop.facts {
            let path = common::fixtures_dir().join(fact.file);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                text.contains(fact.quote),
                "stop {}: {:?} is not in {}",
                stop.id,
                fact.quote,
                fact.file
            );
            checked += 1;
        }
    }
    assert!(checked >= 10);
}

#[test]
fn stops_name_distinct_ids_and_keys_that_parse() {
    let mut ids: Vec<_> = STOPS.iter().map(|s| s.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), STOPS.len());
    for key in STOPS.iter().filter_map(|s| s.key) {
        assert!(
            slotscope::core::key::escape::parse_key(key).is_ok(),
            "{key}"
        );
    }
}

/// What the stops do on the page matches what they quote: the resharding stop moves as many
/// slots as transcript 13's `--cluster-slots`, and the last stop plays a scenario that exists
/// and shows the ASK it quotes.
#[test]
fn the_stops_drive_the_page_as_their_facts_say() {
    use slotscope::core::client::scenarios;
    use slotscope::ui::components::tour::Drive;
    let mut drives = 0;
    for stop in STOPS {
        match stop.drive {
            Drive::Nothing => {}
            Drive::AddAndReshard(n) => {
                let quote = format!("--cluster-slots {n}");
                assert!(stop.facts.iter().any(|f| f.quote == quote), "{}", stop.id);
                let text = std::fs::read_to_string(
                    common::fixtures_dir().join("transcripts/13_reshard_1000_slots.txt"),
                )
                .unwrap();
                assert!(text.contains(&quote));
                drives += 1;
            }
            Drive::SubTags(k) => {
                // distribution.tsv's 64-sub-tag run: its tags are {user1:0} .. {user1:k-1}.
                let tsv = std::fs::read_to_string(common::fixtures_dir().join("distribution.tsv"))
                    .unwrap();
                let run = format!("tags{k}_user1_100k\t");
                assert!(
                    stop.facts.iter().any(|f| f.quote.starts_with(&run)),
                    "{}",
                    stop.id
                );
                let tags: Vec<&str> = tsv
                    .lines()
                    .filter(|l| l.starts_with(&run) && l.contains("\ttag\t"))
                    .collect();
                assert_eq!(tags.len(), k as usize, "{run}");
                // The stop's text gives the recorded counts per master.
                for f in stop.facts.iter().filter(|f| f.quote.starts_with(&run)) {
                    let n: u32 = f.quote.rsplit('\t').next().unwrap().parse().unwrap();
                    let said = format!("{},{:03}", n / 1000, n % 1000);
                    assert!(EN.stops[3].1.contains(&said), "{said}");
                }
                drives += 1;
            }
            Drive::Play(id) => {
                let all = scenarios();
                let sc = all.iter().find(|s| s.id == id).expect("a scenario");
                let ask = stop
                    .facts
                    .iter()
                    .find(|f| f.quote.contains("ASK"))
                    .expect("the stop quotes an ASK");
                assert!(
                    sc.events().any(|e| e.cli.trim_end() == ask.quote),
                    "{id} shows {:?}",
                    ask.quote
                );
                drives += 1;
            }
        }
    }
    assert_eq!(drives, 3);
}
