//! The Redis Cluster bus simulator (the `slotscope-bus` crate, `crates/bus/`, compiled for
//! speed), re-exported whole, plus the page's view of it: [`ClusterView`] turns a node's view
//! into a `SlotMap` and makes the command engine follow the bus.

mod to_cluster;

pub use slotscope_bus::*;
pub use to_cluster::ClusterView;
