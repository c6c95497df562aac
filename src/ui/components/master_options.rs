//! The `<option>`s that name a cluster's nodes in a `<select>` (the lab's reshard from/to and
//! move-to, the planner's node), as components of their own: they render again only when the
//! nodes, the selection or their words change (not on a reshard, a keystroke or a language
//! switch of the card around them). A large cluster's list (over `AT_ONCE`) is rendered whole
//! only while the reader is at its select (`MasterSelect`, `NodeSelect`: focused or under the
//! pointer), `CHUNK` options a task; otherwise only the selected options (and a listbox's first
//! rows) are, so 1000 masters do not put 3,000 options in the page for every change, restyle
//! and layout of the section around them (issue 17).

use crate::core::SlotMap;
use std::rc::Rc;
use yew::prelude::*;

/// Clusters up to this many masters get every option at once (a small list costs nothing,
/// and the tests count a small cluster's options right after it changes).
pub const AT_ONCE: usize = 64;

/// Options added to a large list per task while it is built: 1,000 options in one task were
/// about 45 ms of script and as much again of style and layout in the frame after, per
/// select, so a 1000-master cluster's three lists held the page for a third of a second at
/// once; in pieces of this many each task stays short and the page answers between them.
pub const CHUNK: usize = 200;

/// How many of a list's `n` options to render (the first ones; the selected ones are rendered
/// in any case, so the `<select>` shows and says the same meanwhile): all of a small list; of a
/// large one, the first `head` while the reader is not at it (`wanted` false), else all of them
/// once the whole list was built for these nodes, `CHUNK` more a task until then.
#[hook]
fn use_ready(map: &Rc<SlotMap>, n: usize, wanted: bool, head: usize) -> usize {
    // The cluster whose whole list was last rendered: a change that keeps every node's address
    // (a reshard, a rebalance) keeps the list whole, with nothing to rebuild. A small list is
    // whole too, so it is recorded as well: 1000 masters, then 6, then 1000 again is a new
    // list that waits its task (it used to be built at once, as if unchanged: the second switch
    // to 1000 masters cost twice the first, issue 17).
    let whole = use_mut_ref(|| None::<Rc<SlotMap>>);
    // The list being built: its cluster and how many of its options are rendered.
    let building = use_mut_ref(|| None::<(Rc<SlotMap>, usize)>);
    let redraw = use_force_update();
    let head = head.min(n);
    let small = n <= AT_ONCE;
    if !small && !wanted {
        // Left alone: the list goes back to its head, and is built again when next wanted.
        *whole.borrow_mut() = None;
        *building.borrow_mut() = None;
    }
    let is_ready = small || whole.borrow().as_ref().is_some_and(|r| same_nodes(r, map));
    if is_ready && !whole.borrow().as_ref().is_some_and(|r| Rc::ptr_eq(r, map)) {
        *whole.borrow_mut() = Some(map.clone());
    }
    let shown = if is_ready {
        *building.borrow_mut() = None;
        n
    } else if !wanted {
        head
    } else {
        // A change that keeps the nodes (a reshard while the list is built) keeps its progress.
        let kept = building
            .borrow()
            .as_ref()
            .filter(|(m, _)| same_nodes(m, map))
            .map_or(head, |&(_, k)| k.max(head));
        *building.borrow_mut() = Some((map.clone(), kept));
        kept
    };
    let builds = wanted && !is_ready;
    use_effect_with((map.clone(), shown, builds), move |(map, shown, builds)| {
        let timeout = builds.then(|| {
            let (map, next) = (map.clone(), shown + CHUNK);
            gloo_timers::callback::Timeout::new(0, move || {
                if next >= n {
                    *whole.borrow_mut() = Some(map);
                    *building.borrow_mut() = None;
                } else {
                    *building.borrow_mut() = Some((map, next));
                }
                redraw.force_update();
            })
        });
        move || drop(timeout)
    });
    shown
}

