//! The bus narration with its numbers (branch `numbers`): a notable event's `Note` from the
//! core's timeline (PFAIL after how many ms, reports of what quorum, the election delay's
//! parts and rank, votes of how many needed, the new config epoch), worded in the reader's
//! language. Notes the player words without numbers (processes, partitions, …) give `None`.

use crate::core::bus::scenario::Note;
use crate::core::bus::Opinion;
use crate::ui::components::bus::model::Story;
use crate::ui::messages::{fill, Messages};

/// The sentence for `note` (an event at `t` ms from the start); `name` gives an address.
pub fn narrate_note(
    m: &Messages,
    story: &Story,
    note: &Note,
    t: u64,
    name: &dyn Fn(u32) -> String,
) -> Option<String> {
    let text = match *note {
        Note::Pfail {
            observer,
            subject,
            silent_ms,
            node_timeout,
        } => fill(
            m.bn_pfail,
            &[&name(observer), &name(subject), &silent_ms, &node_timeout],
        ),
        Note::Fail {
            observer,
            subject,
            reports,
            needed,
        } => {
            let mut s = fill(
                m.bn_fail,
                &[&name(observer), &name(subject), &reports, &needed],
            );
            if let Some(n) = story.fail_broadcast(observer, t) {
                s.push_str(&fill(m.bn_fail_sent, &[&n]));
            }
            s
        }
        Note::FailReceived {
            observer,
            subject,
            from,
        } => fill(
            m.bn_fail_received,
            &[&name(observer), &name(subject), &name(from)],
        ),
        Note::Cleared {
            observer,
            subject,
            was,
            log,
        } => match (was, log.and_then(|l| story.log(l))) {
            (Opinion::Fail, Some(line)) => {
                fill(m.bn_cleared_fail, &[&name(observer), &name(subject), &line])
            }
            (Opinion::Ok | Opinion::Pfail | Opinion::Fail, _) => {
                fill(m.bn_cleared_pfail, &[&name(observer), &name(subject)])
            }
        },
        Note::State { node, ok, why } => {
            if ok {
                fill(m.bn_state_ok, &[&name(node), &why.reachable, &why.needed])
            } else if why.reachable < why.needed {
                fill(
                    m.bn_state_minority,
                    &[&name(node), &why.reachable, &why.needed],
                )
            } else {
                let slot = why.uncovered_slot?;
                fill(m.bn_state_slot, &[&name(node), &slot])
            }
        }
        Note::ElectionScheduled {
            node,
            rank,
            offset,
            delay,
            ..
        } => {
            if delay.total_ms() == 0 {
                fill(m.bn_scheduled_now, &[&name(node)])
            } else {
                fill(
                    m.bn_scheduled,
                    &[
                        &name(node),
                        &delay.total_ms(),
                        &delay.random_ms,
                        &delay.rank_ms,
                        &rank,
                        &offset,
                    ],
                )
            }
        }
        Note::ElectionStarted {
            node,
            epoch,
            needed,
        } => fill(m.bn_started, &[&name(node), &epoch, &needed]),
        Note::Vote {
            voter,
            candidate,
            epoch,
            votes,
            needed,
        } => fill(
            m.bn_vote,
            &[&name(voter), &name(candidate), &epoch, &votes, &needed],
        ),
        Note::Role {
            node,
            master,
            was,
            config_epoch,
        } => match (master, was) {
            (None, _) => fill(m.bn_promoted, &[&name(node), &config_epoch]),
            (Some(to), None) => fill(m.bn_demoted, &[&name(node), &name(to), &config_epoch]),
            (Some(to), Some(_)) => fill(m.bn_replica, &[&name(node), &name(to), &config_epoch]),
        },
        Note::FailBroadcast { .. }
        | Note::Process { .. }
        | Note::Update { .. }
        | Note::Partition { .. }
        | Note::Log { .. }
        | Note::VoteDenied { .. }
        | Note::Action { .. } => return None,
    };
    Some(text)
}
