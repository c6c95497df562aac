//! A language switch reaches the sections out of view after the frame that shows it, one
//! section a frame, so no frame after it re-renders and lays out more than one section's
//! words (issue 17).
//!
//! At the switch, the sections on screen ([`use_in_view`], kept by an `IntersectionObserver` as
//! the reader scrolls, so the switch itself measures nothing: the select's new value has made
//! the layout dirty, and reading boxes then laid the page out, 26 ms at 1000 masters) take the
//! new language at once; the others keep the one the page spoke ([`Speaking`]), and
//! [`use_speaking`] brings them over a task after each paint, one at a time: first one the
//! reader has scrolled to meanwhile, else the next in page order. `<html lang>` follows once
//! every section speaks the new language, in a frame of its own (changing it restyles the
//! whole page).
//!
//! A new cluster reaches the planner and then, a frame later, the tags and hot-spot section
//! the same way when they are out of view ([`SectionMap`]): at 1000 masters the planner's
//! render is about 12 ms, and the tags section adds about 900 elements and plans 100,000 keys,
//! which the frame showing the new map does not need.

use crate::core::cluster::topology::SlotMap;
use crate::ui::after_paint::after_paint;
use crate::ui::lang::Lang;
use crate::ui::sections::Place;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A set of sections ([`Place`]s): those on screen, or those that speak the new language.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct InView(u8);

impl InView {
    /// Every section: what the page assumes until an observer reports.
    pub const ALL: InView = InView(u8::MAX);

    /// Whether `place` is in the set.
    pub fn has(self, place: Place) -> bool {
        self.0 & bit(place) != 0
    }

    /// `self` with `place` in the set or not.
    pub fn with(self, place: Place, on_screen: bool) -> InView {
        if on_screen {
            InView(self.0 | bit(place))
        } else {
            InView(self.0 & !bit(place))
        }
    }
}

/// Which sections speak the page's language, and the language the others still speak: the
/// one the page spoke before the switch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Speaking {
    /// The sections that speak the page's language.
    pub caught_up: InView,
    /// The language of the others (the page's own once every section speaks it).
    pub behind: Lang,
}

impl Speaking {
    /// Every section speaks `lang`.
    pub fn all(lang: Lang) -> Speaking {
        Speaking {
            caught_up: InView::ALL,
            behind: lang,
        }
    }

    /// The language `place` speaks while the page's is `lang`.
    pub fn lang_for(self, place: Place, lang: Lang) -> Lang {
        if self.caught_up.has(place) {
            lang
        } else {
            self.behind
        }
    }

    /// The next step towards every section speaking `lang`: the next section brought over
    /// (one on screen now first, else the first in page order), or, once all have been,
    /// `behind` set to `lang`. `None` when there is nothing left to do.
    pub fn step(self, lang: Lang, on_screen: InView) -> Option<Speaking> {
        if self.behind == lang {
            return None;
        }
        let waiting = Place::ALL.into_iter().filter(|p| !self.caught_up.has(*p));
        let next = waiting
            .clone()
            .find(|p| on_screen.has(*p))
            .or_else(|| waiting.clone().next());
        Some(match next {
            Some(place) => Speaking {
                caught_up: self.caught_up.with(place, true),
                ..self
            },
            None => Speaking::all(lang),
        })
    }

    /// The page switched from `from` to `to` with `on_screen` on screen: those take `to` at
    /// once, and so do those that already speak it (a switch back before every section had
    /// come over); the others speak `from` until their step. Exact with the page's two
    /// languages, where a section that does not speak `to` speaks `from`; with a third, a
    /// section still in it would show `from` until its step.
    pub fn switched(self, from: Lang, to: Lang, on_screen: InView) -> Speaking {
        let caught_up = Place::ALL.into_iter().fold(on_screen, |set, p| {
            if self.lang_for(p, from) == to {
                set.with(p, true)
            } else {
                set
            }
        });
        Speaking {
            caught_up,
            behind: from,
        }
    }
}

/// What changes [`Speaking`]: a switch, or a step after a paint (made from the state as it
/// is then, not as it was when the step was set).
pub enum SpeakingAction {
    /// The reader picked another language.
    Switched {
        /// The language the page spoke.
        from: Lang,
        /// The one picked.
        to: Lang,
        /// The sections on screen then.
        on_screen: InView,
    },
    /// One [`Speaking::step`].
    Step {
        /// The page's language.
        lang: Lang,
        /// The sections on screen now.
        on_screen: InView,
    },
}

impl Reducible for Speaking {
    type Action = SpeakingAction;

    fn reduce(self: Rc<Self>, action: SpeakingAction) -> Rc<Self> {
        match action {
            SpeakingAction::Switched {
                from,
                to,
                on_screen,
            } => Rc::new(self.switched(from, to, on_screen)),
            SpeakingAction::Step { lang, on_screen } => match self.step(lang, on_screen) {
                Some(next) => Rc::new(next),
                None => self,
            },
        }
    }
}

