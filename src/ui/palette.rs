//! Master colours: one per master, the same everywhere it appears, distinguishable for
//! colour-blind readers and in both colour schemes.
//!
//! The first eight are Okabe and Ito's palette (with its black swapped for a mid grey so it
//! shows on a dark background too); after that, hues evenly spaced around OKLCH at one
//! lightness and chroma, so no master stands out by brightness alone.

/// Okabe–Ito, in their order; black replaced by grey.
const OKABE_ITO: [&str; 8] = [
    "#E69F00", // orange
    "#56B4E9", // sky blue
    "#009E73", // bluish green
    "#F0E442", // yellow
    "#0072B2", // blue
    "#D55E00", // vermillion
    "#CC79A7", // reddish purple
    "#8C8C8C", // grey (the palette's black)
];

/// The CSS colour of master `master_idx` in a cluster of `n_masters`.
pub fn master_colour(master_idx: usize, n_masters: usize) -> String {
    if let Some(c) = OKABE_ITO.get(master_idx) {
        return (*c).to_string();
    }
    let rest = n_masters.saturating_sub(OKABE_ITO.len()).max(1);
    let k = master_idx - OKABE_ITO.len();
    // Start between Okabe-Ito hues; spread the rest evenly around the circle.
    let hue = (15.0 + 360.0 * k as f64 / rest as f64) % 360.0;
    format!("oklch(0.7 0.13 {hue:.1})")
}

/// Gives each master, by node id, a colour slot the first time it is seen and keeps it, so a
/// master keeps its colour when others join or leave (indices into the map shift; ids do not).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColourBook {
    /// Node id → colour slot, in the order first seen.
    slots: std::collections::HashMap<String, usize>,
}

impl ColourBook {
    /// A book that has seen the masters of `map`, in order.
    pub fn for_map(map: &crate::core::SlotMap) -> Self {
        let mut book = ColourBook::default();
        book.learn(map);
        book
    }

    /// Gives colour slots to the masters of `map` not seen before.
    pub fn learn(&mut self, map: &crate::core::SlotMap) {
        for m in map.masters() {
            let next = self.slots.len();
            self.slots.entry(m.id.clone()).or_insert(next);
        }
    }

    /// The colours of `map`'s masters, by master index.
    pub fn colours(&self, map: &crate::core::SlotMap) -> Vec<String> {
        let n = self.slots.len().max(map.n_masters());
        map.masters()
            .iter()
            .enumerate()
            .map(|(idx, m)| master_colour(self.slots.get(&m.id).copied().unwrap_or(idx), n))
            .collect()
    }
}

/// Colour of slots nobody serves.
pub const UNOWNED: &str = "#d8d4cc";
/// The same, in the dark scheme.
pub const UNOWNED_DARK: &str = "#3a3835";

/// The colour of a run of slots: its owner's, or the unowned colour when nobody (or an
/// index without a colour) owns it.
pub fn owner_colour(owner: Option<usize>, colours: &[String], dark: bool) -> &str {
    owner
        .and_then(|m| colours.get(m))
        .map_or(unowned(dark), String::as_str)
}

/// The red that strikes through (and names) uncovered slots, in the current scheme.
pub fn uncovered(dark: bool) -> &'static str {
    if dark {
        "#ffb4ab"
    } else {
        "#b3261e"
    }
}

/// The colour of unowned slots in the current scheme.
pub fn unowned(dark: bool) -> &'static str {
    if dark {
        UNOWNED_DARK
    } else {
        UNOWNED
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Master, SlotMap};

    #[test]
    fn a_master_keeps_its_colour_when_another_leaves() {
        let mut map = SlotMap::fixture_cluster();
        let mut book = ColourBook::for_map(&map);
        let new = map
            .add_master(Master::new("127.0.0.1:7006", "new"))
            .unwrap();
        book.learn(&map);
        let before = book.colours(&map);
        assert_eq!(before[new], master_colour(3, 4));
        for slot in 0..=5460 {
            map.assign(slot, Some(new));
        }
        map.remove_master(0).unwrap();
        let after = book.colours(&map);
        assert_eq!(after, before[1..].to_vec());
    }

    #[test]
    fn first_masters_use_okabe_ito_and_the_rest_are_distinct() {
        assert_eq!(master_colour(0, 3), "#E69F00");
        let n = 1000;
        let colours: std::collections::HashSet<String> =
            (0..n).map(|i| master_colour(i, n)).collect();
        assert_eq!(colours.len(), n);
    }
}
