//! The page's components, one per file; each reads props and dispatches, none computes a slot.

pub mod cluster_picker;
pub mod compare_view;
pub mod key_input;
pub mod node_list;
pub mod pipeline;
pub mod slot_map;
pub mod topology_lab;
