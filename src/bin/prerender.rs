//! Build-time prerender (feature `ssr`): prints the page's first screen as HTML, rendered from
//! the same Yew `App` the browser mounts, for `scripts/prerender.py` to put into `dist/index.html`.
//! With a language code (`prerender zh`), the page in that language, for the copy the live
//! page paints unseen before a first switch to it (`src/ui/lang_warm.rs`).

use slotscope::ui::lang::Lang;

fn main() {
    let arg = std::env::args().nth(1);
    let lang = match arg.as_deref().map(Lang::from_code) {
        None => Lang::En,
        Some(Some(lang)) => lang,
        Some(None) => {
            eprintln!(
                "prerender: no language {:?} (en or zh)",
                arg.unwrap_or_default()
            );
            std::process::exit(2);
        }
    };
    print!("{}", slotscope::ui::prerender::render_in(lang));
}
