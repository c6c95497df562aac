//! A sequence diagram that plays: lifelines for the client and each node, one arrow per
//! request or reply, drawn up to the current step, the current arrow travelling (CSS), and
//! its reply text as redis-cli prints it (or as RESP on the wire).

use crate::ui::messages::use_messages;
use yew::prelude::*;

/// One arrow of the diagram, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// Lifeline the arrow leaves.
    pub from: usize,
    /// Lifeline it reaches.
    pub to: usize,
    /// What it carries, as redis-cli shows it (`GET user:1001`, `(error) ASK 5712 127.0.0.1:7002`).
    pub label: String,
    /// The same on the wire (RESP, escaped for display).
    pub wire: String,
    /// A reply (drawn dashed), not a request.
    pub reply: bool,
    /// An error reply (drawn in the error colour).
    pub error: bool,
    /// Not a message but a note on one lifeline (the client updating its table, giving up, an
    /// operator's command): drawn as a box on `from`.
    pub note: bool,
}

/// Props of [`Sequence`].
#[derive(Properties, PartialEq)]
pub struct SequenceProps {
    /// Lifeline names, left to right (the client first).
    pub lanes: Vec<String>,
    /// Colour of each lifeline's head (empty for the default).
    pub lane_colours: Vec<String>,
    /// Every arrow of the scenario.
    pub arrows: Vec<Arrow>,
    /// How many arrows are shown (the current one is the last of them).
    pub shown: usize,
    /// Show RESP instead of redis-cli's text.
    pub wire: bool,
}

/// Vertical room per arrow, in SVG units.
const ROW: f64 = 38.0;
/// Room above the first arrow, for the lifeline heads.
const HEAD: f64 = 56.0;

/// The diagram.
#[function_component(Sequence)]
pub fn sequence(props: &SequenceProps) -> Html {
    let t = use_messages();
    let n = props.lanes.len().max(1);
    let width = 820.0;
    let lane_x = |i: usize| 70.0 + (width - 140.0) * i as f64 / (n.saturating_sub(1).max(1)) as f64;
    // The page keeps room for every arrow, so the diagram does not grow while it plays; a
    // picture of it ends below the arrows drawn so far (`data-drawn-height`).
    let height = HEAD + ROW * props.arrows.len().max(1) as f64 + 20.0;
    let drawn_height = HEAD + ROW * props.shown.clamp(1, props.arrows.len().max(1)) as f64 + 20.0;
    let heads = props.lanes.iter().enumerate().map(|(i, name)| {
        let x = lane_x(i);
        let colour = props.lane_colours.get(i).filter(|c| !c.is_empty()).cloned();
        html! {
            <g class="seq__lane">
                <line x1={format!("{x:.1}")} y1="40" x2={format!("{x:.1}")} y2={format!("{height:.1}")} class="seq__life" />
                <rect x={format!("{:.1}", x - 62.0)} y="8" width="124" height="28" rx="6" class="seq__head"
                      stroke-width={colour.is_some().then_some("3")} stroke={colour} />
                <text x={format!("{x:.1}")} y="27" text-anchor="middle" class="seq__head-text">{ name }</text>
            </g>
        }
    });
    let arrows = props.arrows.iter().take(props.shown).enumerate().map(|(i, a)| {
        let y = HEAD + ROW * (i as f64 + 0.6);
        let current = i + 1 == props.shown;
        let text = if props.wire { &a.wire } else { &a.label };
        let class = classes!(
            "seq__arrow",
            a.reply.then_some("seq__arrow--reply"),
            a.error.then_some("seq__arrow--error"),
            current.then_some("seq__arrow--current")
        );
        if a.note || a.from == a.to {
            let x = lane_x(a.from);
            return html! {
                <g class={classes!(class, "seq__note")}>
                    <rect x={format!("{:.1}", x - 8.0)} y={format!("{:.1}", y - 14.0)} width="16" height="20" rx="3" />
                    <text x={format!("{:.1}", x + 14.0)} y={format!("{:.1}", y)} class="seq__label">{ text }</text>
                </g>
            };
        }
        let (x1, x2) = (lane_x(a.from), lane_x(a.to));
        let dir = if x2 > x1 { 1.0 } else { -1.0 };
        let tip = x2 - dir * 6.0;
        let mid = (x1 + x2) / 2.0;
        html! {
            <g class={class}>
                <line x1={format!("{x1:.1}")} y1={format!("{y:.1}")} x2={format!("{tip:.1}")} y2={format!("{y:.1}")} class="seq__shaft"
                      pathLength={current.then_some("100")} />
                <path d={format!("M{tip:.1},{:.1} L{x2:.1},{y:.1} L{tip:.1},{:.1} z", y - 5.0, y + 5.0)} class="seq__tip" />
                <text x={format!("{mid:.1}")} y={format!("{:.1}", y - 8.0)} text-anchor="middle" class="seq__label">{ text }</text>
            </g>
        }
    });
    html! {
        <svg class="seq" viewBox={format!("0 0 {width} {height:.0}")} role="img"
             data-drawn-height={format!("{drawn_height:.0}")}
             aria-label={t.seq_label}>
            { for heads }
            { for arrows }
        </svg>
    }
}
