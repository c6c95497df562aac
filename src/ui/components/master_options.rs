//! The `<option>`s that name a cluster's nodes in a `<select>` (the lab's reshard from/to and
//! move-to, the planner's node), as components of their own: they render again only when the
//! cluster, the selection or their words change (not on every keystroke or language switch of
//! the card around them), and a large cluster's options come a task after the cluster itself,
//! so switching to 1000 masters paints without first building 3,000 options (issue 17).

use crate::core::SlotMap;
use std::rc::Rc;
use yew::prelude::*;

/// Clusters up to this many masters get every option at once (a small list costs nothing,
/// and the tests count a small cluster's options right after it changes).
pub const AT_ONCE: usize = 64;

/// Whether a list of `n` options waits a task: rendered first with the selected ones only
/// (the `<select>` shows and says the same), then whole. Until then `ready` is not `map`.
#[hook]
fn use_ready(map: &Rc<SlotMap>, n: usize) -> bool {
    // The cluster whose whole list was last rendered: a change that keeps every node's address
    // (a reshard, a rebalance) keeps the list whole, with nothing to rebuild. A small list is
    // whole too, so it is recorded as well: 1000 masters, then 6, then 1000 again is a new
    // list that waits its task (it used to be built at once, as if unchanged: the second switch
    // to 1000 masters cost twice the first, issue 17).
    let whole = use_mut_ref(|| None::<Rc<SlotMap>>);
    let redraw = use_force_update();
    let is_ready = n <= AT_ONCE || whole.borrow().as_ref().is_some_and(|r| same_nodes(r, map));
    if is_ready && !whole.borrow().as_ref().is_some_and(|r| Rc::ptr_eq(r, map)) {
        *whole.borrow_mut() = Some(map.clone());
    }
    use_effect_with((map.clone(), is_ready), move |(map, is_ready)| {
        let timeout = (!*is_ready).then(|| {
            let map = map.clone();
            gloo_timers::callback::Timeout::new(0, move || {
                *whole.borrow_mut() = Some(map);
                redraw.force_update();
            })
        });
        move || drop(timeout)
    });
    is_ready
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
    let ready = use_ready(&props.map, masters.len());
    let option = |idx: usize| {
        masters.get(idx).map(|m| {
            html! {
                <option key={idx} value={idx.to_string()} selected={props.selected.contains(&idx)}>{ &m.addr }</option>
            }
        })
    };
    if ready {
        (0..masters.len()).filter_map(option).collect()
    } else {
        let mut picked: Vec<usize> = props.selected.to_vec();
        picked.sort_unstable();
        picked.dedup();
        picked.into_iter().filter_map(option).collect()
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
    let ready = use_ready(map, n);
    let nodes = map.masters().iter().flat_map(|m| {
        std::iter::once((&m.addr, props.roles[0]))
            .chain(m.replicas.iter().map(|r| (&r.addr, props.roles[1])))
    });
    let selected = props.selected.as_str();
    nodes
        .filter(|(addr, _)| ready || addr.as_str() == selected)
        .map(|(addr, role)| html! {
            <option key={addr.as_str()} value={addr.clone()} selected={addr.as_str() == selected}>{ format!("{addr} ({role})") }</option>
        })
        .collect()
}