/// Whether two clusters name the same nodes in the same order (masters, each with its replicas).
fn same_nodes(a: &SlotMap, b: &SlotMap) -> bool {
    a.masters().len() == b.masters().len()
        && a.masters().iter().zip(b.masters()).all(|(x, y)| {
            x.addr == y.addr
                && x.replicas.len() == y.replicas.len()
                && x.replicas
                    .iter()
                    .zip(&y.replicas)
                    .all(|(r, q)| r.addr == q.addr)
        })
}

/// Props of [`MasterOptions`].
#[derive(Properties)]
pub struct MasterOptionsProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// The master indices selected.
    pub selected: Rc<[usize]>,
    /// Whether the reader is at the select (a large list is rendered whole only then).
    #[prop_or(true)]
    pub wanted: bool,
    /// Options rendered first in any case (the rows a listbox shows).
    #[prop_or_default]
    pub head: usize,
}

/// Equal when the options would be: the same nodes (a reshard changes the map, not them).
impl PartialEq for MasterOptionsProps {
    fn eq(&self, other: &Self) -> bool {
        self.selected == other.selected
            && self.wanted == other.wanted
            && self.head == other.head
            && (Rc::ptr_eq(&self.map, &other.map) || same_nodes(&self.map, &other.map))
    }
}

/// `<option>`s naming each master by address, valued by its index.
#[function_component(MasterOptions)]
pub fn master_options(props: &MasterOptionsProps) -> Html {
    let masters = props.map.masters();
    let shown = use_ready(&props.map, masters.len(), props.wanted, props.head);
    let option = |idx: usize| {
        masters.get(idx).map(|m| {
            html! {
                <option key={idx} value={idx.to_string()} selected={props.selected.contains(&idx)}>{ &m.addr }</option>
            }
        })
    };
    if shown >= masters.len() {
        (0..masters.len()).filter_map(option).collect()
    } else {
        // The first `shown`, then the selected ones after them, in index order.
        let mut picked: Vec<usize> = props
            .selected
            .iter()
            .copied()
            .filter(|&i| i >= shown)
            .collect();
        picked.sort_unstable();
        picked.dedup();
        (0..shown).chain(picked).filter_map(option).collect()
    }
}

/// Props of [`NodeOptions`].
#[derive(Properties)]
pub struct NodeOptionsProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// The selected node's address.
    pub selected: AttrValue,
    /// The words for a master and a replica, after each address.
    pub roles: [&'static str; 2],
    /// Whether the reader is at the select (a large list is rendered whole only then).
    #[prop_or(true)]
    pub wanted: bool,
}

/// Equal when the options would be: the same nodes, selection and words.
impl PartialEq for NodeOptionsProps {
    fn eq(&self, other: &Self) -> bool {
        self.selected == other.selected
            && self.roles == other.roles
            && self.wanted == other.wanted
            && (Rc::ptr_eq(&self.map, &other.map) || same_nodes(&self.map, &other.map))
    }
}

/// `<option>`s naming every node (each master, then its replicas) by address and role, valued
/// by address.
#[function_component(NodeOptions)]
pub fn node_options(props: &NodeOptionsProps) -> Html {
    let map = &props.map;
    let n = map.masters().iter().map(|m| 1 + m.replicas.len()).sum();
    let shown = use_ready(map, n, props.wanted, 0);
    let nodes = map.masters().iter().flat_map(|m| {
        std::iter::once((&m.addr, props.roles[0]))
            .chain(m.replicas.iter().map(|r| (&r.addr, props.roles[1])))
    });
    let selected = props.selected.as_str();
    nodes
        .enumerate()
        .filter(|(i, (addr, _))| *i < shown || addr.as_str() == selected)
        .map(|(_, node)| node)
        .map(|(addr, role)| html! {
            <option key={addr.as_str()} value={addr.clone()} selected={addr.as_str() == selected}>{ format!("{addr} ({role})") }</option>
        })
        .collect()
}

