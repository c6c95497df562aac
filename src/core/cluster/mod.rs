//! A cluster's shape: which master owns each slot, its nodes and replicas, how redis-cli creates,
//! reshards and rebalances it, and CLUSTER NODES / SHARDS / SLOTS text in and out.

pub mod topology;
