//! The ready-made runs the scenario select offers, as knobs and a script over the simulator's
//! own calls (crash, hang, resume, restart, cut, `CLUSTER FAILOVER`).

use super::model::{Act, Knobs, Run, Scripted};
use crate::core::bus::FailoverMode;

/// The slug of free play (no script, the reader's knobs).
pub const FREE: &str = "free";

/// The slugs offered, in the select's order (free play first).
pub const SLUGS: [&str; 11] = [
    FREE,
    "steady",
    "master-crash",
    "master-hang",
    "majority-loss",
    "manual-failover",
    "manual-force",
    "manual-takeover",
    "two-masters-die",
    "partition",
    "no-replica",
];

/// How long a run is recorded at first, for knobs `k` (it grows while playing).
pub fn length(k: &Knobs) -> u64 {
    if k.total() > 200 {
        2000
    } else {
        (k.node_timeout * 6).max(15_000)
    }
}

fn at(at: u64, act: Act) -> Scripted {
    Scripted { at, act }
}

/// The knobs and script of scenario `slug` (free play's knobs are the reader's), or `None`.
pub fn scenario(slug: &str, free: &Knobs) -> Option<(Knobs, Vec<Scripted>)> {
    let base = Knobs::default();
    let nt = base.node_timeout;
    let (knobs, script) = match slug {
        FREE => (free.clone(), vec![]),
        "steady" => (base, vec![]),
        "master-crash" => (base, vec![at(1000, Act::Crash(0))]),
        "master-hang" => (
            base,
            vec![at(1000, Act::Hang(0)), at(1000 + 5 * nt, Act::Resume(0))],
        ),
        "majority-loss" => (base, vec![at(1000, Act::Crash(0)), at(1000, Act::Crash(1))]),
        "manual-failover" => (
            base,
            vec![at(1000, Act::Failover(3, FailoverMode::Default))],
        ),
        "manual-force" => (base, vec![at(1000, Act::Failover(3, FailoverMode::Force))]),
        "manual-takeover" => (
            base,
            vec![at(1000, Act::Failover(3, FailoverMode::Takeover))],
        ),
        "two-masters-die" => (
            Knobs { masters: 5, ..base },
            vec![at(1000, Act::Crash(0)), at(1000, Act::Crash(1))],
        ),
        "partition" => (
            base,
            vec![
                at(1000, Act::Isolate(0)),
                at(1000 + 4 * nt, Act::Reconnect(0)),
            ],
        ),
        "no-replica" => (
            Knobs {
                replicas: 0,
                ..base
            },
            vec![at(1000, Act::Crash(0))],
        ),
        _ => return None,
    };
    Some((knobs, script))
}

/// The run of scenario `slug` (`None` for a slug the page does not have).
pub fn build(slug: &str, free: &Knobs) -> Option<Run> {
    let (knobs, script) = scenario(slug, free)?;
    let len = length(&knobs);
    Some(Run::new(knobs, script, len))
}
