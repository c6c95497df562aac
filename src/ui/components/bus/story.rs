//! What a run's story says beyond the narration (branch `numbers`): the script's writes with
//! which were acknowledged and then lost (a minority partition: the isolated master takes
//! writes until it sees itself in the minority, and drops them when it rejoins as a replica),
//! and how a new node's MEET spread by gossip (how long, how many hops). Figures from the
//! core's timeline (`model::Story`), shown up to the instant on the clock.

use super::model::Story;
use super::RunHandle;
use crate::core::bus::scenario::{Action, Note, WriteRefusal};
use crate::ui::messages::{fill, use_messages, Messages};
use yew::prelude::*;

/// Props of [`BusStory`].
#[derive(Properties, PartialEq)]
pub struct BusStoryProps {
    /// The run.
    pub run: RunHandle,
    /// The instant (absolute simulated ms).
    pub t: u64,
}

/// The instant as far as the story depends on it: the last of its moments (a write, a loss,
/// a node learning of the new one, the script's actions, the notes) at or before `t`, as an
/// absolute time. The story compares the clock only with these moments, so it reads the same
/// at `t` and at `snap(t)`, and its props stay equal between them.
pub fn snap(r: &super::model::Run, t: u64) -> u64 {
    let Some(story) = r.story.as_ref() else {
        return r.start;
    };
    let now = t.saturating_sub(r.start);
    let mut last = 0;
    let mut see = |x: u64| {
        if x <= now && x > last {
            last = x;
        }
    };
    story.writes.iter().for_each(|w| see(w.t));
    story.lost.iter().for_each(|l| see(l.lost_at));
    story.notes.iter().for_each(|n| see(n.1));
    r.script.iter().for_each(|s| see(s.0));
    if let Some(m) = &story.meet {
        m.learned.iter().for_each(|l| see(l.1));
        if let Some(at) = m.everyone_at {
            see(at);
        }
    }
    r.start.saturating_add(last)
}

/// The writes and the MEET spread, when the run has them.
#[function_component(BusStory)]
pub fn bus_story(props: &BusStoryProps) -> Html {
    let m = use_messages();
    let r = props.run.run.borrow();
    let Some(story) = r.story.as_ref() else {
        return html! {};
    };
    let now = props.t.saturating_sub(r.start);
    let name = |n: u32| {
        r.full()
            .nodes
            .get(n as usize)
            .map_or_else(|| format!("#{n}"), |x| format!("127.0.0.1:{}", x.port))
    };
    let nt = r.knobs.config().node_timeout;
    let writes =
        (!story.writes.is_empty()).then(|| writes_view(m, story, &r.script, now, nt, &name));
    let meet = story.meet.as_ref().map(|s| {
        let others = r.full().nodes.len().saturating_sub(1);
        let learned: Vec<_> = s.learned.iter().filter(|l| l.1 <= now).collect();
        let head = match s.everyone_at {
            Some(at) if at <= now => fill(
                m.bn_meet_done,
                &[
                    &name(s.node),
                    &name(s.met),
                    &s.joined_at,
                    &others,
                    &at.saturating_sub(s.joined_at),
                    &s.rounds,
                ],
            ),
            _ => fill(
                m.bn_meet_so_far,
                &[
                    &name(s.node),
                    &name(s.met),
                    &s.joined_at,
                    &learned.len(),
                    &others,
                ],
            ),
        };
        let done = s.everyone_at.is_some_and(|at| at <= now);
        html! {
            <div class="bus-story__meet">
                <h3 class="bus-story__title">{ m.bn_meet_title }</h3>
                <p data-testid="bus-meet-rounds" data-rounds={s.rounds.to_string()}
                   data-everyone-ms={s.everyone_at.map(|a| a.saturating_sub(s.joined_at).to_string()).unwrap_or_default()}
                   data-done={done.to_string()}>{ head }</p>
                <ol class="bus-story__list">
                    { for learned.iter().map(|(n, at, hop)| {
                        let after = at.saturating_sub(s.joined_at);
                        let text = match hop {
                            Some(h) => fill(m.bn_meet_node, &[&name(*n), &after, h]),
                            None => fill(m.bn_meet_node_direct, &[&name(*n), &after]),
                        };
                        html! {
                            <li data-testid="bus-meet-node" data-node={name(*n)} data-after-ms={after.to_string()}
                                data-hops={hop.map(|h| h.to_string()).unwrap_or_default()}>{ text }</li>
                        }
                    }) }
                </ol>
            </div>
        }
    });
    if writes.is_none() && meet.is_none() {
        return html! {};
    }
    html! {
        <div class="bus-story" data-testid="bus-story">
            { writes.unwrap_or_default() }
            { meet.unwrap_or_default() }
        </div>
    }
}

