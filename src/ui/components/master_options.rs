//! The `<option>`s that name a cluster's nodes in a `<select>` (the lab's reshard from/to and
//! move-to, the planner's node), as components of their own: they render again only when the
//! cluster, the selection or their words change (not on every keystroke or language switch of
//! the card around them), and a large cluster's options come after the cluster itself, `CHUNK`
//! a task, so switching to 1000 masters paints without first building 3,000 options and the
//! page answers while they come (issue 17).

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
/// in any case, so the `<select>` shows and says the same meanwhile): all of them once the
/// whole list was built for these nodes, else none at first and `CHUNK` more a task at a time.
#[hook]
fn use_ready(map: &Rc<SlotMap>, n: usize) -> usize {
    // The cluster whose whole list was last rendered: a change that keeps every node's address
    // (a reshard, a rebalance) keeps the list whole, with nothing to rebuild. A small list is
    // whole too, so it is recorded as well: 1000 masters, then 6, then 1000 again is a new
    // list that waits its task (it used to be built at once, as if unchanged: the second switch
    // to 1000 masters cost twice the first, issue 17).
    let whole = use_mut_ref(|| None::<Rc<SlotMap>>);
    // The list being built: its cluster and how many of its options are rendered.
    let building = use_mut_ref(|| None::<(Rc<SlotMap>, usize)>);
    let redraw = use_force_update();
    let is_ready = n <= AT_ONCE || whole.borrow().as_ref().is_some_and(|r| same_nodes(r, map));
    if is_ready && !whole.borrow().as_ref().is_some_and(|r| Rc::ptr_eq(r, map)) {
        *whole.borrow_mut() = Some(map.clone());
    }
    let shown = if is_ready {
        *building.borrow_mut() = None;
        n
    } else {
        // A change that keeps the nodes (a reshard while the list is built) keeps its progress.
        let kept = building
            .borrow()
            .as_ref()
            .filter(|(m, _)| same_nodes(m, map))
            .map_or(0, |&(_, k)| k);
        *building.borrow_mut() = Some((map.clone(), kept));
        kept
    };
    use_effect_with(
        (map.clone(), shown, is_ready),
        move |(map, shown, is_ready)| {
            let timeout = (!*is_ready).then(|| {
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
        },
    );
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
#[derive(Properties, PartialEq)]
pub struct MasterOptionsProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// The master indices selected.
    pub selected: Rc<[usize]>,
}

/// `<option>`s naming each master by address, valued by its index.
#[function_component(MasterOptions)]
pub fn master_options(props: &MasterOptionsProps) -> Html {
    let masters = props.map.masters();
    let shown = use_ready(&props.map, masters.len());
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
#[derive(Properties, PartialEq)]
pub struct NodeOptionsProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// The selected node's address.
    pub selected: AttrValue,
    /// The words for a master and a replica, after each address.
    pub roles: [&'static str; 2],
}

/// `<option>`s naming every node (each master, then its replicas) by address and role, valued
/// by address.
#[function_component(NodeOptions)]
pub fn node_options(props: &NodeOptionsProps) -> Html {
    let map = &props.map;
    let n = map.masters().iter().map(|m| 1 + m.replicas.len()).sum();
    let shown = use_ready(map, n);
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
