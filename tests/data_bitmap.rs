//! Bitmaps (SETBIT GETBIT BITCOUNT BITPOS with BYTE/BIT ranges, BITOP, BITFIELD and BITFIELD_RO with OVERFLOW and # offsets) on the typed key space.
//! Every expected reply below is the RESP that a real redis-server 7.0.15 sent for the same
//! command sequence (recorded with a small socket client against a fresh server, then pasted
//! in); the page's key space must answer byte for byte the same.

mod common_data {
    use slotscope::core::server::data::Db;

    /// The simulated clock the cases run at (the real server's clock only mattered for TTLs,
    /// which the cases read back at once).
    const NOW: i64 = 1_767_225_600_000;

    /// Runs each case on one fresh key space and compares its RESP with the recorded one.
    pub fn check(cases: &[(&[&[u8]], &[u8])]) {
        let mut db = Db::default();
        for (args, want) in cases {
            let args: Vec<Vec<u8>> = args.iter().map(|a| a.to_vec()).collect();
            let name = String::from_utf8_lossy(args.first().map_or(&[][..], |a| a)).to_lowercase();
            let got = db
                .exec(NOW, &name, &args)
                .unwrap_or_else(|| panic!("{name} is not run"))
                .to_resp();
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(want),
                "{:?}",
                args.iter()
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect::<Vec<_>>()
            );
        }
    }
}

