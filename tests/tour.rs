//! The guided tour's quoted facts: every quote appears, byte for byte, in the fixture it names.

mod common;

use slotscope::ui::components::tour::STOPS;

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
