//! Entry point of the page: mounts the Yew app on `<body>`.

fn main() {
    yew::Renderer::<slotscope::ui::App>::new().render();
}
