//! Master colours: one per master, the same everywhere it appears, distinguishable for
//! colour-blind readers and in both colour schemes.
//!
//! The first eight come from Okabe and Ito's and Paul Tol's colour-blind-safe palettes, chosen
//! and ordered (nav-phone) so that every pair stays apart for normal vision and under simulated
//! protanopia, deuteranopia and tritanopia (Machado et al. 2009, full severity): the smallest
//! CIEDE2000 difference between any two of them is 12.1 (it was 7.5 under deuteranopia, and
//! Okabe–Ito's orange and yellow, masters one and four, looked alike), each prefix (the first
//! three, four, …) as far apart as it can be, and each apart from the unowned colour and the
//! card of both schemes. The test below recomputes it. After eight, hues evenly spaced around
//! OKLCH at one lightness and chroma, so no master stands out by brightness alone.

/// The first eight masters' colours, in order.
const FIRST_EIGHT: [&str; 8] = [
    "#66CCEE", // cyan (Tol bright)
    "#CC3311", // red (Tol vibrant)
    "#0072B2", // blue (Okabe–Ito)
    "#CCBB44", // yellow (Tol bright)
    "#648FFF", // periwinkle (IBM design library)
    "#AA3377", // purple (Tol bright)
    "#CC79A7", // reddish purple (Okabe–Ito)
    "#009E73", // bluish green (Okabe–Ito)
];

/// The CSS colour of master `master_idx` in a cluster of `n_masters`.
pub fn master_colour(master_idx: usize, n_masters: usize) -> String {
    if let Some(c) = FIRST_EIGHT.get(master_idx) {
        return (*c).to_string();
    }
    let rest = n_masters.saturating_sub(FIRST_EIGHT.len()).max(1);
    let k = master_idx - FIRST_EIGHT.len();
    // Start between the first eight's hues; spread the rest evenly around the circle.
    let hue = (15.0 + 360.0 * k as f64 / rest as f64) % 360.0;
    format!("oklch(0.7 0.13 {hue:.1})")
}

/// Whether text on `colour` (a `#rrggbb` or an `oklch(L …)` from [`master_colour`]) reads
/// better dark than light: the one with the higher WCAG contrast against it. Unknown colours
/// get dark text.
pub fn dark_text_on(colour: &str) -> bool {
    let luminance = if let Some(hex) = colour.strip_prefix('#').filter(|h| h.len() == 6) {
        let channel = |i: usize| {
            let v = u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0) as f64
                / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
    } else if let Some(rest) = colour.strip_prefix("oklch(") {
        // OKLCH's lightness is perceptual: its cube is close to the relative luminance.
        let l: f64 = rest
            .split_whitespace()
            .next()
            .and_then(|l| l.parse().ok())
            .unwrap_or(1.0);
        l.powi(3)
    } else {
        return true;
    };
    (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05)
}

