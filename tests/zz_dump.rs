#![cfg(not(target_arch = "wasm32"))]
use slotscope::core::client::{scenarios, EventKind};
#[test]
fn dump() {
    for s in scenarios() {
        println!("=== {} {:?} max {}", s.id, s.policy, s.max_redirects);
        for (i, st) in s.steps.iter().enumerate() {
            for e in &st.events {
                let k = match &e.kind {
                    EventKind::Request { .. } => "REQ".to_string(),
                    EventKind::Reply { .. } => "REP".into(),
                    k => format!("{:?}", k).chars().take(60).collect(),
                };
                println!(
                    "  {i} {:?}->{:?} {k} | {}",
                    e.from,
                    e.to,
                    e.cli.lines().next().unwrap_or("")
                );
            }
        }
    }
}
