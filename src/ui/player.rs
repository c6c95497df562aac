//! The redirection player's reducer, lifted to the page: which scenario, how many steps are
//! shown, playing or not, how fast, and what a link asked for that could not be opened.
//!
//! Links are resolved against [`ScenarioIndex`] (ids and step counts from the core, the same
//! in every language), so the page opens a link once, wherever it came from.

use crate::core::client::{recipes, scenario_of};
use crate::persist::{OldLink, ScenarioStep};
use std::cell::OnceCell;
use std::rc::Rc;
use yew::Reducible;

/// Whether a key pressed inside a player (the redirections' or the bus's) belongs to the
/// control it was pressed on rather than to the player: every key of a field (the timeline
/// moves with the arrows itself), and Space and Enter on a button, which press it. The
/// player's other keys (the arrows, Home, End, + and −) step it from a button too, as its
/// narration promises.
pub fn key_is_the_controls(e: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    let tag = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| el.tag_name());
    match tag.as_deref() {
        Some("INPUT" | "SELECT" | "TEXTAREA") => true,
        Some("BUTTON") => matches!(e.key().as_str(), " " | "Enter"),
        _ => false,
    }
}

/// Speeds offered, slowest first.
pub const SPEEDS: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// Every scenario's id and step count, in the player's order. The ids are known at once; a
/// scenario is played for its step count only when asked (playing them all took most of the
/// page's start-up).
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioIndex(Vec<(&'static str, &'static str, OnceCell<usize>)>);

impl ScenarioIndex {
    /// The core's scenarios.
    pub fn new() -> Self {
        ScenarioIndex(
            recipes()
                .iter()
                .map(|r| (r.id, r.title, OnceCell::new()))
                .collect(),
        )
    }

    /// The scenario with this id, and its steps.
    pub fn find(&self, id: &str) -> Option<(usize, usize)> {
        let idx = self.0.iter().position(|(i, ..)| *i == id)?;
        Some((idx, self.steps(idx)))
    }

    /// Steps of scenario `idx` (0 if there is none).
    pub fn steps(&self, idx: usize) -> usize {
        self.0.get(idx).map_or(0, |(id, _, n)| {
            *n.get_or_init(|| scenario_of(id).map_or(0, |sc| sc.events().count()))
        })
    }

    /// Every scenario's id and English title, in the player's order.
    pub fn titles(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.0.iter().map(|(id, title, _)| (*id, *title))
    }

    /// Where the player is, as a link carries it (`None`: the first scenario at its start).
    pub fn at(&self, player: &Player) -> Option<ScenarioStep> {
        match self.0.get(player.scenario) {
            Some((id, ..)) if player.scenario > 0 || player.step > 0 => Some(ScenarioStep {
                scenario: id.to_string(),
                step: player.step as u32,
            }),
            _ => None,
        }
    }
}

impl Default for ScenarioIndex {
    fn default() -> Self {
        ScenarioIndex::new()
    }
}

/// What a link asked for that the page could not give exactly. The page still opens something
/// sensible and says what it did instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// No scenario has this id (shown as the link had it, cut to 40 characters).
    UnknownScenario(String),
    /// The step is not a whole number.
    BadStep(String),
    /// The step is past the scenario's end: the last step is shown.
    PastEnd {
        /// The step asked for.
        asked: usize,
        /// Steps in the scenario.
        steps: usize,
    },
}

/// Where a link opens the player: scenario, steps, step, and what had to change.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The scenario's index.
    pub idx: usize,
    /// Its steps.
    pub n_steps: usize,
    /// The step shown.
    pub step: usize,
    /// What the link asked for that could not be given.
    pub problem: Option<LinkProblem>,
}

/// The scenario and step a link's `id` and `step` (as written) open, and what had to change.
pub fn resolve_link(id: &str, step: &str, index: &ScenarioIndex) -> Opening {
    let Some((idx, steps)) = index.find(id) else {
        let shown: String = id.chars().take(40).collect();
        return Opening {
            idx: 0,
            n_steps: index.steps(0),
            step: 0,
            problem: Some(LinkProblem::UnknownScenario(shown)),
        };
    };
    let (step, problem) = match step.parse::<usize>() {
        Ok(asked) if asked > steps => (steps, Some(LinkProblem::PastEnd { asked, steps })),
        Ok(step) => (step, None),
        Err(_) => {
            let shown: String = step.chars().take(40).collect();
            (0, Some(LinkProblem::BadStep(shown)))
        }
    };
    Opening {
        idx,
        n_steps: steps,
        step,
        problem,
    }
}

/// Where an old `#redirect=` link opens the player.
pub fn resolve_old(link: &OldLink, index: &ScenarioIndex) -> Opening {
    resolve_link(&link.scenario, &link.step, index)
}

/// Where a share link's scenario and step open the player.
pub fn resolve_shared(at: &ScenarioStep, index: &ScenarioIndex) -> Opening {
    resolve_link(&at.scenario, &at.step.to_string(), index)
}

/// The player's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Index of the scenario.
    pub scenario: usize,
    /// Steps shown (0: none yet).
    pub step: usize,
    /// Steps in the scenario.
    pub n_steps: usize,
    /// Playing.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// What the last link could not open (cleared when the reader picks a scenario).
    pub problem: Option<LinkProblem>,
    /// Counts the links followed that ask for the player to be brought into sight.
    pub reveal: u32,
}

