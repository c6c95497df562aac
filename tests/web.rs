//! Browser tests (wasm-bindgen-test in headless Chromium): mount the app, type, read the DOM.
#![cfg(target_arch = "wasm32")]

use slotscope::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Event, EventInit, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

async fn mount() -> web_sys::Element {
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    root
}

fn by_testid(root: &web_sys::Element, id: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-testid={id}]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element with data-testid={id}"))
}

fn text(root: &web_sys::Element, id: &str) -> String {
    by_testid(root, id).text_content().unwrap_or_default()
}

/// Resolves in a task after the next frame (a timeout set from an animation frame callback).
async fn after_next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let later = wasm_bindgen::closure::Closure::once_into_js(move || {
            let _ = web_sys::window()
                .unwrap()
                .set_timeout_with_callback_and_timeout_and_arguments_0(resolve.unchecked_ref(), 0);
        });
        web_sys::window()
            .unwrap()
            .request_animation_frame(later.unchecked_ref())
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

async fn type_key(root: &web_sys::Element, key: &str) {
    let input: HtmlInputElement = by_testid(root, "key-input").dyn_into().unwrap();
    input.set_value(key);
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict("input", &init).unwrap();
    input.dispatch_event(&event).unwrap();
    // The page takes an edit into the key a task after the frame that paints it
    // (`KeyStore::edited`); the field carries `data-pending` until then.
    for _ in 0..100 {
        if !input.has_attribute("data-pending") {
            break;
        }
        after_next_frame().await;
    }
    assert!(
        !input.has_attribute("data-pending"),
        "the edit was never taken"
    );
    yew::scheduler::flush().await;
}

#[wasm_bindgen_test]
async fn typing_a_tagged_key_shows_its_slot_and_master() {
    let root = mount().await;
    type_key(&root, "foo").await;
    assert_eq!(text(&root, "slot"), "12182");
    assert_eq!(text(&root, "node"), "127.0.0.1:7002");
    type_key(&root, "{user1}:profile").await;
    assert_eq!(text(&root, "slot"), "8106");
    assert_eq!(text(&root, "node"), "127.0.0.1:7001");
    assert_eq!(text(&root, "hashed-part"), "user1");
    assert_eq!(text(&root, "crc16"), "0xDFAA");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_malformed_escape_shows_an_error_and_keeps_the_result() {
    let root = mount().await;
    type_key(&root, "foo").await;
    type_key(&root, r"foo\xZ").await;
    assert!(text(&root, "key-error").contains("Column 4"));
    assert_eq!(text(&root, "slot"), "12182");
    type_key(&root, r"\xff\x00{a}").await;
    assert!(root
        .query_selector("[data-testid=key-error]")
        .unwrap()
        .is_none());
    assert_eq!(text(&root, "slot"), "15495");
    assert_eq!(text(&root, "hashed-part"), "a");
    root.remove();
}

#[wasm_bindgen_test]
async fn the_slot_map_is_a_canvas() {
    let root = mount().await;
    let map = by_testid(&root, "slot-map");
    assert_eq!(map.tag_name().to_lowercase(), "canvas");
    root.remove();
}

/// Regression: an error appearing under the field used to rebuild the <input> (Yew matched the
/// siblings from the end), so focus was lost mid-word and the next keystrokes went nowhere.
#[wasm_bindgen_test]
async fn the_key_field_survives_an_error_appearing() {
    let root = mount().await;
    let before = by_testid(&root, "key-input");
    type_key(&root, r"ab\").await;
    assert!(text(&root, "key-error").contains("Column 3"));
    let after = by_testid(&root, "key-input");
    assert!(before.is_same_node(Some(&after)), "the input was replaced");
    type_key(&root, "ab").await;
    assert!(before.is_same_node(Some(&by_testid(&root, "key-input"))));
    root.remove();
}
