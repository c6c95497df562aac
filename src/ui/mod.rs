//! The Yew page (feature `web`): state, components and the text they show.
//!
//! Everything here reads results from [`crate::core`]; nothing here computes a slot.

pub mod after_paint;
pub mod app;
pub mod batch_read;
pub mod bus_notes;
pub mod bus_words;
pub mod clipboard;
pub mod components;
pub mod export;
pub mod forms;
pub mod key_store;
pub mod lang;
pub mod lang_warm;
pub mod late_lang;
pub mod localize;
pub mod messages;
pub mod messages_zh;
pub mod narration;
pub mod palette;
pub mod planner_state;
pub mod player;
pub mod prerender;
pub mod redirect_view;
pub mod reply_words;
pub mod sections;
pub mod share;
pub mod state;
pub mod styled;
pub mod viewport;

pub use app::App;