/// The writes made so far, each with its fate, and why some were lost.
fn writes_view(
    m: &Messages,
    story: &Story,
    script: &[(u64, Action)],
    now: u64,
    nt: u64,
    name: &dyn Fn(u32) -> String,
) -> Html {
    let items = story.writes.iter().filter(|w| w.t <= now).map(|w| {
        let lost = story
            .lost
            .iter()
            .find(|l| l.number == w.number && l.lost_at <= now);
        let (status, fate) = match (w.outcome, lost) {
            (Ok(offset), Some(l)) => (
                "lost",
                fill(
                    m.bn_write_lost,
                    &[&offset, &l.lost_at, &name(l.promoted), &l.promoted_offset],
                ),
            ),
            (Ok(offset), None) => ("ok", fill(m.bn_write_ok, &[&offset])),
            (Err(e), _) => (
                "refused",
                match e {
                    WriteRefusal::ClusterDown => fill(m.bn_write_down, &[&e]),
                    WriteRefusal::NoAnswer => m.bn_write_no_answer.to_string(),
                    WriteRefusal::NotMaster => m.bn_write_not_master.to_string(),
                    WriteRefusal::Paused => m.bn_write_paused.to_string(),
                },
            ),
        };
        let head = fill(m.bn_write, &[&w.number, &w.t, &name(w.node)]);
        let testid = if status == "lost" {
            "bus-lost-writes"
        } else {
            "bus-write"
        };
        html! {
            <li class={classes!("bus-story__write", format!("bus-story__write--{status}"))}
                data-testid={testid} data-number={w.number.to_string()} data-t-ms={w.t.to_string()}
                data-status={status}
                data-lost-at-ms={lost.map(|l| l.lost_at.to_string()).unwrap_or_default()}>
                <span class="mono">{ head }</span>{ fate }
            </li>
        }
    });
    let lost_now: Vec<_> = story.lost.iter().filter(|l| l.lost_at <= now).collect();
    let summary = if lost_now.is_empty() {
        m.bn_no_lost.to_string()
    } else {
        let numbers = lost_now
            .iter()
            .map(|l| format!("#{}", l.number))
            .collect::<Vec<_>>()
            .join(", ");
        fill(m.bn_lost_summary, &[&lost_now.len(), &numbers])
    };
    // A partition: when the written master was cut off, and when it saw itself in the minority.
    let cut = story.writes.first().and_then(|w| {
        let at = script.iter().find_map(|(t, a)| match a {
            Action::Isolate(n) if *n == w.node && *t <= now => Some(*t),
            _ => None,
        })?;
        let down = story.notes.iter().find_map(|(_, t, n)| match n {
            Note::State {
                node, ok: false, ..
            } if *node == w.node && *t >= at => Some(*t),
            _ => None,
        })?;
        (down <= now).then(|| fill(m.bn_lost_cut, &[&name(w.node), &at, &down, &nt]))
    });
    html! {
        <div class="bus-story__writes">
            <h3 class="bus-story__title">{ m.bn_writes_title }</h3>
            if let Some(c) = cut {
                <p data-testid="bus-partition-why">{ c }</p>
            }
            <ol class="bus-story__list">{ for items }</ol>
            <p class="bus-story__summary" data-testid="bus-lost-summary">{ summary }</p>
        </div>
    }
}
