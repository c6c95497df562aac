//! Pictures for slides: the slot map and the sequence diagram as standalone SVG, or PNG.
//!
//! The map's SVG is written here from the [`SlotMap`] (one rectangle per run per row, as the
//! canvas paints it, and a legend). The sequence diagram's is the live `<svg>` serialized, with
//! the page's `.seq` rules copied in and their colours resolved, so it looks the same outside
//! the page, and cut off below the last arrow drawn. PNG is that SVG drawn on a canvas at twice the size. Downloads are `blob:` links
//! to a file made in the page: nothing is sent anywhere.

use crate::core::{SlotMap, N_SLOTS};
use crate::ui::components::slot_map::{row_segments, COLS};
use crate::ui::messages::{fill, Messages};
use crate::ui::palette;
use core::fmt::Write;

/// Side of one slot in the exported map, in SVG units.
const CELL: u32 = 6;
/// The most masters the legend lists; the rest are counted.
pub const LEGEND_ROWS: usize = 32;

/// Escapes text for XML content and attribute values (node names come from pasted output).
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no place for other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The slot map as a standalone SVG: a title, the 128 × 128 grid (slot 0 top left) and a
/// legend of masters with their slot counts. Returns the SVG and its width and height.
pub fn slot_map_svg(
    map: &SlotMap,
    colours: &[String],
    dark: bool,
    t: &Messages,
) -> (String, u32, u32) {
    let grid = u32::from(COLS) * CELL;
    let (pad, head, legend_w) = (24u32, 44u32, 360u32);
    let masters = map.masters();
    let rows = masters.len().min(LEGEND_ROWS) + 2;
    let height = (head + grid + pad).max(head + rows as u32 * 22 + pad);
    let width = pad + grid + pad + legend_w;
    let (paper, ink, muted) = if dark {
        ("#201f1c", "#eeeae2", "#a9a397")
    } else {
        ("#ffffff", "#1d1c19", "#5f5b53")
    };
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans CJK SC', sans-serif">"#
    );
    let _ = write!(
        s,
        r#"<rect width="{width}" height="{height}" fill="{paper}"/><text x="{pad}" y="30" font-size="18" font-weight="600" fill="{ink}">{}</text>"#,
        xml_escape(t.map_title)
    );
    let _ = write!(s, r#"<g transform="translate({pad} {head})">"#);
    for run in map.runs() {
        let colour = palette::owner_colour(run.owner, colours, dark);
        let colour = xml_escape(colour);
        for (row, col, len) in row_segments(run.range.first, run.range.last) {
            let _ = write!(
                s,
                r#"<rect x="{}" y="{}" width="{}" height="{CELL}" fill="{colour}" data-first="{}"/>"#,
                u32::from(col) * CELL,
                u32::from(row) * CELL,
                u32::from(len) * CELL,
                u32::from(row) * u32::from(COLS) + u32::from(col),
            );
        }
    }
    s.push_str("</g>");
    let lx = pad + grid + pad;
    let _ = write!(
        s,
        r#"<g transform="translate({lx} {head})" font-size="13" fill="{ink}">"#
    );
    let counts = map.slot_counts();
    let count_x = legend_w - pad;
    for (i, m) in masters.iter().take(LEGEND_ROWS).enumerate() {
        let y = i as u32 * 22;
        let colour = xml_escape(palette::owner_colour(Some(i), colours, dark));
        let count = counts.get(i).copied().unwrap_or(0);
        let pct = format!("{:.1}", count as f64 * 100.0 / N_SLOTS as f64);
        let _ = write!(
            s,
            r#"<rect x="0" y="{y}" width="14" height="14" rx="3" fill="{colour}"/><text x="22" y="{}" font-family="ui-monospace, Menlo, Consolas, monospace">{}</text><text x="{count_x}" y="{}" fill="{muted}" text-anchor="end">{}</text>"#,
            y + 12,
            xml_escape(&m.addr),
            y + 12,
            xml_escape(&fill(t.legend_slots, &[&count, &pct])),
        );
    }
    let more = masters.len().saturating_sub(LEGEND_ROWS);
    let mut y = masters.len().min(LEGEND_ROWS) as u32 * 22;
    if more > 0 {
        let _ = write!(
            s,
            r#"<text x="0" y="{}" fill="{muted}">{}</text>"#,
            y + 12,
            xml_escape(&fill(t.export_more_masters, &[&more]))
        );
        y += 22;
    }
    let uncovered = map
        .runs()
        .filter(|r| r.owner.is_none())
        .map(|r| r.range.len())
        .sum::<usize>();
    if uncovered > 0 {
        let _ = write!(
            s,
            r#"<text x="0" y="{}" fill="{}">{}</text>"#,
            y + 12,
            palette::uncovered(dark),
            xml_escape(&fill(t.legend_unowned, &[&uncovered]))
        );
    }
    s.push_str("</g></svg>");
    (s, width, height)
}