/// The sRGB bytes of `colour`, a `#rrggbb` or an `oklch(L C H)` as [`master_colour`] writes
/// them (CSS Color 4's conversion, clipped to sRGB); `None` for anything else.
pub fn srgb(colour: &str) -> Option<[u8; 3]> {
    if let Some(hex) = colour.strip_prefix('#').filter(|h| h.len() == 6) {
        let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        return Some([byte(0)?, byte(2)?, byte(4)?]);
    }
    let inner = colour.strip_prefix("oklch(")?.strip_suffix(')')?;
    let mut parts = inner.split_whitespace().map(str::parse::<f64>);
    let (l, c, h) = (
        parts.next()?.ok()?,
        parts.next()?.ok()?,
        parts.next()?.ok()?,
    );
    if parts.next().is_some() {
        return None;
    }
    let (a, b) = (c * h.to_radians().cos(), c * h.to_radians().sin());
    let l_ = (l + 0.396_337_777_4 * a + 0.215_803_757_3 * b).powi(3);
    let m_ = (l - 0.105_561_345_8 * a - 0.063_854_172_8 * b).powi(3);
    let s_ = (l - 0.089_484_177_5 * a - 1.291_485_548_0 * b).powi(3);
    let linear = [
        4.076_741_662_1 * l_ - 3.307_711_591_3 * m_ + 0.230_969_929_2 * s_,
        -1.268_438_004_6 * l_ + 2.609_757_401_1 * m_ - 0.341_319_396_5 * s_,
        -0.004_196_086_3 * l_ - 0.703_418_614_7 * m_ + 1.707_614_701_0 * s_,
    ];
    Some(linear.map(|v| {
        let v = v.clamp(0.0, 1.0);
        let e = if v <= 0.003_130_8 {
            12.92 * v
        } else {
            1.055 * v.powf(1.0 / 2.4) - 0.055
        };
        (e * 255.0).round() as u8
    }))
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

    #[test]
    fn srgb_reads_hex_and_converts_oklch_as_css_color_4_does() {
        assert_eq!(srgb("#66CCEE"), Some([0x66, 0xcc, 0xee]));
        assert_eq!(srgb("#3a3835"), Some([0x3a, 0x38, 0x35]));
        // CSS Color 4's own examples: sRGB red, and white and black.
        assert_eq!(srgb("oklch(0.627955 0.257683 29.2339)"), Some([255, 0, 0]));
        assert_eq!(srgb("oklch(1 0 0)"), Some([255, 255, 255]));
        assert_eq!(srgb("oklch(0 0 0)"), Some([0, 0, 0]));
        // A master's colour is read; anything else is not guessed at.
        assert!(srgb(&master_colour(500, 1000)).is_some());
        for bad in [
            "red",
            "#fff",
            "oklch(0.7 0.13)",
            "oklch(0.7 0.13 10 1)",
            "rgb(1,2,3)",
        ] {
            assert_eq!(srgb(bad), None, "{bad}");
        }
    }

    #[test]
    fn text_on_a_master_reads_dark_on_light_fills_and_light_on_dark_ones() {
        // WCAG: #66CCEE (luminance 0.53) has 11.6:1 against black, 1.8:1 against white.
        assert!(dark_text_on("#66CCEE"));
        assert!(dark_text_on("#CCBB44"));
        assert!(!dark_text_on("#0072B2"));
        assert!(!dark_text_on("#AA3377"));
        assert!(!dark_text_on("#000000"));
        assert!(dark_text_on("#ffffff"));
        assert!(dark_text_on("oklch(0.7 0.13 15.0)"));
        assert!(dark_text_on("var(--x)"));
    }

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

    /// sRGB `#RRGGBB` to linear RGB.
    fn linear(hex: &str) -> [f64; 3] {
        let v = |i: usize| u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap() as f64;
        [0, 1, 2].map(|i| {
            let c = v(i) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        })
    }

    /// Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
    const PROTAN: [[f64; 3]; 3] = [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ];
    const DEUTAN: [[f64; 3]; 3] = [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ];
    const TRITAN: [[f64; 3]; 3] = [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ];

    fn simulate(rgb: [f64; 3], m: Option<&[[f64; 3]; 3]>) -> [f64; 3] {
        match m {
            None => rgb,
            Some(m) => [0, 1, 2]
                .map(|i| (m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2]).clamp(0.0, 1.0)),
        }
    }

    /// Linear RGB to CIELAB (D65).
    fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883;
        let f = |t: f64| {
            if t > 216.0 / 24389.0 {
                t.cbrt()
            } else {
                (24389.0 / 27.0 * t + 16.0) / 116.0
            }
        };
        let (fx, fy, fz) = (f(x), f(y), f(z));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }

    /// CIEDE2000 (Sharma, Wu and Dalal's formulation).
    fn de2000([l1, a1, b1]: [f64; 3], [l2, a2, b2]: [f64; 3]) -> f64 {
        let (c1, c2) = (a1.hypot(b1), a2.hypot(b2));
        let cb7 = ((c1 + c2) / 2.0).powi(7);
        let g = 0.5 * (1.0 - (cb7 / (cb7 + 25f64.powi(7))).sqrt());
        let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
        let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
        let hue = |b: f64, a: f64| b.atan2(a).to_degrees().rem_euclid(360.0);
        let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
        let dh = if c1p * c2p == 0.0 {
            0.0
        } else if (h2p - h1p).abs() <= 180.0 {
            h2p - h1p
        } else if h2p - h1p > 180.0 {
            h2p - h1p - 360.0
        } else {
            h2p - h1p + 360.0
        };
        let d_hp = 2.0 * (c1p * c2p).sqrt() * (dh / 2.0).to_radians().sin();
        let (lbp, cbp) = ((l1 + l2) / 2.0, (c1p + c2p) / 2.0);
        let hbp = if c1p * c2p == 0.0 {
            h1p + h2p
        } else if (h1p - h2p).abs() <= 180.0 {
            (h1p + h2p) / 2.0
        } else if h1p + h2p < 360.0 {
            (h1p + h2p + 360.0) / 2.0
        } else {
            (h1p + h2p - 360.0) / 2.0
        };
        let cos = |d: f64| d.to_radians().cos();
        let t = 1.0 - 0.17 * cos(hbp - 30.0) + 0.24 * cos(2.0 * hbp) + 0.32 * cos(3.0 * hbp + 6.0)
            - 0.20 * cos(4.0 * hbp - 63.0);
        let dth = 30.0 * (-((hbp - 275.0) / 25.0).powi(2)).exp();
        let rc = 2.0 * (cbp.powi(7) / (cbp.powi(7) + 25f64.powi(7))).sqrt();
        let sl = 1.0 + 0.015 * (lbp - 50.0).powi(2) / (20.0 + (lbp - 50.0).powi(2)).sqrt();
        let sc = 1.0 + 0.045 * cbp;
        let sh = 1.0 + 0.015 * cbp * t;
        let rt = -(2.0 * dth).to_radians().sin() * rc;
        let (dl, dc, dhh) = ((l2 - l1) / sl, (c2p - c1p) / sc, d_hp / sh);
        (dl * dl + dc * dc + dhh * dhh + rt * dc * dhh).sqrt()
    }

    /// The smallest CIEDE2000 difference between `a` and `b` for normal vision and the three
    /// simulated dichromacies.
    fn min_delta(a: &str, b: &str) -> f64 {
        [None, Some(&PROTAN), Some(&DEUTAN), Some(&TRITAN)]
            .into_iter()
            .map(|m| de2000(lab(simulate(linear(a), m)), lab(simulate(linear(b), m))))
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn the_first_eight_stay_apart_for_colour_blind_readers_in_both_schemes() {
        // The metric itself, on Sharma, Wu and Dalal's published test pair 1.
        let d = de2000([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485]);
        assert!((d - 2.0425).abs() < 1e-3, "{d}");
        let mut smallest = f64::INFINITY;
        for (i, a) in FIRST_EIGHT.iter().enumerate() {
            for b in &FIRST_EIGHT[i + 1..] {
                smallest = smallest.min(min_delta(a, b));
            }
            // Apart from the unowned slots' colour and the card, in the light and dark schemes.
            for ground in [UNOWNED, UNOWNED_DARK, "#ffffff", "#201f1c"] {
                assert!(min_delta(a, ground) > 12.0, "{a} against {ground}");
            }
        }
        assert!(smallest > 12.0, "smallest difference {smallest:.1}");
        // The palette it replaced: Okabe–Ito's reddish purple and grey under deuteranopia.
        assert!(min_delta("#CC79A7", "#8C8C8C") < 8.0);
    }

    #[test]
    fn first_masters_use_the_first_eight_and_the_rest_are_distinct() {
        assert_eq!(master_colour(0, 3), "#66CCEE");
        let n = 1000;
        let colours: std::collections::HashSet<String> =
            (0..n).map(|i| master_colour(i, n)).collect();
        assert_eq!(colours.len(), n);
    }
}