/// The page's [`Speaking`] state and the switch: `switch((from, to, on_screen))` is called
/// with the language the page spoke, the one the reader picked and the sections on screen;
/// from the next paint on, a task after each paint takes one [`Speaking::step`].
#[hook]
pub fn use_speaking(
    lang: Lang,
    on_screen: Rc<Cell<InView>>,
) -> (Speaking, Callback<(Lang, Lang, InView)>) {
    let speaking = use_reducer_eq(|| Speaking::all(lang));
    {
        let dispatcher = speaking.dispatcher();
        use_effect_with((lang, *speaking), move |(lang, now)| {
            let lang = *lang;
            let guard = (now.behind != lang).then(|| {
                after_paint(move || {
                    dispatcher.dispatch(SpeakingAction::Step {
                        lang,
                        on_screen: on_screen.get(),
                    })
                })
            });
            move || drop(guard)
        });
    }
    let switch = use_callback(
        speaking.dispatcher(),
        |(from, to, on_screen): (Lang, Lang, InView), dispatcher| {
            dispatcher.dispatch(SpeakingAction::Switched {
                from,
                to,
                on_screen,
            })
        },
    );
    (*speaking, switch)
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
        assert!(!is_all(v) && is_all(InView::ALL));
        assert!(Place::ALL.into_iter().all(|p| InView::ALL.has(p)));
    }

    /// Whether every section is in `v`.
    fn is_all(v: InView) -> bool {
        Place::ALL.into_iter().all(|p| v.has(p))
    }

    /// Only `places` in the set.
    fn only(places: &[Place]) -> InView {
        Place::ALL
            .into_iter()
            .fold(InView::ALL, |v, p| v.with(p, places.contains(&p)))
    }

    #[test]
    fn the_sections_out_of_view_come_over_one_a_step_then_the_page() {
        let top = only(&[Place::Key, Place::Map]);
        let mut now = Speaking {
            caught_up: top,
            behind: Lang::En,
        };
        assert_eq!(now.lang_for(Place::Map, Lang::Zh), Lang::Zh);
        assert_eq!(now.lang_for(Place::Planner, Lang::Zh), Lang::En);
        let mut order = Vec::new();
        while let Some(next) = now.step(Lang::Zh, top) {
            let new: Vec<Place> = Place::ALL
                .into_iter()
                .filter(|p| next.caught_up.has(*p) && !now.caught_up.has(*p))
                .collect();
            assert!(new.len() <= 1, "one section a step: {new:?}");
            order.extend(new);
            now = next;
        }
        assert_eq!(
            order,
            [
                Place::Planner,
                Place::Tags,
                Place::Redirections,
                Place::Bus,
                Place::Why
            ]
        );
        assert_eq!(now, Speaking::all(Lang::Zh));
        assert!(Place::ALL
            .into_iter()
            .all(|p| now.lang_for(p, Lang::Zh) == Lang::Zh));
    }

    #[test]
    fn a_section_scrolled_to_meanwhile_comes_over_first() {
        let now = Speaking {
            caught_up: only(&[Place::Key]),
            behind: Lang::Zh,
        };
        let next = now.step(Lang::En, only(&[Place::Bus, Place::Why])).unwrap();
        assert!(next.caught_up.has(Place::Bus) && !next.caught_up.has(Place::Why));
        assert_eq!(next.behind, Lang::Zh);
        // Every section on screen at the switch: the page's own language follows a step later.
        assert_eq!(
            Speaking {
                caught_up: InView::ALL,
                behind: Lang::Zh
            }
            .step(Lang::En, InView::ALL),
            Some(Speaking::all(Lang::En))
        );
        assert_eq!(Speaking::all(Lang::En).step(Lang::En, InView::ALL), None);
    }

    #[test]
    fn a_switch_back_before_every_section_came_over_rewords_only_those_that_had() {
        // en → zh, the key card and the map on screen, the planner come over since.
        let top = only(&[Place::Key, Place::Map]);
        let partway = Speaking {
            caught_up: only(&[Place::Key, Place::Map, Place::Planner]),
            behind: Lang::En,
        };
        let back = partway.switched(Lang::Zh, Lang::En, top);
        for p in Place::ALL {
            let want = if p == Place::Planner {
                Lang::Zh
            } else {
                Lang::En
            };
            assert_eq!(back.lang_for(p, Lang::En), want, "{p:?}");
        }
        let next = back.step(Lang::En, top).unwrap();
        assert!(is_all(next.caught_up) && next.behind == Lang::Zh);
        assert_eq!(next.step(Lang::En, top), Some(Speaking::all(Lang::En)));
    }
}
