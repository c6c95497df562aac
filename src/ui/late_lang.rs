//! A language switch reaches the sections out of view one task after the frame that shows it,
//! so that frame re-renders and lays out only what the reader is looking at (issue 17).
//!
//! At the switch, [`InView::measure`] notes which sections are on screen (the page's layout is
//! still clean then: nothing has changed yet). Those take the new language at once; the others
//! keep the previous one until App's late value (`after_paint::use_after_paint`) catches up
//! after the next paint. `<html lang>` follows the late value, so it names the new language
//! once every section speaks it.

use crate::ui::lang::Lang;
use crate::ui::sections::Place;
use yew::prelude::*;

/// The sections that were on screen when the language was switched (a set of [`Place`]s).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct InView(u8);

impl InView {
    /// Every section: what the page assumes until a switch measures.
    pub const ALL: InView = InView(u8::MAX);

    /// Whether `place` was on screen.
    pub fn has(self, place: Place) -> bool {
        self.0 & bit(place) != 0
    }

    /// The sections whose box (`top`, `bottom` from the top of a window `height` high)
    /// overlaps the window; a section the page lacks (no box) counts as out of view.
    pub fn from_boxes(
        boxes: impl IntoIterator<Item = (Place, Option<(f64, f64)>)>,
        height: f64,
    ) -> InView {
        InView(
            boxes
                .into_iter()
                .filter(|(_, b)| b.is_some_and(|(top, bottom)| bottom > 0.0 && top < height))
                .fold(0, |set, (p, _)| set | bit(p)),
        )
    }

    /// The sections on screen now, from their boxes (every section where the window cannot
    /// be read).
    pub fn measure() -> InView {
        let Some(window) = web_sys::window() else {
            return InView::ALL;
        };
        let Some(height) = window.inner_height().ok().and_then(|h| h.as_f64()) else {
            return InView::ALL;
        };
        let doc = window.document();
        InView::from_boxes(
            Place::ALL.into_iter().map(|p| {
                let el = doc.as_ref().and_then(|d| d.get_element_by_id(p.id()));
                (
                    p,
                    el.map(|e| {
                        let r = e.get_bounding_client_rect();
                        (r.top(), r.bottom())
                    }),
                )
            }),
            height,
        )
    }

    /// The language `place` speaks now: the new one if it was on screen, else `late`.
    pub fn lang_for(self, place: Place, lang: Lang, late: Lang) -> Lang {
        if self.has(place) {
            lang
        } else {
            late
        }
    }
}

/// Props of [`PageSection`].
#[derive(Properties, PartialEq)]
pub struct PageSectionProps {
    /// The section's anchor (`sections::Place`).
    pub id: AttrValue,
    /// The language it speaks now (App's `speak`).
    pub lang: Lang,
    /// What it holds.
    #[prop_or_default]
    pub children: Html,
}

/// A section of the page in the language it speaks now: its words (the `Lang` context its
/// components read) and its `lang` attribute, which the page's CSS and screen readers follow.
#[function_component(PageSection)]
pub fn page_section(props: &PageSectionProps) -> Html {
    html! {
        <ContextProvider<Lang> context={props.lang}>
            <div id={props.id.clone()} class="page-section" tabindex="-1" lang={props.lang.bcp47()}>
                { props.children.clone() }
            </div>
        </ContextProvider<Lang>>
    }
}

/// The bit of `place` in an [`InView`].
fn bit(place: Place) -> u8 {
    let i = Place::ALL.iter().position(|p| *p == place).unwrap_or(0);
    1 << i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_overlapping_the_window_are_in_view() {
        let boxes = [
            (Place::Key, Some((246.0, 797.0))),
            (Place::Map, Some((821.0, 1901.0))),
            (Place::Planner, Some((1925.0, 3320.0))),
            (Place::Tags, Some((-900.0, -1.0))),
            (Place::Bus, None),
        ];
        let v = InView::from_boxes(boxes, 900.0);
        assert!(v.has(Place::Key) && v.has(Place::Map));
        assert!(!v.has(Place::Planner) && !v.has(Place::Tags) && !v.has(Place::Bus));
        assert_eq!(v.lang_for(Place::Map, Lang::Zh, Lang::En), Lang::Zh);
        assert_eq!(v.lang_for(Place::Planner, Lang::Zh, Lang::En), Lang::En);
        assert!(Place::ALL.into_iter().all(|p| InView::ALL.has(p)));
    }
}
