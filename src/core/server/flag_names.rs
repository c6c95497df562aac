//! The names of Redis 7.0.15's command flags, ACL categories and key spec flags, in the order
//! Redis prints them: bit i of a flag set is name i. Read by `build.rs` (names to bits, from the
//! fixture JSON) and by `command.rs` (bits back to names, for `COMMAND INFO`), so both sides use
//! one list.

/// Command flags, in the order `addReplyFlagsForCommand` prints them.
pub const COMMAND_FLAGS: [&str; 20] = [
    "write",
    "readonly",
    "denyoom",
    "module",
    "admin",
    "pubsub",
    "noscript",
    "blocking",
    "loading",
    "stale",
    "skip_monitor",
    "skip_slowlog",
    "asking",
    "fast",
    "no_auth",
    "no_mandatory_keys",
    "no_async_loading",
    "no_multi",
    "movablekeys",
    "allow_busy",
];

/// ACL categories, in the order of `ACLCommandCategories` (acl.c).
pub const ACL_CATEGORIES: [&str; 21] = [
    "keyspace",
    "read",
    "write",
    "set",
    "sortedset",
    "list",
    "hash",
    "string",
    "bitmap",
    "hyperloglog",
    "geo",
    "stream",
    "pubsub",
    "admin",
    "fast",
    "slow",
    "blocking",
    "dangerous",
    "connection",
    "transaction",
    "scripting",
];

/// Key spec flags, in the order of `addReplyFlagsForKeyArgs`.
pub const KEY_SPEC_FLAGS: [&str; 11] = [
    "RO",
    "RW",
    "OW",
    "RM",
    "access",
    "update",
    "insert",
    "delete",
    "not_key",
    "incomplete",
    "variable_flags",
];
