//! The build-time prerender (feature `ssr`, `ui::prerender::render`): the first screen it
//! writes into dist/index.html answers the default key as Redis 7.0.15 does.

mod common;

/// The text of the first element carrying `data-testid="{id}"`.
fn test_hook<'a>(html: &'a str, id: &str) -> &'a str {
    let at = html
        .find(&format!("data-testid=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id} in the prerendered page"));
    let rest = &html[at..];
    let start = rest.find('>').expect("tag end") + 1;
    let end = rest[start..].find('<').expect("text end");
    &rest[start..start + end]
}

#[test]
fn the_prerendered_slot_of_the_default_key_is_redis_s() {
    let html = slotscope::ui::prerender::render();
    assert!(html.starts_with("<div class=\"page\">"), "{}", &html[..80]);
    // The key field holds the default key (escaped as an HTML attribute).
    assert!(html.contains(r#"value="{user1}:profile" id="key-field""#));
    let slot: u16 = test_hook(&html, "slot").parse().expect("a number");
    assert_eq!(slot, common::redis_slot("{user1}:profile"));
    assert_eq!(test_hook(&html, "hashed-part"), "user1");
    // Nothing the Content-Security-Policy refuses (scripts/prerender.py checks this too).
    for refused in ["<script", " style=", " onclick=", " oninput="] {
        assert!(!html.contains(refused), "{refused} in the prerendered page");
    }
}

#[test]
fn the_prerender_is_the_same_every_time() {
    assert_eq!(
        slotscope::ui::prerender::render(),
        slotscope::ui::prerender::render()
    );
}
