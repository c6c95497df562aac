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

/// Colour of slots nobody serves.
pub const UNOWNED: &str = "#d8d4cc";
/// The same, in the dark scheme.
pub const UNOWNED_DARK: &str = "#3a3835";

/// Whether text on `master_idx`'s colour should be dark (true) or light.
pub fn dark_text_on(master_idx: usize) -> bool {
    // Blue (4) and vermillion (5) are too dark for black text; the OKLCH hues at L=0.7 are light.
    !matches!(master_idx, 4 | 5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_masters_use_okabe_ito_and_the_rest_are_distinct() {
        assert_eq!(master_colour(0, 3), "#E69F00");
        let n = 1000;
        let colours: std::collections::HashSet<String> =
            (0..n).map(|i| master_colour(i, n)).collect();
        assert_eq!(colours.len(), n);
    }
}
