//! String commands (SET and every option, GETEX, counters, INCRBYFLOAT's long double, SETRANGE, GETRANGE, LCS) on the typed key space.
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
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8]], b"+OK\r\n"),
        (&[b"GET" as &[u8], b"k" as &[u8]], b"$1\r\nv\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"NX" as &[u8]], b"$-1\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v2" as &[u8], b"XX" as &[u8], b"GET" as &[u8]], b"$1\r\nv\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"NX" as &[u8], b"XX" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"EX" as &[u8], b"0" as &[u8]], b"-ERR invalid expire time in 'set' command\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"EX" as &[u8], b"-5" as &[u8]], b"-ERR invalid expire time in 'set' command\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"EX" as &[u8], b"abc" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"EX" as &[u8], b"10" as &[u8], b"PX" as &[u8], b"100" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"EX" as &[u8], b"10" as &[u8], b"EX" as &[u8], b"20" as &[u8]], b"+OK\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"KEEPTTL" as &[u8], b"EX" as &[u8], b"10" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"EX" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"EX" as &[u8], b"100" as &[u8]], b"+OK\r\n"),
        (&[b"TTL" as &[u8], b"k" as &[u8]], b":100\r\n"),
        (&[b"PTTL" as &[u8], b"k" as &[u8]], b":100000\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"w" as &[u8], b"KEEPTTL" as &[u8]], b"+OK\r\n"),
        (&[b"TTL" as &[u8], b"k" as &[u8]], b":100\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"x" as &[u8]], b"+OK\r\n"),
        (&[b"TTL" as &[u8], b"k" as &[u8]], b":-1\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"PX" as &[u8], b"1500" as &[u8]], b"+OK\r\n"),
        (&[b"TTL" as &[u8], b"k" as &[u8]], b":2\r\n"),
        (&[b"SET" as &[u8], b"n" as &[u8], b"10" as &[u8], b"EXAT" as &[u8], b"1" as &[u8]], b"+OK\r\n"),
        (&[b"GET" as &[u8], b"n" as &[u8]], b"$-1\r\n"),
        (&[b"EXISTS" as &[u8], b"n" as &[u8]], b":0\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"EX" as &[u8], b"9223372036854775807" as &[u8]], b"-ERR invalid expire time in 'set' command\r\n"),
        (&[b"SET" as &[u8], b"k" as &[u8], b"v" as &[u8], b"PX" as &[u8], b"9223372036854775807" as &[u8]], b"-ERR invalid expire time in 'set' command\r\n"),
        (&[b"GETSET" as &[u8], b"k" as &[u8], b"newer" as &[u8]], b"$1\r\nv\r\n"),
        (&[b"GETDEL" as &[u8], b"k" as &[u8]], b"$5\r\nnewer\r\n"),
        (&[b"GETDEL" as &[u8], b"k" as &[u8]], b"$-1\r\n"),
        (&[b"SETNX" as &[u8], b"a" as &[u8], b"1" as &[u8]], b":1\r\n"),
        (&[b"SETNX" as &[u8], b"a" as &[u8], b"2" as &[u8]], b":0\r\n"),
        (&[b"SETEX" as &[u8], b"s" as &[u8], b"0" as &[u8], b"v" as &[u8]], b"-ERR invalid expire time in 'setex' command\r\n"),
        (&[b"SETEX" as &[u8], b"s" as &[u8], b"10" as &[u8], b"v" as &[u8]], b"+OK\r\n"),
        (&[b"TTL" as &[u8], b"s" as &[u8]], b":10\r\n"),
        (&[b"PSETEX" as &[u8], b"p" as &[u8], b"0" as &[u8], b"v" as &[u8]], b"-ERR invalid expire time in 'psetex' command\r\n"),
        (&[b"PSETEX" as &[u8], b"p" as &[u8], b"2500" as &[u8], b"v" as &[u8]], b"+OK\r\n"),
        (&[b"TTL" as &[u8], b"p" as &[u8]], b":3\r\n"),
        (&[b"GETEX" as &[u8], b"s" as &[u8], b"PERSIST" as &[u8]], b"$1\r\nv\r\n"),
        (&[b"TTL" as &[u8], b"s" as &[u8]], b":-1\r\n"),
        (&[b"GETEX" as &[u8], b"s" as &[u8], b"EX" as &[u8], b"50" as &[u8]], b"$1\r\nv\r\n"),
        (&[b"TTL" as &[u8], b"s" as &[u8]], b":50\r\n"),
        (&[b"GETEX" as &[u8], b"s" as &[u8], b"PXAT" as &[u8], b"1" as &[u8]], b"$1\r\nv\r\n"),
        (&[b"GET" as &[u8], b"s" as &[u8]], b"$-1\r\n"),
        (&[b"GETEX" as &[u8], b"nokey" as &[u8], b"EX" as &[u8], b"5" as &[u8]], b"$-1\r\n"),
        (&[b"GETEX" as &[u8], b"a" as &[u8], b"EX" as &[u8], b"5" as &[u8], b"PERSIST" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"GETEX" as &[u8], b"a" as &[u8], b"FOO" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"MSET" as &[u8], b"m1" as &[u8], b"1" as &[u8], b"m2" as &[u8], b"2" as &[u8]], b"+OK\r\n"),
        (&[b"MGET" as &[u8], b"m1" as &[u8], b"m2" as &[u8], b"nokey" as &[u8]], b"*3\r\n$1\r\n1\r\n$1\r\n2\r\n$-1\r\n"),
        (&[b"MSETNX" as &[u8], b"m1" as &[u8], b"x" as &[u8], b"m3" as &[u8], b"y" as &[u8]], b":0\r\n"),
        (&[b"MSETNX" as &[u8], b"m3" as &[u8], b"x" as &[u8], b"m4" as &[u8], b"y" as &[u8]], b":1\r\n"),
        (&[b"INCR" as &[u8], b"c" as &[u8]], b":1\r\n"),
        (&[b"INCRBY" as &[u8], b"c" as &[u8], b"10" as &[u8]], b":11\r\n"),
        (&[b"DECR" as &[u8], b"c" as &[u8]], b":10\r\n"),
        (&[b"DECRBY" as &[u8], b"c" as &[u8], b"-5" as &[u8]], b":15\r\n"),
        (&[b"DECRBY" as &[u8], b"c" as &[u8], b"-9223372036854775808" as &[u8]], b"-ERR decrement would overflow\r\n"),
        (&[b"INCRBY" as &[u8], b"c" as &[u8], b"abc" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"SET" as &[u8], b"big" as &[u8], b"9223372036854775807" as &[u8]], b"+OK\r\n"),
        (&[b"INCR" as &[u8], b"big" as &[u8]], b"-ERR increment or decrement would overflow\r\n"),
        (&[b"SET" as &[u8], b"c2" as &[u8], b"abc" as &[u8]], b"+OK\r\n"),
        (&[b"INCR" as &[u8], b"c2" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"SET" as &[u8], b"c3" as &[u8], b" 1" as &[u8]], b"+OK\r\n"),
        (&[b"INCR" as &[u8], b"c3" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"SET" as &[u8], b"c4" as &[u8], b"007" as &[u8]], b"+OK\r\n"),
        (&[b"INCR" as &[u8], b"c4" as &[u8]], b"-ERR value is not an integer or out of range\r\n"),
        (&[b"SET" as &[u8], b"f" as &[u8], b"10.5" as &[u8]], b"+OK\r\n"),
        (&[b"INCRBYFLOAT" as &[u8], b"f" as &[u8], b"0.1" as &[u8]], b"$4\r\n10.6\r\n"),
        (&[b"INCRBYFLOAT" as &[u8], b"f" as &[u8], b"5.0e3" as &[u8]], b"$22\r\n5010.60000000000000009\r\n"),
        (&[b"INCRBYFLOAT" as &[u8], b"f" as &[u8], b"abc" as &[u8]], b"-ERR value is not a valid float\r\n"),
        (&[b"INCRBYFLOAT" as &[u8], b"f" as &[u8], b"inf" as &[u8]], b"-ERR increment would produce NaN or Infinity\r\n"),
        (&[b"INCRBYFLOAT" as &[u8], b"f" as &[u8], b"-5010.6" as &[u8]], b"$1\r\n0\r\n"),
        (&[b"APPEND" as &[u8], b"ap" as &[u8], b"hello" as &[u8]], b":5\r\n"),
        (&[b"APPEND" as &[u8], b"ap" as &[u8], b" world" as &[u8]], b":11\r\n"),
        (&[b"STRLEN" as &[u8], b"ap" as &[u8]], b":11\r\n"),
        (&[b"STRLEN" as &[u8], b"nokey" as &[u8]], b":0\r\n"),
        (&[b"GETRANGE" as &[u8], b"ap" as &[u8], b"0" as &[u8], b"4" as &[u8]], b"$5\r\nhello\r\n"),
        (&[b"GETRANGE" as &[u8], b"ap" as &[u8], b"-5" as &[u8], b"-1" as &[u8]], b"$5\r\nworld\r\n"),
        (&[b"GETRANGE" as &[u8], b"ap" as &[u8], b"5" as &[u8], b"2" as &[u8]], b"$0\r\n\r\n"),
        (&[b"GETRANGE" as &[u8], b"ap" as &[u8], b"-1" as &[u8], b"-5" as &[u8]], b"$0\r\n\r\n"),
        (&[b"GETRANGE" as &[u8], b"ap" as &[u8], b"0" as &[u8], b"1000" as &[u8]], b"$11\r\nhello world\r\n"),
        (&[b"GETRANGE" as &[u8], b"nokey" as &[u8], b"0" as &[u8], b"-1" as &[u8]], b"$0\r\n\r\n"),
        (&[b"SUBSTR" as &[u8], b"ap" as &[u8], b"0" as &[u8], b"2" as &[u8]], b"$3\r\nhel\r\n"),
        (&[b"SETRANGE" as &[u8], b"ap" as &[u8], b"6" as &[u8], b"WORLD" as &[u8]], b":11\r\n"),
        (&[b"GET" as &[u8], b"ap" as &[u8]], b"$11\r\nhello WORLD\r\n"),
        (&[b"SETRANGE" as &[u8], b"sr" as &[u8], b"5" as &[u8], b"x" as &[u8]], b":6\r\n"),
        (&[b"GET" as &[u8], b"sr" as &[u8]], b"$6\r\n\x00\x00\x00\x00\x00x\r\n"),
        (&[b"SETRANGE" as &[u8], b"sr" as &[u8], b"-1" as &[u8], b"x" as &[u8]], b"-ERR offset is out of range\r\n"),
        (&[b"SETRANGE" as &[u8], b"sr2" as &[u8], b"0" as &[u8], b"" as &[u8]], b":0\r\n"),
        (&[b"SETRANGE" as &[u8], b"sr" as &[u8], b"536870911" as &[u8], b"xy" as &[u8]], b"-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n"),
        (&[b"LCS" as &[u8], b"ap" as &[u8], b"sr" as &[u8]], b"$0\r\n\r\n"),
        (&[b"SET" as &[u8], b"l1" as &[u8], b"ohmytext" as &[u8]], b"+OK\r\n"),
        (&[b"SET" as &[u8], b"l2" as &[u8], b"mynewtext" as &[u8]], b"+OK\r\n"),
        (&[b"LCS" as &[u8], b"l1" as &[u8], b"l2" as &[u8]], b"$6\r\nmytext\r\n"),
        (&[b"LCS" as &[u8], b"l1" as &[u8], b"l2" as &[u8], b"LEN" as &[u8]], b":6\r\n"),
        (&[b"LCS" as &[u8], b"l1" as &[u8], b"l2" as &[u8], b"IDX" as &[u8]], b"*4\r\n$7\r\nmatches\r\n*2\r\n*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n*2\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n$3\r\nlen\r\n:6\r\n"),
        (&[b"LCS" as &[u8], b"l1" as &[u8], b"l2" as &[u8], b"IDX" as &[u8], b"MINMATCHLEN" as &[u8], b"4" as &[u8], b"WITHMATCHLEN" as &[u8]], b"*4\r\n$7\r\nmatches\r\n*1\r\n*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n$3\r\nlen\r\n:6\r\n"),
        (&[b"LCS" as &[u8], b"l1" as &[u8], b"l2" as &[u8], b"IDX" as &[u8], b"WITHMATCHLEN" as &[u8]], b"*4\r\n$7\r\nmatches\r\n*2\r\n*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n*3\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n:2\r\n$3\r\nlen\r\n:6\r\n"),
        (&[b"LCS" as &[u8], b"l1" as &[u8], b"l2" as &[u8], b"LEN" as &[u8], b"IDX" as &[u8]], b"-ERR If you want both the length and indexes, please just use IDX.\r\n"),
        (&[b"LCS" as &[u8], b"l1" as &[u8], b"l2" as &[u8], b"FOO" as &[u8]], b"-ERR syntax error\r\n"),
        (&[b"LCS" as &[u8], b"l1" as &[u8], b"nokey" as &[u8]], b"$0\r\n\r\n"),
];

#[test]
fn replies_equal_redis_7_0_15() {
    common_data::check(CASES);
}
