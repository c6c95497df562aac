//! The page's sections as the section bar and share links name them, and how a link's fragment
//! carries one: `#s=1.…&at=planner` (a state and a place), or `#planner` alone.
//!
//! The place is a suffix the link decoder never sees: [`split_fragment`] takes it off before the
//! state is decoded, so every link written before sections existed still opens as it did.

use crate::ui::messages::Messages;

/// What separates a link's state from the section it opens at.
pub const PLACE_SEPARATOR: &str = "&at=";

/// One section of the page, in page order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// The key field and its way to a slot and a master.
    Key,
    /// The slot map and the topology lab.
    Map,
    /// The fan-out planner.
    Planner,
    /// The tag generator and the hot spot.
    Tags,
    /// The MOVED / ASK player and free mode.
    Redirections,
    /// The cluster bus (its section may be missing: the link then does nothing).
    Bus,
    /// Why slots: hash slots against a ring and `hash mod N`.
    Why,
}

impl Place {
    /// Every section, in page order.
    pub const ALL: [Place; 7] = [
        Place::Key,
        Place::Map,
        Place::Planner,
        Place::Tags,
        Place::Redirections,
        Place::Bus,
        Place::Why,
    ];

    /// The element id of the section (its anchor) and its name in a link.
    pub fn id(self) -> &'static str {
        match self {
            Place::Key => "key",
            Place::Map => "map",
            Place::Planner => "planner",
            Place::Tags => "tags",
            Place::Redirections => "redirections",
            Place::Bus => "bus",
            Place::Why => "why",
        }
    }

    /// The section named `id`, if there is one.
    pub fn from_id(id: &str) -> Option<Place> {
        Place::ALL.into_iter().find(|p| p.id() == id)
    }

    /// Its name in the section bar.
    pub fn label(self, t: &Messages) -> &'static str {
        match self {
            Place::Key => t.nav_key,
            Place::Map => t.nav_map,
            Place::Planner => t.nav_planner,
            Place::Tags => t.nav_tags,
            Place::Redirections => t.nav_redirections,
            Place::Bus => t.nav_bus,
            Place::Why => t.nav_why,
        }
    }
}

/// A fragment (without `#`) cut into the state link and the section it names: `s=1.…&at=map`
/// gives (`s=1.…`, map); a bare `map` gives (``, map); anything else is all state. A suffix
/// naming no section stays part of the state, so the decoder reports it as it always did.
pub fn split_fragment(fragment: &str) -> (&str, Option<Place>) {
    if let Some(place) = Place::from_id(fragment) {
        return ("", Some(place));
    }
    match fragment.rsplit_once(PLACE_SEPARATOR) {
        Some((state, id)) => match Place::from_id(id) {
            Some(place) => (state, Some(place)),
            None => (fragment, None),
        },
        None => (fragment, None),
    }
}

/// The fragment for `state` opened at `place`; the first section (the top of the page) is
/// left out, so a link to the top is exactly the state's link.
pub fn join_fragment(state: &str, place: Place) -> String {
    if place == Place::Key {
        state.to_string()
    } else {
        format!("{state}{PLACE_SEPARATOR}{}", place.id())
    }
}

/// The section being read, from the top edges of the sections found on the page (page order,
/// `None` for a section that is not there) and the line below which a section is not yet
/// reached: the last section whose top is above that line, else the first.
pub fn current(tops: &[(Place, Option<f64>)], line: f64) -> Place {
    tops.iter()
        .filter_map(|&(p, top)| top.map(|t| (p, t)))
        .filter(|&(_, top)| top <= line)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(Place::Key, |(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::{decode, encode, SharedState};

    #[test]
    fn a_link_keeps_its_state_and_gains_a_place() {
        let state = SharedState {
            key: "{user:1001}:orders".into(),
            ..SharedState::default()
        };
        let link = encode(&state).text;
        for place in Place::ALL {
            let fragment = join_fragment(&link, place);
            let (got, at) = split_fragment(&fragment);
            assert_eq!(got, link);
            assert_eq!(at, (place != Place::Key).then_some(place));
            // What the decoder is given is the link as it was written before places existed.
            let back = decode(got);
            assert_eq!(back.state, state);
            assert!(back.problems.is_empty());
        }
    }

    #[test]
    fn old_links_and_bare_places_open() {
        assert_eq!(
            split_fragment("redirect=live-migration:3"),
            ("redirect=live-migration:3", None)
        );
        assert_eq!(
            split_fragment("redirect=live-migration:3&at=redirections"),
            ("redirect=live-migration:3", Some(Place::Redirections))
        );
        assert_eq!(decode("redirect=live-migration:3").version, Some(0));
        assert_eq!(split_fragment("planner"), ("", Some(Place::Planner)));
        assert_eq!(split_fragment("bus"), ("", Some(Place::Bus)));
        assert_eq!(split_fragment(""), ("", None));
        // A suffix naming no section is left for the decoder to refuse, as before.
        assert_eq!(
            split_fragment("s=1.AA&at=nowhere"),
            ("s=1.AA&at=nowhere", None)
        );
        assert_eq!(split_fragment("nowhere"), ("nowhere", None));
    }

    #[test]
    fn every_place_has_its_own_id() {
        let ids: std::collections::HashSet<_> = Place::ALL.iter().map(|p| p.id()).collect();
        assert_eq!(ids.len(), Place::ALL.len());
        for p in Place::ALL {
            assert_eq!(Place::from_id(p.id()), Some(p));
        }
    }

    #[test]
    fn the_current_section_is_the_last_one_reached() {
        let tops = [
            (Place::Key, Some(-900.0)),
            (Place::Map, Some(-100.0)),
            (Place::Planner, Some(250.0)),
            (Place::Bus, None),
            (Place::Why, Some(2000.0)),
        ];
        assert_eq!(current(&tops, 200.0), Place::Map);
        assert_eq!(current(&tops, 300.0), Place::Planner);
        // Nothing reached yet (the masthead is in view): the first section.
        assert_eq!(current(&[(Place::Key, Some(400.0))], 300.0), Place::Key);
        assert_eq!(current(&[], 300.0), Place::Key);
    }
}
