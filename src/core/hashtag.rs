//! Which part of a key Redis hashes (the hash tag rule): the kernel crate's, re-exported.

pub use slotscope_kernel::hashtag::*;