/// Whether the reader is at a select: it has the focus or the pointer is over it. A large
/// list is rendered whole from the first `focus` or `pointerenter` (which come before a click
/// opens it, and before the keys or the wheel move through it) until both have left.
#[hook]
fn use_at_select() -> (bool, [Callback<bool>; 2]) {
    // Focus and pointer as the events left them (two can come in one task, before a render
    // gives the callbacks a fresh state), and whether either is there, which renders.
    let at = use_mut_ref(|| (false, false));
    let either = use_state_eq(|| false);
    let set = |which: usize| {
        let (at, either) = (at.clone(), either.clone());
        Callback::from(move |on: bool| {
            let mut now = at.borrow_mut();
            if which == 0 {
                now.0 = on;
            } else {
                now.1 = on;
            }
            either.set(now.0 || now.1);
        })
    };
    (*either, [set(0), set(1)])
}

/// Props of [`MasterSelect`].
#[derive(Properties, PartialEq)]
pub struct MasterSelectProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// The master indices selected.
    pub selected: Rc<[usize]>,
    /// The element's id (its label's `for`).
    pub id: AttrValue,
    /// Its `data-testid`, if any.
    #[prop_or_default]
    pub testid: Option<AttrValue>,
    /// A listbox of several choices (the reshard's sources) with "all masters" first, selected
    /// when nothing else is: its words. `None`: a one-choice drop-down.
    #[prop_or_default]
    pub all: Option<&'static str>,
    /// The listbox's tooltip.
    #[prop_or_default]
    pub title: Option<AttrValue>,
    /// The change.
    pub onchange: Callback<Event>,
}

/// A `<select>` of the cluster's masters (see [`MasterOptions`]).
#[function_component(MasterSelect)]
pub fn master_select(props: &MasterSelectProps) -> Html {
    let (wanted, [focus, hover]) = use_at_select();
    let listeners = (
        focus.reform(|_: FocusEvent| true),
        focus.reform(|_: FocusEvent| false),
        hover.reform(|_: PointerEvent| true),
        hover.reform(|_: PointerEvent| false),
    );
    let options = |head: usize| {
        html! { <MasterOptions map={props.map.clone()} selected={props.selected.clone()} {wanted} {head} /> }
    };
    match props.all {
        // Tall enough for "all masters" and every master of a small cluster; a larger one
        // scrolls, showing its first rows before the reader comes to it.
        Some(all) => {
            let size = (props.map.masters().len() + 1).clamp(2, 5);
            html! {
                <select id={props.id.clone()} data-testid={props.testid.clone()} multiple=true
                        size={size.to_string()} class="lab__sources" title={props.title.clone()}
                        onchange={props.onchange.clone()} onfocus={listeners.0} onblur={listeners.1}
                        onpointerenter={listeners.2} onpointerleave={listeners.3}>
                    <option value="all" selected={props.selected.is_empty()}>{ all }</option>
                    { options(size - 1) }
                </select>
            }
        }
        None => html! {
            <select id={props.id.clone()} data-testid={props.testid.clone()}
                    onchange={props.onchange.clone()} onfocus={listeners.0} onblur={listeners.1}
                    onpointerenter={listeners.2} onpointerleave={listeners.3}>
                { options(0) }
            </select>
        },
    }
}

/// Props of [`NodeSelect`].
#[derive(Properties, PartialEq)]
pub struct NodeSelectProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// The selected node's address.
    pub selected: AttrValue,
    /// The words for a master and a replica, after each address.
    pub roles: [&'static str; 2],
    /// The element's id (its label's `for`).
    pub id: AttrValue,
    /// Its `data-testid`.
    pub testid: AttrValue,
    /// The change.
    pub onchange: Callback<Event>,
}

