//! The replay every data_* test file shares: recorded (command, RESP) pairs run in order on one
//! fresh key space, each reply compared byte for byte.

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
