//! The window's measures the page's placing code shares: its height, and where the sticky
//! section bar ends (the tour's panel, the reshard's scroll and the diagram's follow all keep
//! under it).

/// The window's inner height in CSS pixels (0 where it cannot be read).
pub fn height(win: &web_sys::Window) -> f64 {
    win.inner_height()
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0)
}

/// The bottom of the sticky section bar in the window (0 without one): its height differs on a
/// phone, where it has two rows, and between languages.
pub fn bar_bottom(doc: &web_sys::Document) -> f64 {
    doc.query_selector(".wayfinder")
        .ok()
        .flatten()
        .map_or(0.0, |bar| bar.get_bounding_client_rect().bottom().max(0.0))
}
