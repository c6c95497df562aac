//! The error replies of the data commands (strings, keyspace, expiry, hashes, lists, bitmaps,
//! WATCH) as data; `Display` is Redis 7.0.15's exact text. Carried by
//! [`ErrorReply::Data`](crate::core::server::reply::ErrorReply::Data).

use core::fmt;

/// An error a data command replies with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataError {
    /// `ERR wrong number of arguments for '<command>' command` (checked by the command itself:
    /// MSET's odd pairs, HSET's, …).
    WrongArgs {
        /// Redis's name of the command.
        command: String,
    },
    /// `ERR invalid expire time in '<command>' command`.
    InvalidExpire {
        /// Redis's name of the command.
        command: String,
    },
    /// `ERR increment would produce NaN or Infinity`.
    NanOrInfinity,
    /// `ERR string exceeds maximum allowed size (proto-max-bulk-len)`.
    StringTooLong,
    /// `ERR offset is out of range` (SETRANGE).
    OffsetOutOfRange,
    /// `ERR The specified keys must contain string values` (LCS).
    LcsNotStrings,
    /// `ERR If you want both the length and indexes, please just use IDX.`
    LcsLenAndIdx,
    /// `ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len`.
    LcsTooBig,
    /// `ERR NX and XX, GT or LT options at the same time are not compatible`.
    ExpireNxAndOthers,
    /// `ERR GT and LT options at the same time are not compatible`.
    ExpireGtAndLt,
    /// `ERR Unsupported option <opt>` (EXPIRE's options).
    UnsupportedOption {
        /// The option as typed.
        option: String,
    },
    /// `ERR Copying to another database is not allowed in cluster mode`.
    CopyToOtherDb,
    /// `ERR An LFU maxmemory policy is not selected, …` (OBJECT FREQ under the default policy).
    NoLfuPolicy,
    /// `ERR unknown subcommand '<sub>'. Try OBJECT HELP.` and likewise.
    UnknownSubcommand {
        /// The subcommand as typed.
        sub: String,
        /// The container, upper case (`OBJECT`).
        container: &'static str,
    },
    /// `ERR index out of range`.
    IndexOutOfRange,
    /// `ERR hash value is not an integer`.
    HashNotInteger,
    /// `ERR hash value is not a float`.
    HashNotFloat,
    /// `ERR value is out of range, must be positive`.
    MustBePositive,
    /// `ERR value is out of range` (HRANDFIELD's count).
    ValueOutOfRange,
    /// `ERR timeout is not a float or out of range`.
    TimeoutNotFloat,
    /// `ERR timeout is negative`.
    TimeoutNegative,
    /// `ERR numkeys should be greater than 0`.
    NumkeysZero,
    /// `ERR count should be greater than 0`.
    CountZero,
    /// `ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list`.
    RankZero,
    /// `ERR bit offset is not an integer or out of range`.
    BitOffset,
    /// `ERR bit is not an integer or out of range`.
    BitValue,
    /// `ERR The bit argument must be 1 or 0.`
    BitArg,
    /// `ERR BITOP NOT must be called with a single source key.`
    BitopNot,
    /// `ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.`
    BitfieldType,
    /// `ERR Invalid OVERFLOW type specified`.
    BitfieldOverflow,
    /// `ERR BITFIELD_RO only supports the GET subcommand`.
    BitfieldRo,
    /// `ERR WATCH inside MULTI is not allowed`.
    WatchInMulti,
    /// `ERR min or max is not a float` and other texts kept verbatim.
    Text(&'static str),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = |f: &mut fmt::Formatter<'_>, s: &str| f.write_str(s);
        match self {
            DataError::WrongArgs { command } => {
                write!(f, "ERR wrong number of arguments for '{command}' command")
            }
            DataError::InvalidExpire { command } => {
                write!(f, "ERR invalid expire time in '{command}' command")
            }
            DataError::NanOrInfinity => t(f, "ERR increment would produce NaN or Infinity"),
            DataError::StringTooLong => {
                t(f, "ERR string exceeds maximum allowed size (proto-max-bulk-len)")
            }
            DataError::OffsetOutOfRange => t(f, "ERR offset is out of range"),
            DataError::LcsNotStrings => t(f, "ERR The specified keys must contain string values"),
            DataError::LcsLenAndIdx => t(
                f,
                "ERR If you want both the length and indexes, please just use IDX.",
            ),
            DataError::LcsTooBig => t(
                f,
                "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len",
            ),
            DataError::ExpireNxAndOthers => t(
                f,
                "ERR NX and XX, GT or LT options at the same time are not compatible",
            ),
            DataError::ExpireGtAndLt => {
                t(f, "ERR GT and LT options at the same time are not compatible")
            }
            DataError::UnsupportedOption { option } => write!(f, "ERR Unsupported option {option}"),
            DataError::CopyToOtherDb => t(
                f,
                "ERR Copying to another database is not allowed in cluster mode",
            ),
            DataError::NoLfuPolicy => t(
                f,
                "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.",
            ),
            DataError::UnknownSubcommand { sub, container } => {
                write!(f, "ERR unknown subcommand '{sub}'. Try {container} HELP.")
            }
            DataError::IndexOutOfRange => t(f, "ERR index out of range"),
            DataError::HashNotInteger => t(f, "ERR hash value is not an integer"),
            DataError::HashNotFloat => t(f, "ERR hash value is not a float"),
            DataError::MustBePositive => t(f, "ERR value is out of range, must be positive"),
            DataError::ValueOutOfRange => t(f, "ERR value is out of range"),
            DataError::TimeoutNotFloat => t(f, "ERR timeout is not a float or out of range"),
            DataError::TimeoutNegative => t(f, "ERR timeout is negative"),
            DataError::NumkeysZero => t(f, "ERR numkeys should be greater than 0"),
            DataError::CountZero => t(f, "ERR count should be greater than 0"),
            DataError::RankZero => t(
                f,
                "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list",
            ),
            DataError::BitOffset => t(f, "ERR bit offset is not an integer or out of range"),
            DataError::BitValue => t(f, "ERR bit is not an integer or out of range"),
            DataError::BitArg => t(f, "ERR The bit argument must be 1 or 0."),
            DataError::BitopNot => t(f, "ERR BITOP NOT must be called with a single source key."),
            DataError::BitfieldType => t(
                f,
                "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.",
            ),
            DataError::BitfieldOverflow => t(f, "ERR Invalid OVERFLOW type specified"),
            DataError::BitfieldRo => t(f, "ERR BITFIELD_RO only supports the GET subcommand"),
            DataError::WatchInMulti => t(f, "ERR WATCH inside MULTI is not allowed"),
            DataError::Text(s) => t(f, s),
        }
    }
}
