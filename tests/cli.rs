//! The `keyslot` binary, run as a user would, against the fixtures.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn keyslot() -> Command {
    Command::new(env!("CARGO_BIN_EXE_keyslot"))
}

#[test]
fn args_print_one_slot_per_key() {
    let out = keyslot()
        .args([
            "foo",
            "{user1}:profile",
            r"\xff\x00{a}",
            "",
            r#""hello world""#,
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "12182\n8106\n15495\n0\n15332\n"
    );
}

#[test]
fn a_bad_escape_is_reported_and_the_rest_answered() {
    let out = keyslot().args(["foo", r"\x4", "bar"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "12182\n5061\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("argument 2: column 1"), "{err}");
}

/// Runs `keyslot --hex` with `input` on stdin (written from another thread, so a large input
/// cannot deadlock against a full stdout pipe).
fn run_hex(input: Vec<u8>) -> std::process::Output {
    let mut child = keyslot()
        .arg("--hex")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

#[test]
fn hex_mode_answers_every_fixture_key_in_order() {
    let rows = common::read_tsv("keyslot.tsv", &["key_hex", "key_display", "slot"]);
    let input: String = rows.iter().map(|r| format!("{}\n", r[0])).collect();
    let out = run_hex(input.into_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let want: Vec<String> = rows.iter().map(|r| r[2].clone()).collect();
    assert_eq!(got, want);
}

#[test]
fn hex_mode_reports_bad_lines_by_number_and_keeps_going() {
    let out = run_hex(b"666f6f\nzz\n\n626\n626172\n".to_vec());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "12182\n0\n5061\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("line 2:"), "{err}");
    assert!(err.contains("line 4:"), "{err}");
}
