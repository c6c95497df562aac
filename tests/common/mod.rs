//! Shared helpers for the native tests: where the fixtures live and how to read their TSVs.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/fixtures` beside the project root, or `$SLOTSCOPE_FIXTURES` when set.
pub fn fixtures_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SLOTSCOPE_FIXTURES") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures")
}

/// The rows of a fixture TSV, header checked and removed. A missing file fails the test:
/// a test that quietly passed without its fixtures would prove nothing.
pub fn read_tsv(name: &str, header: &[&str]) -> Vec<Vec<String>> {
    let path = fixtures_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()));
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("empty fixture").split('\t').collect();
    assert_eq!(head, header, "unexpected columns in {name}");
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split('\t').map(str::to_owned).collect::<Vec<_>>())
        .collect();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), header.len(), "{name} line {}: {row:?}", i + 2);
    }
    rows
}

/// The slot `CLUSTER KEYSLOT` answered for a key, by its display form in keyslot.tsv.
pub fn redis_slot(display: &str) -> u16 {
    read_tsv("keyslot.tsv", &["key_hex", "key_display", "slot"])
        .into_iter()
        .find(|r| r[1] == display)
        .map(|r| r[2].parse().expect("slot"))
        .unwrap_or_else(|| panic!("{display} is not in keyslot.tsv"))
}

/// The columns of reshard_cases/summary.tsv.
pub const SUMMARY_COLUMNS: &[&str] = &[
    "case",
    "state_file",
    "node",
    "node_id",
    "role",
    "slots",
    "keys",
    "ranges",
];