/// A `<select>` of every node of the cluster (see [`NodeOptions`]).
#[function_component(NodeSelect)]
pub fn node_select(props: &NodeSelectProps) -> Html {
    let (wanted, [focus, hover]) = use_at_select();
    html! {
        <select id={props.id.clone()} data-testid={props.testid.clone()} onchange={props.onchange.clone()}
                onfocus={focus.reform(|_: FocusEvent| true)} onblur={focus.reform(|_: FocusEvent| false)}
                onpointerenter={hover.reform(|_: PointerEvent| true)}
                onpointerleave={hover.reform(|_: PointerEvent| false)}>
            <NodeOptions map={props.map.clone()} selected={props.selected.clone()} roles={props.roles} {wanted} />
        </select>
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    /// The HTML of `C` with `props`, as the server renderer writes it.
    fn render<C: BaseComponent>(props: C::Properties) -> String {
        crate::ui::prerender::block_on(
            yew::LocalServerRenderer::<C>::with_props(props)
                .hydratable(false)
                .render(),
        )
    }

    fn created(n: usize) -> Rc<SlotMap> {
        Rc::new(SlotMap::created(n, "127.0.0.1", 7000).unwrap())
    }

    /// The values of the `<option>`s in `html`, in order, with whether each is selected.
    fn options(html: &str) -> Vec<(String, bool)> {
        html.split("<option")
            .skip(1)
            .map(|o| {
                let tag = &o[..o.find('>').unwrap()];
                let value = tag.split("value=\"").nth(1).unwrap();
                (
                    value[..value.find('"').unwrap()].to_owned(),
                    tag.contains("selected"),
                )
            })
            .collect()
    }

    fn master_select(map: &Rc<SlotMap>, selected: &[usize], all: bool) -> String {
        render::<MasterSelect>(MasterSelectProps {
            map: map.clone(),
            selected: Rc::from(selected),
            id: "s".into(),
            testid: None,
            all: all.then_some("all masters"),
            title: None,
            onchange: Callback::noop(),
        })
    }

    #[test]
    fn a_large_list_left_alone_has_its_selected_options_and_a_listboxs_first_rows() {
        let map = created(1000);
        let opts = options(&master_select(&map, &[999], false));
        assert_eq!(opts, vec![("999".to_owned(), true)]);
        let opts = options(&master_select(&map, &[700, 2], true));
        let want: Vec<(String, bool)> = [("all", false), ("0", false), ("1", false)]
            .into_iter()
            .chain([("2", true), ("3", false), ("700", true)])
            .map(|(v, s)| (v.to_owned(), s))
            .collect();
        assert_eq!(opts, want);
        // "All masters" is selected when no source is.
        assert_eq!(
            options(&master_select(&map, &[], true))[0],
            ("all".into(), true)
        );
        let nodes = render::<NodeSelect>(NodeSelectProps {
            map: map.clone(),
            selected: "127.0.0.1:7500".into(),
            roles: ["master", "replica"],
            id: "n".into(),
            testid: "n".into(),
            onchange: Callback::noop(),
        });
        assert_eq!(options(&nodes), vec![("127.0.0.1:7500".to_owned(), true)]);
        assert!(nodes.contains(">127.0.0.1:7500 (master)</option>"));
    }

    #[test]
    fn a_small_list_is_whole_at_once() {
        let map = created(AT_ONCE);
        let opts = options(&master_select(&map, &[3], false));
        assert_eq!(opts.len(), AT_ONCE);
        assert!(opts
            .iter()
            .enumerate()
            .all(|(i, (v, s))| *v == i.to_string() && *s == (i == 3)));
        assert_eq!(options(&master_select(&map, &[], true)).len(), AT_ONCE + 1);
    }

    #[test]
    fn options_are_equal_while_the_nodes_are() {
        let map = created(1000);
        let mut moved = (*map).clone();
        for slot in 0..100 {
            moved.assign(slot, Some(999));
        }
        let props = |map: &Rc<SlotMap>| MasterOptionsProps {
            map: map.clone(),
            selected: Rc::from([1usize].as_slice()),
            wanted: true,
            head: 0,
        };
        // A reshard moves slots, not nodes: the options do not render again.
        assert!(props(&map) == props(&Rc::new(moved)));
        assert!(props(&map) != props(&created(999)));
        let other = MasterOptionsProps {
            selected: Rc::from([2usize].as_slice()),
            ..props(&map)
        };
        assert!(props(&map) != other);
        let left = MasterOptionsProps {
            wanted: false,
            ..props(&map)
        };
        assert!(props(&map) != left);
    }
}
