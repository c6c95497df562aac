//! The runs the scenario select offers: free play (the reader's knobs and actions) and every
//! ready-made story of `core::bus::scenario`'s catalogue, by its stable slug.

use super::model::Run;
use crate::core::bus::scenario::{Knobs, ScenarioId, ScenarioSpec};

/// The slug of free play.
pub const FREE: &str = "free";

/// The slugs offered, in the select's order (free play first).
pub fn slugs() -> impl Iterator<Item = &'static str> {
    std::iter::once(FREE).chain(ScenarioId::ALL.iter().map(|s| s.slug()))
}

/// Whether the select offers `slug`.
pub fn known(slug: &str) -> bool {
    slug == FREE || ScenarioId::from_slug(slug).is_some()
}

/// How long a run is recorded at first (it grows while playing): a big cluster starts short.
pub fn length(spec: &ScenarioSpec) -> u64 {
    if spec.knobs.nodes() > 200 {
        2000
    } else {
        spec.until_ms.max(spec.settle_ms().min(30_000))
    }
}

/// The spec of `slug` (free play: `free`'s knobs, no action), or `None`.
pub fn spec_of(slug: &str, free: &Knobs) -> Option<ScenarioSpec> {
    if slug == FREE {
        return Some(ScenarioSpec::new(free.clone(), 0));
    }
    ScenarioId::from_slug(slug).map(|id| id.spec(id.page_seed()))
}

/// The run of a spec.
pub fn build(spec: &ScenarioSpec) -> Run {
    Run::new(spec, length(spec))
}

/// The run of a spec, to build a piece at a time.
pub fn building(spec: &ScenarioSpec) -> super::building::Building {
    super::building::Building::new(spec, length(spec))
}