/// Recorded from redis-server 7.0.15.
const CASES: &[(&[&[u8]], &[u8])] = &[
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"7" as &[u8], b"1" as &[u8]], b":0\r\n"),
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"7" as &[u8], b"1" as &[u8]], b":1\r\n"),
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"7" as &[u8], b"0" as &[u8]], b":1\r\n"),
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"100" as &[u8], b"1" as &[u8]], b":0\r\n"),
        (&[b"GET" as &[u8], b"b" as &[u8]], b"$13\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\r\n"),
        (&[b"GETBIT" as &[u8], b"b" as &[u8], b"100" as &[u8]], b":1\r\n"),
        (&[b"GETBIT" as &[u8], b"b" as &[u8], b"99999" as &[u8]], b":0\r\n"),
        (&[b"GETBIT" as &[u8], b"nokey" as &[u8], b"1" as &[u8]], b":0\r\n"),
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"-1" as &[u8], b"1" as &[u8]], b"-ERR bit offset is not an integer or out of range\r\n"),
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"1" as &[u8], b"2" as &[u8]], b"-ERR bit is not an integer or out of range\r\n"),
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"abc" as &[u8], b"1" as &[u8]], b"-ERR bit offset is not an integer or out of range\r\n"),
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"4294967296" as &[u8], b"1" as &[u8]], b"-ERR bit offset is not an integer or out of range\r\n"),
        (&[b"SETBIT" as &[u8], b"b" as &[u8], b"1" as &[u8], b"x" as &[u8]], b"-ERR bit is not an integer or out of range\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"b" as &[u8]], b"$3\r\nraw\r\n"),
        (&[b"SET" as &[u8], b"s" as &[u8], b"foobar" as &[u8]], b"+OK\r\n"),
        (&[b"BITCOUNT" as &[u8], b"s" as &[u8]], b":26\r\n"),
        (&[b"BITCOUNT" as &[u8], b"s" as &[u8], b"0" as &[u8], b"0" as &[u8]], b":4\r\n"),
        (&[b"BITCOUNT" as &[u8], b"s" as &[u8], b"1" as &[u8], b"1" as &[u8]], b":6\r\n"),
        (&[b"BITCOUNT" as &[u8], b"s" as &[u8], b"1" as &[u8], b"1" as &[u8], b"BYTE" as &[u8]], b":6\r\n"),
        (&[b"BITCOUNT" as &[u8], b"s" as &[u8], b"5" as &[u8], b"30" as &[u8], b"BIT" as &[u8]], b":17\r\n"),
        (&[b"BITCOUNT" as &[u8], b"s" as &[u8], b"-1" as &[u8], b"-2" as &[u8]], b":0\r\n"),
        (&[b"BITCOUNT" as &[u8], b"s" as &[u8], b"0" as &[u8], b"1" as &[u8], b"FOO" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"BITCOUNT" as &[u8], b"s" as &[u8], b"a" as &[u8], b"1" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"BITCOUNT" as &[u8], b"nokey" as &[u8]], b":0\r\n"),
        (&[b"SET" as &[u8], b"p" as &[u8], b"\xff\xf0\x00" as &[u8]], b"+OK\r\n"),
        (&[b"BITPOS" as &[u8], b"p" as &[u8], b"0" as &[u8]], b":12\r\n"),
        (&[b"BITPOS" as &[u8], b"p" as &[u8], b"1" as &[u8], b"2" as &[u8]], b":-1\r\n"),
        (&[b"BITPOS" as &[u8], b"p" as &[u8], b"0" as &[u8], b"1" as &[u8], b"1" as &[u8]], b":12\r\n"),
        (&[b"BITPOS" as &[u8], b"p" as &[u8], b"1" as &[u8], b"0" as &[u8], b"-1" as &[u8], b"BIT" as &[u8]], b":0\r\n"),
        (&[b"BITPOS" as &[u8], b"p" as &[u8], b"0" as &[u8], b"3" as &[u8], b"10" as &[u8], b"BIT" as &[u8]], b":-1\r\n"),
        (&[b"BITPOS" as &[u8], b"p" as &[u8], b"2" as &[u8]], b"-ERR The bit argument must be 1 or 0.\r\n"),
        (&[b"BITPOS" as &[u8], b"nokey" as &[u8], b"0" as &[u8]], b":0\r\n"),
        (&[b"BITPOS" as &[u8], b"nokey" as &[u8], b"1" as &[u8]], b":-1\r\n"),
        (&[b"SET" as &[u8], b"ones" as &[u8], b"\xff\xff" as &[u8]], b"+OK\r\n"),
        (&[b"BITPOS" as &[u8], b"ones" as &[u8], b"0" as &[u8]], b":16\r\n"),
        (&[b"BITPOS" as &[u8], b"ones" as &[u8], b"0" as &[u8], b"0" as &[u8]], b":16\r\n"),
        (&[b"BITPOS" as &[u8], b"ones" as &[u8], b"0" as &[u8], b"0" as &[u8], b"-1" as &[u8]], b":-1\r\n"),
        (&[b"BITPOS" as &[u8], b"ones" as &[u8], b"0" as &[u8], b"2" as &[u8], b"13" as &[u8], b"BIT" as &[u8]], b":-1\r\n"),
        (&[b"BITPOS" as &[u8], b"ones" as &[u8], b"1" as &[u8], b"7" as &[u8], b"6" as &[u8], b"BIT" as &[u8]], b":-1\r\n"),
        (&[b"SET" as &[u8], b"e" as &[u8], b"" as &[u8]], b"+OK\r\n"),
        (&[b"BITPOS" as &[u8], b"e" as &[u8], b"0" as &[u8]], b":-1\r\n"),
        (&[b"BITPOS" as &[u8], b"e" as &[u8], b"1" as &[u8]], b":-1\r\n"),
        (&[b"SET" as &[u8], b"k1" as &[u8], b"foobar" as &[u8]], b"+OK\r\n"),
        (&[b"SET" as &[u8], b"k2" as &[u8], b"abcdef" as &[u8]], b"+OK\r\n"),
        (&[b"BITOP" as &[u8], b"AND" as &[u8], b"dest" as &[u8], b"k1" as &[u8], b"k2" as &[u8]], b":6\r\n"),
        (&[b"GET" as &[u8], b"dest" as &[u8]], b"$6\r\n`bc`ab\r\n"),
        (&[b"BITOP" as &[u8], b"OR" as &[u8], b"dest" as &[u8], b"k1" as &[u8], b"k2" as &[u8], b"nokey" as &[u8]], b":6\r\n"),
        (&[b"GET" as &[u8], b"dest" as &[u8]], b"$6\r\ngoofev\r\n"),
        (&[b"BITOP" as &[u8], b"XOR" as &[u8], b"dest" as &[u8], b"k1" as &[u8], b"k2" as &[u8]], b":6\r\n"),
        (&[b"GET" as &[u8], b"dest" as &[u8]], b"$6\r\n\x07\r\x0c\x06\x04\x14\r\n"),
        (&[b"BITOP" as &[u8], b"NOT" as &[u8], b"dest" as &[u8], b"k1" as &[u8]], b":6\r\n"),
        (&[b"GET" as &[u8], b"dest" as &[u8]], b"$6\r\n\x99\x90\x90\x9d\x9e\x8d\r\n"),
        (&[b"BITOP" as &[u8], b"NOT" as &[u8], b"dest" as &[u8], b"k1" as &[u8], b"k2" as &[u8]], b"-ERR BITOP NOT must be called with a single source key.\r\n"),
        (&[b"BITOP" as &[u8], b"FOO" as &[u8], b"dest" as &[u8], b"k1" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"BITOP" as &[u8], b"AND" as &[u8], b"dest" as &[u8], b"nokey" as &[u8]], b":0\r\n"),
        (&[b"EXISTS" as &[u8], b"dest" as &[u8]], b":0\r\n"),
        (&[b"RPUSH" as &[u8], b"lst" as &[u8], b"a" as &[u8]], b":1\r\n"),
        (&[b"BITOP" as &[u8], b"AND" as &[u8], b"dest" as &[u8], b"k1" as &[u8], b"lst" as &[u8]], b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"),
        (&[b"BITCOUNT" as &[u8], b"lst" as &[u8]], b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"SET" as &[u8], b"i8" as &[u8], b"0" as &[u8], b"100" as &[u8], b"GET" as &[u8], b"i8" as &[u8], b"0" as &[u8]], b"*2\r\n:0\r\n:100\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"INCRBY" as &[u8], b"i8" as &[u8], b"0" as &[u8], b"100" as &[u8]], b"*1\r\n:-56\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"OVERFLOW" as &[u8], b"SAT" as &[u8], b"INCRBY" as &[u8], b"i8" as &[u8], b"0" as &[u8], b"100" as &[u8]], b"*1\r\n:44\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"OVERFLOW" as &[u8], b"FAIL" as &[u8], b"INCRBY" as &[u8], b"i8" as &[u8], b"0" as &[u8], b"100" as &[u8]], b"*1\r\n$-1\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"OVERFLOW" as &[u8], b"WRAP" as &[u8], b"INCRBY" as &[u8], b"u4" as &[u8], b"#2" as &[u8], b"20" as &[u8], b"GET" as &[u8], b"u4" as &[u8], b"#2" as &[u8]], b"*2\r\n:4\r\n:4\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"SET" as &[u8], b"u8" as &[u8], b"#1" as &[u8], b"300" as &[u8], b"GET" as &[u8], b"u8" as &[u8], b"8" as &[u8]], b"*2\r\n:64\r\n:44\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"OVERFLOW" as &[u8], b"SAT" as &[u8], b"SET" as &[u8], b"u8" as &[u8], b"#1" as &[u8], b"300" as &[u8], b"GET" as &[u8], b"u8" as &[u8], b"8" as &[u8]], b"*2\r\n:44\r\n:255\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"OVERFLOW" as &[u8], b"SAT" as &[u8], b"INCRBY" as &[u8], b"u8" as &[u8], b"#1" as &[u8], b"-1000" as &[u8]], b"*1\r\n:0\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"OVERFLOW" as &[u8], b"FAIL" as &[u8], b"SET" as &[u8], b"i4" as &[u8], b"0" as &[u8], b"100" as &[u8]], b"*1\r\n$-1\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"GET" as &[u8], b"i64" as &[u8], b"0" as &[u8], b"GET" as &[u8], b"u63" as &[u8], b"1" as &[u8]], b"*2\r\n:3170534137668829184\r\n:3170534137668829184\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"SET" as &[u8], b"i64" as &[u8], b"0" as &[u8], b"-1" as &[u8], b"INCRBY" as &[u8], b"i64" as &[u8], b"0" as &[u8], b"-9223372036854775807" as &[u8]], b"*2\r\n:3170534137668829184\r\n:-9223372036854775808\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"OVERFLOW" as &[u8], b"SAT" as &[u8], b"INCRBY" as &[u8], b"i64" as &[u8], b"0" as &[u8], b"-9223372036854775807" as &[u8]], b"*1\r\n:-9223372036854775808\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"GET" as &[u8], b"u64" as &[u8], b"0" as &[u8]], b"-ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"GET" as &[u8], b"i0" as &[u8], b"0" as &[u8]], b"-ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"GET" as &[u8], b"I8" as &[u8], b"0" as &[u8]], b"-ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"GET" as &[u8], b"i8" as &[u8], b"-1" as &[u8]], b"-ERR bit offset is not an integer or out of range\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"OVERFLOW" as &[u8], b"BAD" as &[u8], b"GET" as &[u8], b"i8" as &[u8], b"0" as &[u8]], b"-ERR Invalid OVERFLOW type specified\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"FOO" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"GET" as &[u8], b"i8" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8], b"SET" as &[u8], b"i8" as &[u8], b"0" as &[u8], b"abc" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"BITFIELD" as &[u8], b"bf" as &[u8]], b"*0\r\n"),
        (&[b"BITFIELD_RO" as &[u8], b"bf" as &[u8], b"GET" as &[u8], b"u8" as &[u8], b"0" as &[u8], b"GET" as &[u8], b"i16" as &[u8], b"#1" as &[u8]], b"*2\r\n:128\r\n:0\r\n"),
        (&[b"BITFIELD_RO" as &[u8], b"bf" as &[u8], b"SET" as &[u8], b"u8" as &[u8], b"0" as &[u8], b"1" as &[u8]], b"-ERR BITFIELD_RO only supports the GET subcommand\r\n"),
        (&[b"BITFIELD_RO" as &[u8], b"nokey" as &[u8], b"GET" as &[u8], b"u8" as &[u8], b"0" as &[u8]], b"*1\r\n:0\r\n"),
        (&[b"BITFIELD" as &[u8], b"lst" as &[u8], b"GET" as &[u8], b"u8" as &[u8], b"0" as &[u8]], b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"),
        (&[b"GET" as &[u8], b"bf" as &[u8]], b"$8\r\n\x80\x00\x00\x00\x00\x00\x00\x00\r\n"),
        (&[b"OBJECT" as &[u8], b"ENCODING" as &[u8], b"bf" as &[u8]], b"$3\r\nraw\r\n"),
];

#[test]
fn replies_equal_redis_7_0_15() {
    common_data::check(CASES);
}
