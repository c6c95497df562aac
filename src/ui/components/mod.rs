//! The page's components, one per file; each reads props and dispatches, none computes a slot.

pub mod bus;
pub mod client_rules;
pub mod client_table;
pub mod cluster_picker;
pub mod compare_view;
pub mod export_buttons;
pub mod free_mode;
pub mod hotspot;
pub mod key_input;
pub mod key_readout;
pub mod lang_switch;
pub mod map_ranges;
pub mod node_list;
pub mod pipeline;
pub mod planner;
pub mod redirections;
pub mod reshard_trail;
pub mod restore_notice;
pub mod section_nav;
pub mod sequence;
pub mod share_button;
pub mod slot_map;
pub mod tag_generator;
pub mod topology_lab;
pub mod tour;
pub mod window;