impl Player {
    /// The player as a link opens it (`reveal`: bring it into sight).
    pub fn opened(at: Option<Opening>, reveal: bool, index: &ScenarioIndex) -> Player {
        let at = at.unwrap_or(Opening {
            idx: 0,
            n_steps: index.steps(0),
            step: 0,
            problem: None,
        });
        Player {
            scenario: at.idx,
            step: at.step.min(at.n_steps),
            n_steps: at.n_steps,
            playing: false,
            speed: 2,
            problem: at.problem,
            reveal: u32::from(reveal),
        }
    }
}

/// What the player can be told.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerAction {
    /// The reader picks scenario `idx` with `n_steps` steps: it opens at its start.
    Open {
        /// The scenario.
        idx: usize,
        /// Its steps.
        n_steps: usize,
    },
    /// A link was followed inside the open page: open what it asks and bring the player into
    /// sight.
    Follow(Opening),
    /// One step on (stops playing at the end).
    Next,
    /// One step back.
    Prev,
    /// Jump to a step.
    Seek(usize),
    /// Start playing (from the start if at the end).
    Play,
    /// Stop playing.
    Pause,
    /// Faster (+1) or slower (−1).
    Speed(i32),
}

impl Reducible for Player {
    type Action = PlayerAction;
    fn reduce(self: Rc<Self>, action: PlayerAction) -> Rc<Self> {
        let mut p = Rc::unwrap_or_clone(self);
        match action {
            PlayerAction::Open { idx, n_steps } => {
                p.scenario = idx;
                p.step = 0;
                p.n_steps = n_steps;
                p.playing = false;
                p.problem = None;
            }
            PlayerAction::Follow(at) => {
                p.scenario = at.idx;
                p.step = at.step.min(at.n_steps);
                p.n_steps = at.n_steps;
                p.playing = false;
                p.problem = at.problem;
                p.reveal += 1;
            }
            PlayerAction::Next => {
                p.step = (p.step + 1).min(p.n_steps);
                if p.step == p.n_steps {
                    p.playing = false;
                }
            }
            PlayerAction::Prev => {
                p.step = p.step.saturating_sub(1);
                p.playing = false;
            }
            PlayerAction::Seek(s) => {
                p.step = s.min(p.n_steps);
                p.playing = false;
            }
            PlayerAction::Play => {
                if p.step >= p.n_steps {
                    p.step = 0;
                }
                p.playing = p.n_steps > 0;
            }
            PlayerAction::Pause => p.playing = false,
            PlayerAction::Speed(d) => {
                p.speed = (p.speed as i32 + d).clamp(0, SPEEDS.len() as i32 - 1) as usize;
            }
        }
        Rc::new(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::decode;

    fn old(hash: &str, index: &ScenarioIndex) -> Option<Opening> {
        decode(hash).old_link.map(|l| resolve_old(&l, index))
    }

    fn at(idx: usize, step: usize, problem: Option<LinkProblem>, index: &ScenarioIndex) -> Opening {
        Opening {
            idx,
            n_steps: index.steps(idx),
            step,
            problem,
        }
    }

    #[test]
    fn links_open_what_they_can_and_say_what_they_could_not() {
        let index = ScenarioIndex::new();
        let (live, steps) = index.find("live-migration").unwrap();
        assert!(steps > 3);
        assert_eq!(old("", &index), None);
        assert_eq!(old("#other=1", &index), None);
        assert_eq!(
            old("#redirect=live-migration:3", &index),
            Some(at(live, 3, None, &index))
        );
        assert_eq!(
            old("#redirect=live-migration", &index),
            Some(at(live, 0, None, &index))
        );
        assert_eq!(
            old("#redirect=live-migration:99999", &index),
            Some(at(
                live,
                steps,
                Some(LinkProblem::PastEnd {
                    asked: 99999,
                    steps
                }),
                &index
            ))
        );
        assert_eq!(
            old("#redirect=live-migration:-1", &index),
            Some(at(live, 0, Some(LinkProblem::BadStep("-1".into())), &index))
        );
        assert_eq!(
            old("#redirect=live-migr%E0:2", &index),
            Some(at(
                0,
                0,
                Some(LinkProblem::UnknownScenario("live-migr%E0".into())),
                &index
            ))
        );
        let long = format!("#redirect={}:1", "x".repeat(5000));
        match old(&long, &index).and_then(|o| o.problem) {
            Some(LinkProblem::UnknownScenario(id)) => assert_eq!(id.len(), 40),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_followed_link_replaces_the_problem_and_asks_to_be_seen() {
        let index = ScenarioIndex::new();
        let first = old("#redirect=nope:1", &index);
        let p = Rc::new(Player::opened(first, true, &index));
        assert!(p.problem.is_some());
        assert_eq!(p.reveal, 1);
        let p = p.reduce(PlayerAction::Follow(
            old("#redirect=live-migration:2", &index).unwrap(),
        ));
        assert_eq!((p.step, p.problem.clone(), p.reveal), (2, None, 2));
        assert_eq!(
            index.at(&p).map(|s| (s.scenario, s.step)),
            Some(("live-migration".to_string(), 2))
        );
        let p = p.reduce(PlayerAction::Open {
            idx: 0,
            n_steps: index.steps(0),
        });
        assert_eq!(
            index.at(&p),
            None,
            "the first scenario at its start is the default"
        );
    }

    #[test]
    fn playing_stops_at_the_end() {
        let index = ScenarioIndex::new();
        let mut p = Rc::new(Player::opened(None, false, &index)).reduce(PlayerAction::Play);
        assert!(p.playing);
        for _ in 0..p.n_steps {
            p = p.reduce(PlayerAction::Next);
        }
        assert!(!p.playing);
        assert_eq!(p.step, p.n_steps);
    }
}
