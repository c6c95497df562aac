//! Entry point of the page: mounts the Yew app on `<body>`, in place of the copy prerendered
//! at build time (`ui::prerender`).

fn main() {
    slotscope::ui::prerender::mount();
}
