//! The cluster as redis-cli and the cluster commands see it: a real cluster's `CLUSTER NODES` /
//! `SHARDS` / `SLOTS` output read in and `CLUSTER NODES` written out, and the topology
//! operations as redis-cli 7.0 performs them (reshard, rebalance, del-node, failover), with the
//! redis-cli command lines that would perform a set of moves.
//!
//! Nothing here holds prose: errors are data the page words.

pub mod cli_commands;
pub mod export;
pub mod failover;
pub mod import;
pub mod lab;
pub mod rebalance;
pub mod reshard;
pub mod topology;