/// Rewrites `var(--name)` and `var(--name, fallback)` in CSS text with `lookup(name)` (or
/// the fallback), so rules copied out of the page need none of its custom properties.
pub fn resolve_vars(css: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(at) = rest.find("var(") {
        out.push_str(&rest[..at]);
        let inner_start = at + 4;
        // Find the matching parenthesis (fallbacks may hold parentheses of their own).
        let mut depth = 1usize;
        let mut end = None;
        for (i, c) in rest[inner_start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(inner_start + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            out.push_str(&rest[at..]);
            return out;
        };
        let inner = &rest[inner_start..end];
        let (name, fallback) = match inner.split_once(',') {
            Some((n, f)) => (n.trim(), Some(f.trim())),
            None => (inner.trim(), None),
        };
        let value = lookup(name)
            .filter(|v| !v.trim().is_empty())
            .map(|v| v.trim().to_string())
            .or_else(|| fallback.map(|f| resolve_vars(f, lookup)))
            .unwrap_or_default();
        out.push_str(&value);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use super::resolve_vars;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::{
        Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement, Url,
    };

    /// Offers `data` as a download named `filename`.
    pub fn download_blob(blob: &Blob, filename: &str) {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(url) = Url::create_object_url_with_blob(blob) else {
            return;
        };
        if let Some(a) = doc
            .create_element("a")
            .ok()
            .and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok())
        {
            a.set_href(&url);
            a.set_download(filename);
            a.click();
        }
        // The click has started the download; the URL may go once this task ends.
        let revoke = Closure::once_into_js(move || {
            let _ = Url::revoke_object_url(&url);
        });
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                revoke.unchecked_ref(),
                10_000,
            );
        }
    }

    fn svg_blob(svg: &str) -> Option<Blob> {
        let parts = js_sys::Array::of1(&JsValue::from_str(svg));
        let opts = BlobPropertyBag::new();
        opts.set_type("image/svg+xml;charset=utf-8");
        Blob::new_with_str_sequence_and_options(&parts, &opts).ok()
    }

    /// Offers an SVG document as a download.
    pub fn download_svg(svg: &str, filename: &str) {
        if let Some(blob) = svg_blob(svg) {
            download_blob(&blob, filename);
        }
    }

    /// Draws the SVG on a canvas at `scale` × its size and offers the PNG as a download.
    pub fn download_png(svg: &str, width: u32, height: u32, scale: u32, filename: &str) {
        let Some(blob) = svg_blob(svg) else { return };
        let Ok(url) = Url::create_object_url_with_blob(&blob) else {
            return;
        };
        let Ok(img) = HtmlImageElement::new() else {
            return;
        };
        let filename = filename.to_string();
        let onload = {
            let (img, url) = (img.clone(), url.clone());
            Closure::once_into_js(move || {
                let _ = Url::revoke_object_url(&url);
                let Some(canvas) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.create_element("canvas").ok())
                    .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
                else {
                    return;
                };
                canvas.set_width(width * scale);
                canvas.set_height(height * scale);
                let Some(ctx) = canvas
                    .get_context("2d")
                    .ok()
                    .flatten()
                    .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
                else {
                    return;
                };
                let _ = ctx.draw_image_with_html_image_element_and_dw_and_dh(
                    &img,
                    0.0,
                    0.0,
                    f64::from(width * scale),
                    f64::from(height * scale),
                );
                let done = Closure::once_into_js(move |png: Option<Blob>| {
                    if let Some(png) = png {
                        download_blob(&png, &filename);
                    }
                });
                let _ = canvas.to_blob(done.unchecked_ref());
            })
        };
        img.set_onload(Some(onload.unchecked_ref()));
        img.set_src(&url);
    }

    /// The `<svg>` element `svg` as a standalone document: the page's rules for classes
    /// starting with `prefix` copied in with their custom properties resolved (animations left
    /// out, so the picture shows the end state), a background, and a size. Returns the text
    /// and its width and height.
    pub fn standalone_svg(svg: &web_sys::Element, prefix: &str) -> Option<(String, u32, u32)> {
        let window = web_sys::window()?;
        let doc = window.document()?;
        let root = doc.document_element()?;
        let computed = window.get_computed_style(&root).ok()??;
        let lookup = |name: &str| computed.get_property_value(name).ok();
        let mut css = String::new();
        let sheets = doc.style_sheets();
        for i in 0..sheets.length() {
            let Some(sheet) = sheets
                .item(i)
                .and_then(|s| s.dyn_into::<web_sys::CssStyleSheet>().ok())
            else {
                continue;
            };
            let Ok(rules) = sheet.css_rules() else {
                continue;
            };
            for j in 0..rules.length() {
                let Some(rule) = rules
                    .item(j)
                    .and_then(|r| r.dyn_into::<web_sys::CssStyleRule>().ok())
                else {
                    continue;
                };
                let selector = rule.selector_text();
                if !selector.contains(&format!(".{prefix}")) || selector.contains("--current") {
                    continue;
                }
                let text = rule.css_text();
                if text.contains("animation") {
                    continue;
                }
                css.push_str(&resolve_vars(&text, &lookup));
                css.push('\n');
            }
        }
        let view_box = svg.get_attribute("viewBox")?;
        let dims: Vec<f64> = view_box
            .split([' ', ','])
            .filter_map(|v| v.parse().ok())
            .collect();
        let (w, h) = match dims.as_slice() {
            [_, _, w, h] if *w > 0.0 && *h > 0.0 => (w.ceil() as u32, h.ceil() as u32),
            _ => return None,
        };
        // A picture ends where the drawing does (the sequence diagram keeps room below for the
        // arrows still to come): a copy of the element with a shorter viewBox.
        let drawn = svg
            .get_attribute("data-drawn-height")
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|&d| d > 0 && d < h);
        let copy;
        let (svg, h) = match drawn {
            Some(d) => {
                copy = svg
                    .clone_node_with_deep(true)
                    .ok()?
                    .dyn_into::<web_sys::Element>()
                    .ok()?;
                copy.set_attribute("viewBox", &format!("0 0 {w} {d}"))
                    .ok()?;
                (&copy, d)
            }
            None => (svg, h),
        };
        let serializer = web_sys::XmlSerializer::new().ok()?;
        // The travelling arrow's `pathLength` serves its animation only; without it the
        // picture draws that arrow like the others.
        let text = serializer
            .serialize_to_string(svg)
            .ok()?
            .replace(r#" pathLength="100""#, "");
        let open_end = text.find('>')?;
        let surface = lookup("--surface").unwrap_or_default();
        let surface = if surface.trim().is_empty() {
            "#ffffff".to_string()
        } else {
            surface.trim().to_string()
        };
        let font = lookup("--font-mono").unwrap_or_default();
        let mut out = String::with_capacity(text.len() + css.len() + 256);
        // The live element's own size attributes (if any) give way to the picture's.
        out.push_str(&text[..open_end]);
        out.push_str(&format!(r#" width="{w}" height="{h}""#));
        out.push('>');
        out.push_str("<style>");
        // In XML, a style element's text may hold no raw `<` or `&`.
        out.push_str(&css.replace('&', "&amp;").replace('<', "&lt;"));
        if !font.trim().is_empty() {
            out.push_str(&format!("text{{font-family:{}}}", font.trim()));
        }
        out.push_str("</style>");
        out.push_str(&format!(
            r#"<rect x="0" y="0" width="100%" height="100%" fill="{}"/>"#,
            super::xml_escape(&surface)
        ));
        out.push_str(&text[open_end + 1..]);
        Some((out, w, h))
    }
}

#[cfg(target_arch = "wasm32")]
pub use browser::{download_png, download_svg, standalone_svg};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::messages::EN;

    /// `(first slot, cells, fill)` of every grid rectangle.
    fn grid_rects(svg: &str) -> Vec<(usize, usize, String)> {
        let attr = |tag: &str, name: &str| -> Option<String> {
            let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            Some(tag[at..at + tag[at..].find('"')?].to_string())
        };
        svg.split("<rect")
            .skip(1)
            .filter_map(|tag| {
                let tag = &tag[..tag.find("/>")?];
                let first = attr(tag, "data-first")?.parse().ok()?;
                let width: usize = attr(tag, "width")?.parse().ok()?;
                Some((first, width / CELL as usize, attr(tag, "fill")?))
            })
            .collect()
    }

    #[test]
    fn the_map_svg_paints_every_slot_once_in_its_owners_colour() {
        let map = SlotMap::fixture_cluster();
        let colours: Vec<String> = (0..3).map(|i| palette::master_colour(i, 3)).collect();
        let (svg, w, h) = slot_map_svg(&map, &colours, false, &EN);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(w > 768 && h >= 768 + 44);
        let rects = grid_rects(&svg);
        let mut painted = vec![0u8; N_SLOTS];
        for (first, cells, fill) in &rects {
            for (slot, n) in painted.iter_mut().enumerate().skip(*first).take(*cells) {
                *n += 1;
                let owner = map
                    .owner(slot as u16)
                    .expect("the fixtures' cluster covers every slot");
                assert_eq!(fill, &colours[owner], "slot {slot}");
            }
        }
        assert!(painted.iter().all(|&n| n == 1));
        // Three ranges cut at row ends: 5461 slots from 0 fill 42 rows and 85 cells.
        assert_eq!(rects.len(), 128 + 2);
        for addr in ["127.0.0.1:7000", "127.0.0.1:7001", "127.0.0.1:7002"] {
            assert!(svg.contains(&format!(">{addr}</text>")), "{addr}");
        }
        assert!(svg.contains("5461 slots · 33.3%"));
    }

    #[test]
    fn the_map_svg_escapes_names_and_counts_what_the_legend_leaves_out() {
        let mut map = SlotMap::created(40, "127.0.0.1", 7000).expect("40 masters");
        map.add_master(crate::core::Master::new("<b>&\"x\"</b>:1", "f".repeat(40)))
            .expect("a new id");
        let colours: Vec<String> = (0..41).map(|i| palette::master_colour(i, 41)).collect();
        let (svg, _, _) = slot_map_svg(&map, &colours, true, &EN);
        assert!(svg.contains("and 9 more masters"));
        let mut small = SlotMap::fixture_cluster();
        small
            .add_master(crate::core::Master::new("<b>&\"x\"</b>:1", "f".repeat(40)))
            .expect("a new id");
        let (svg, _, _) = slot_map_svg(&small, &colours, true, &EN);
        assert!(!svg.contains("<b>"));
        assert!(svg.contains(">&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;:1</text>"));
    }

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            xml_escape(r#"<a href="x">&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;"
        );
        assert_eq!(xml_escape("a\u{1}b\tc"), "a\u{FFFD}b\tc");
    }

    #[test]
    fn resolves_custom_properties_with_fallbacks() {
        let lookup = |n: &str| match n {
            "--ink" => Some(" #111 ".to_string()),
            "--empty" => Some(String::new()),
            _ => None,
        };
        assert_eq!(
            resolve_vars(
                ".a { fill: var(--ink); stroke: var(--nope, var(--ink)); }",
                &lookup
            ),
            ".a { fill: #111; stroke: #111; }"
        );
        assert_eq!(
            resolve_vars("x: var(--empty, rgb(1, 2, 3))", &lookup),
            "x: rgb(1, 2, 3)"
        );
        assert_eq!(resolve_vars("x: var(--nope)", &lookup), "x: ");
        assert_eq!(resolve_vars("x: var(--ink", &lookup), "x: var(--ink");
    }
}
