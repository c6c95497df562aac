//! A language switch reaches the sections out of view one task after the frame that shows it,
//! so that frame re-renders and lays out only what the reader is looking at (issue 17).
//!
//! At the switch, the sections on screen ([`use_in_view`], kept by an `IntersectionObserver` as
//! the reader scrolls, so the switch itself measures nothing: the select's new value has made
//! the layout dirty, and reading boxes then laid the page out, 26 ms at 1000 masters) take the
//! new language at once; the others keep the previous one until App's late value
//! (`after_paint::use_after_paint`) catches up after the next paint. `<html lang>` follows the
//! late value, so it names the new language once every section speaks it.
//!
//! A new cluster reaches the tags and hot-spot section the same way when it is out of view
//! ([`SectionMap`]): at 1000 masters that section adds about 900 elements and plans 100,000
//! keys, which the frame showing the new map does not need.

use crate::core::cluster::topology::SlotMap;
use crate::ui::lang::Lang;
use crate::ui::sections::Place;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
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

    /// `self` with `place` on screen or not.
    pub fn with(self, place: Place, on_screen: bool) -> InView {
        if on_screen {
            InView(self.0 | bit(place))
        } else {
            InView(self.0 & !bit(place))
        }
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

/// The sections on screen, kept up to date by an `IntersectionObserver` on each of them (every
/// section until its first report, and where there is no observer).
#[hook]
pub fn use_in_view() -> Rc<Cell<InView>> {
    let in_view = use_memo((), |_| Cell::new(InView::ALL));
    {
        let in_view = in_view.clone();
        use_effect_with((), move |_| {
            let observer = observe_sections(in_view);
            move || {
                if let Some((o, _)) = observer {
                    o.disconnect();
                }
            }
        });
    }
    in_view
}

/// Observes every section's element; each report sets its sections' bits in `in_view`. The
/// observer and its callback live as long as the pair returned.
#[allow(clippy::type_complexity)]
fn observe_sections(
    in_view: Rc<Cell<InView>>,
) -> Option<(
    web_sys::IntersectionObserver,
    Closure<dyn FnMut(js_sys::Array)>,
)> {
    let doc = web_sys::window()?.document()?;
    let report = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let mut now = in_view.get();
        for entry in entries.iter() {
            let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
            let id = entry.target().id();
            if let Some(place) = Place::ALL.into_iter().find(|p| p.id() == id) {
                now = now.with(place, entry.is_intersecting());
            }
        }
        in_view.set(now);
    });
    let observer = web_sys::IntersectionObserver::new(report.as_ref().unchecked_ref()).ok()?;
    for place in Place::ALL {
        if let Some(el) = doc.get_element_by_id(place.id()) {
            observer.observe(&el);
        }
    }
    Some((observer, report))
}

/// The cluster and its colours as a section sees them, compared by pointer (a change of
/// cluster is a new `Rc`), so holding one back a task costs no deep comparison.
#[derive(Clone)]
pub struct SectionMap(pub Rc<SlotMap>, pub Rc<Vec<String>>);

impl PartialEq for SectionMap {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) && Rc::ptr_eq(&self.1, &other.1)
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
    fn sections_reported_on_screen_are_in_view() {
        let v = Place::ALL
            .into_iter()
            .fold(InView::ALL, |v, p| v.with(p, false))
            .with(Place::Key, true)
            .with(Place::Map, true)
            .with(Place::Planner, true)
            .with(Place::Planner, false);
        assert!(v.has(Place::Key) && v.has(Place::Map));
        assert!(!v.has(Place::Planner) && !v.has(Place::Tags) && !v.has(Place::Bus));
        assert_eq!(v.lang_for(Place::Map, Lang::Zh, Lang::En), Lang::Zh);
        assert_eq!(v.lang_for(Place::Planner, Lang::Zh, Lang::En), Lang::En);
        assert!(Place::ALL.into_iter().all(|p| InView::ALL.has(p)));
    }
}
