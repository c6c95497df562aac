//! Fuzz target `import`: `detect` and `import` (CLUSTER NODES / SHARDS / SLOTS, auto-detected) on
//! any text never panic, an error names a line of the paste, and whatever imports survives
//! `export_nodes` and re-import with the same slot owners and the same map (as tests/import.rs
//! `check_any` and the `export_nodes` docs promise).
#![no_main]

use libfuzzer_sys::fuzz_target;
use slotscope::core::cluster::export::export_nodes;
use slotscope::core::cluster::import::{detect, import, Format};
use slotscope::core::N_SLOTS;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let detected = detect(&text);
    match import(&text) {
        Err(e) => {
            if let Some(line) = e.line {
                let n_lines = text.split('\n').count();
                assert!(
                    (1..=n_lines).contains(&line),
                    "error names line {line} of a {n_lines}-line paste: {e:?}"
                );
            }
        }
        Ok(imported) => {
            assert_eq!(
                detected,
                Some(imported.format),
                "import and detect disagree"
            );
            let n_lines = text.split('\n').count();
            for w in &imported.warnings {
                if let Some(line) = w.line() {
                    assert!((1..=n_lines).contains(&line), "warning on line {line}: {w:?}");
                }
            }
            let exported = export_nodes(&imported.map);
            let back = match import(&exported) {
                Ok(back) => back,
                Err(e) => panic!("export_nodes output does not re-import: {e:?}\n{exported}"),
            };
            assert_eq!(back.format, Format::Nodes);
            let owner_addr = |map: &slotscope::core::SlotMap, slot: u16| {
                map.owner_master(slot).map(|m| m.addr.clone())
            };
            for slot in 0..N_SLOTS as u16 {
                assert_eq!(
                    owner_addr(&imported.map, slot),
                    owner_addr(&back.map, slot),
                    "slot {slot} changed owner through export + import\n{exported}"
                );
            }
            assert_eq!(
                back.map, imported.map,
                "map changed through export + import\n{exported}"
            );
        }
    }
});
