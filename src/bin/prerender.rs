//! Build-time prerender (feature `ssr`): prints the page's first screen as HTML, rendered from
//! the same Yew `App` the browser mounts, for `scripts/prerender.py` to put into `dist/index.html`.

fn main() {
    print!("{}", slotscope::ui::prerender::render());
}
