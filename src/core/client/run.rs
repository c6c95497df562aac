//! One command through a client: every request, reply, ASKING, slot-table update, back-off and give-up it causes, in order; and a command's typed and RESP forms.

use super::*;
use crate::core::server::reply::ClusterDown;

/// `args` as typed at redis-cli's prompt: plain words as they are, others in double quotes
/// with redis-cli's escapes.
pub fn typed_form(args: &[Vec<u8>]) -> String {
    let mut out = String::new();
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let plain = !arg.is_empty()
            && arg
                .iter()
                .all(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\'' | b'\\'));
        if plain {
            out.push_str(&String::from_utf8_lossy(arg));
        } else {
            out.push('"');
            push_formatted(&mut out, arg);
            out.push('"');
        }
    }
    out
}

/// The RESP form of a request: an array of bulk strings.
pub fn request_resp(args: &[Vec<u8>]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for arg in args {
        out.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
        out.extend_from_slice(arg);
        out.extend_from_slice(b"\r\n");
    }
    out
}

pub(super) fn node(addr: &str) -> Endpoint {
    Endpoint::Node(addr.to_owned())
}

pub(super) fn request(from: Endpoint, addr: &str, args: &[Vec<u8>], narration: Narration) -> Event {
    Event {
        from,
        to: node(addr),
        kind: EventKind::Request {
            args: args.to_vec(),
        },
        narration,
        cli: typed_form(args),
        resp: request_resp(args),
    }
}

pub(super) fn reply_event(
    addr: &str,
    to: Endpoint,
    args: &[Vec<u8>],
    reply: Reply,
    narration: Narration,
) -> Event {
    Event {
        from: node(addr),
        to,
        cli: cli_text(args, &reply),
        resp: reply.to_resp(),
        kind: EventKind::Reply { reply },
        narration,
    }
}

pub(super) fn self_event(kind: EventKind, narration: Narration) -> Event {
    Event {
        from: Endpoint::Client,
        to: Endpoint::Client,
        kind,
        narration,
        cli: String::new(),
        resp: Vec::new(),
    }
}

/// What a reply means.
pub(super) fn explain_reply(reply: &Reply, addr: &str) -> Narration {
    let addr = addr.to_owned();
    if let Some(r) = Redirect::of(reply) {
        return if r.ask {
            Narration::Ask {
                addr,
                slot: r.slot,
                target: r.addr,
            }
        } else {
            Narration::Moved {
                addr,
                slot: r.slot,
                target: r.addr,
            }
        };
    }
    match reply {
        Reply::Error(ErrorReply::TryAgain) => Narration::TryAgain { addr },
        Reply::Error(ErrorReply::CrossSlot) => Narration::CrossSlot { addr },
        Reply::Error(ErrorReply::ClusterDown(ClusterDown::Down)) => {
            Narration::ClusterStateFail { addr }
        }
        Reply::Error(ErrorReply::ClusterDown(_)) => Narration::ClusterDown { addr },
        Reply::Error(e) => Narration::Error {
            addr,
            error: e.clone(),
        },
        _ => Narration::Served { addr },
    }
}

/// The command's first key, if it has keys.
pub(super) fn first_key(args: &[Vec<u8>]) -> Option<&[u8]> {
    let spec = crate::core::server::command::key_positions(args).ok()?;
    spec.keys(args).first().copied()
}

/// The command's name in capitals (`MGET`), as the libraries compare it.
fn command_name(args: &[Vec<u8>]) -> String {
    args.first()
        .map(|a| String::from_utf8_lossy(a).to_ascii_uppercase())
        .unwrap_or_default()
}

/// One part of a command split by slot.
struct Part {
    /// The slot.
    slot: u16,
    /// Its arguments, name first.
    args: Vec<Vec<u8>>,
    /// The indices of the keys it carries among the command's keys.
    keys: Vec<usize>,
}

/// Commands a library splits whose arguments after the name are key-value pairs.
const PAIRS: &[&str] = &["MSET", "MSETNX"];

/// Sends `args` through `client` to `cluster` and returns every arrow it caused, in order.
///
/// A library first looks at the command's keys: keys in several slots are refused before
/// sending (Jedis, redis-py), or split into one command per slot whose replies are put back
/// together (Lettuce, redis-rs, redis-py's DEL/EXISTS/TOUCH/UNLINK), or sent as they are.
/// Then the client picks the node from its slot table (redis-cli -c: the node it is connected
/// to) and follows its [`Policy`]. It always stops: after a reply that is not a redirection
/// or a TRYAGAIN it retries, or when its budget is spent (the next redirection or TRYAGAIN is
/// handed to the application).
pub fn run(cluster: &mut Cluster, client: &mut Client, args: &[Vec<u8>]) -> Vec<Event> {
    let mut events = Vec::new();
    if let Some(lib) = client.library_of() {
        let b = lib.behaviour();
        let keys = crate::core::server::command::key_positions(args)
            .map(|spec| spec.keys(args).into_iter().map(<[u8]>::to_vec).collect())
            .unwrap_or_else(|_| Vec::<Vec<u8>>::new());
        let mut slots: Vec<u16> = Vec::new();
        for k in &keys {
            let s = client
                .rule
                .route_slot(k)
                .unwrap_or_else(|| crate::core::key::slot::key_slot(k));
            if !slots.contains(&s) {
                slots.push(s);
            }
        }
        if slots.len() > 1 {
            let name = command_name(args);
            if b.cross_slot.splits.contains(&name.as_str()) {
                if let Some(parts) = split_parts(client, args, &name) {
                    split(cluster, client, args, &name, lib, parts, &mut events);
                    return events;
                }
            } else if let library::CrossSlotOther::Refused {
                exception,
                message,
                with_command,
            } = b.cross_slot.others
            {
                let message = if with_command {
                    format!("{name} - {message}")
                } else {
                    message.to_owned()
                };
                events.push(self_event(
                    EventKind::GiveUp {
                        reason: GiveUpReason::KeysInSeveralSlots { exception, message },
                    },
                    Narration::Refused {
                        library: lib,
                        command: name,
                        slots,
                    },
                ));
                return events;
            }
        }
    }
    run_one(cluster, client, args, &mut events);
    events
}

/// `args` split by slot, keys in order of first appearance within each part and parts in
/// order of their first key; `None` when the arguments do not fit the command's shape (the
/// node is left to answer).
fn split_parts(client: &Client, args: &[Vec<u8>], name: &str) -> Option<Vec<Part>> {
    let rest = args.get(1..)?;
    let step = if PAIRS.contains(&name) { 2 } else { 1 };
    if rest.is_empty() || rest.len() % step != 0 {
        return None;
    }
    let head = args.first()?.clone();
    let mut parts: Vec<Part> = Vec::new();
    for (i, chunk) in rest.chunks(step).enumerate() {
        let key = chunk.first()?;
        let slot = client
            .rule
            .route_slot(key)
            .unwrap_or_else(|| crate::core::key::slot::key_slot(key));
        match parts.iter_mut().find(|p| p.slot == slot) {
            Some(p) => {
                p.args.extend(chunk.iter().cloned());
                p.keys.push(i);
            }
            None => {
                let mut args = vec![head.clone()];
                args.extend(chunk.iter().cloned());
                parts.push(Part {
                    slot,
                    args,
                    keys: vec![i],
                });
            }
        }
    }
    Some(parts)
}

/// Sends each part as its own command, then puts the replies back together as the library
/// does: MGET's values in the keys' order, DEL/EXISTS/UNLINK/TOUCH's counts summed, MSETNX 1
/// only if every part set its keys, MSET/WATCH `OK`; the first error wins.
fn split(
    cluster: &mut Cluster,
    client: &mut Client,
    args: &[Vec<u8>],
    name: &str,
    lib: ClientLibrary,
    parts: Vec<Part>,
    events: &mut Vec<Event>,
) {
    events.push(self_event(
        EventKind::Split {
            parts: parts.iter().map(|p| p.args.clone()).collect(),
        },
        Narration::Split {
            library: lib,
            command: name.to_owned(),
            slots: parts.iter().map(|p| p.slot).collect(),
        },
    ));
    let n_keys: usize = parts.iter().map(|p| p.keys.len()).sum();
    let mut values: Vec<Reply> = vec![Reply::Bulk(None); n_keys];
    let mut total: i64 = 0;
    let mut all_set = true;
    let mut error: Option<Reply> = None;
    for part in &parts {
        let reply = run_one(cluster, client, &part.args, events);
        match reply {
            Some(Reply::Array(items)) => {
                for (i, item) in part.keys.iter().zip(items) {
                    if let Some(cell) = values.get_mut(*i) {
                        *cell = item;
                    }
                }
            }
            Some(Reply::Int(n)) => {
                total = total.saturating_add(n);
                all_set &= n == 1;
            }
            Some(Reply::Ok) | Some(Reply::Status(_)) => {}
            Some(e @ Reply::Error(_)) => {
                error.get_or_insert(e);
            }
            Some(Reply::Bulk(_) | Reply::NilArray) => {}
            None => {
                // The part gave up: the application gets that failure.
                return;
            }
        }
    }
    let reply = match (error, name) {
        (Some(e), _) => e,
        (None, "MGET") => Reply::Array(values),
        (None, "MSETNX") => Reply::Int(i64::from(all_set)),
        (None, "MSET" | "WATCH") => Reply::Ok,
        (None, _) => Reply::Int(total),
    };
    events.push(Event {
        cli: cli_text(args, &reply),
        resp: reply.to_resp(),
        ..self_event(
            EventKind::Reassembled { reply },
            Narration::Reassembled {
                command: name.to_owned(),
                parts: u32::try_from(parts.len()).unwrap_or(u32::MAX),
            },
        )
    })
}

/// A full refresh of the client's slot map, as its library sends it: the request(s), the
/// reply(s), and the table replaced.
fn refresh(
    cluster: &mut Cluster,
    client: &mut Client,
    b: &library::Behaviour,
    answering: &str,
    named: &str,
    after: RefreshCause,
    events: &mut Vec<Event>,
) {
    use library::RefreshFrom;
    let args = b.refresh.command.args();
    let nodes: Vec<String> = match b.refresh.from {
        RefreshFrom::Random => vec![named.to_owned()],
        RefreshFrom::Answering => vec![answering.to_owned()],
        RefreshFrom::Startup => vec![client
            .known_nodes()
            .first()
            .cloned()
            .unwrap_or_else(|| named.to_owned())],
        RefreshFrom::Every => client.known_nodes().to_vec(),
    };
    for addr in &nodes {
        events.push(request(
            Endpoint::Client,
            addr,
            &args,
            Narration::RefreshSends {
                library: Some(b.library),
                command: typed_form(&args),
                addr: addr.clone(),
                background: b.refresh.background,
                after,
            },
        ));
        // A connection of its own (ioredis duplicates one; the others use a pooled one that
        // carries no ASKING).
        let reply = cluster.exec(addr, &args, &mut Session::new());
        events.push(reply_event(
            addr,
            Endpoint::Client,
            &args,
            reply,
            Narration::MapReply { addr: addr.clone() },
        ));
    }
    let before: Vec<Option<String>> = (0..N_SLOTS)
        .map(|s| {
            u16::try_from(s)
                .ok()
                .and_then(|s| client.route(s).map(str::to_owned))
        })
        .collect();
    client.replace_table(cluster.map());
    let changed = before
        .iter()
        .enumerate()
        .filter(|(s, old)| {
            let now = u16::try_from(*s).ok().and_then(|s| client.route(s));
            now != old.as_deref()
        })
        .count();
    events.push(self_event(
        EventKind::TableRefresh {
            table: client.table(),
        },
        Narration::TableRefreshed {
            changed: u32::try_from(changed).unwrap_or(u32::MAX),
        },
    ));
}

/// One command (or one part of a split one) through the client's redirect handling; the
/// reply the application gets, or `None` when the client gave up.
fn run_one(
    cluster: &mut Cluster,
    client: &mut Client,
    args: &[Vec<u8>],
    events: &mut Vec<Event>,
) -> Option<Reply> {
    use library::{OnMoved, OnTryAgain, RetryAt};
    let behaviour = client.library_of().map(ClientLibrary::behaviour);
    let key = first_key(args);
    // The slot the client computes, by its own rule (`None`: it sends to any node).
    let slot = key.and_then(|k| client.rule.route_slot(k));
    let route_of = |client: &Client| -> String {
        match (client.policy, slot) {
            (Policy::RedisCliC, _) | (_, None) => client.connected.clone(),
            (_, Some(s)) => client
                .route(s)
                .map(str::to_owned)
                .unwrap_or_else(|| client.connected.clone()),
        }
    };
    let mut target = route_of(client);
    let mut asking = false;
    // The slot of the MOVED the client is following, if it is following one.
    let mut moved: Option<u16> = None;
    // Why a TRYAGAIN retry goes where it goes, if this send is one.
    let mut retry_why: Option<SendReason> = None;
    // Redirections and TRYAGAIN retries followed (one budget in every library).
    let mut followed = 0u32;
    let mut tryagains = 0u32;
    let mut sends = 0u32;
    let mut refreshed = false;
    let name = typed_form(args.get(..1).unwrap_or(&[]));
    loop {
        if asking {
            let asking_args = vec![b"ASKING".to_vec()];
            events.push(Event {
                kind: EventKind::Asking,
                ..request(
                    Endpoint::Client,
                    &target,
                    &asking_args,
                    Narration::ClientSendsAsking {
                        addr: target.clone(),
                    },
                )
            });
            let reply = cluster.exec(&target, &asking_args, client.session(&target));
            let narration = Narration::AskingAccepted {
                addr: target.clone(),
            };
            events.push(reply_event(
                &target,
                Endpoint::Client,
                &asking_args,
                reply,
                narration,
            ));
        }
        let why = match (client.policy, slot, moved) {
            _ if asking => SendReason::Ask,
            _ if retry_why.is_some() => retry_why.clone().unwrap_or(SendReason::NoKey),
            (Policy::RedisCliC, ..) => SendReason::Connected,
            // Following a MOVED to a node its table does not name for the slot it computed.
            (_, Some(s), Some(m)) if client.route(s) != Some(target.as_str()) => {
                SendReason::Moved { slot: m }
            }
            (_, Some(s), _) if client.route(s).is_none() => SendReason::NoRoute { slot: s },
            (_, Some(s), _) => SendReason::SlotTable { slot: s },
            (_, None, _) if key.is_some() => SendReason::EmptyKey,
            (_, None, _) => SendReason::NoKey,
        };
        events.push(request(
            Endpoint::Client,
            &target,
            args,
            Narration::ClientSends {
                command: name.clone(),
                addr: target.clone(),
                why,
            },
        ));
        sends = sends.saturating_add(1);
        let reply = cluster.exec(&target, args, client.session(&target));
        // A node whose process is down (the cluster follows a bus) sends nothing back.
        if let Some(NotRun::NodeDown { addr, hung }) = reply.error().and_then(ErrorReply::note) {
            let mut ev = self_event(
                EventKind::GiveUp {
                    reason: GiveUpReason::Unreachable {
                        addr: addr.clone(),
                        hung: *hung,
                    },
                },
                Narration::Unreachable {
                    addr: addr.clone(),
                    hung: *hung,
                },
            );
            if !*hung {
                // What redis-cli 7.0.15 prints for a port nobody listens on.
                ev.cli = format!("Could not connect to Redis at {addr}: Connection refused\n");
            }
            events.push(ev);
            return None;
        }
        asking = false;
        moved = None;
        retry_why = None;
        let mut ev = reply_event(
            &target,
            Endpoint::Client,
            args,
            reply.clone(),
            explain_reply(&reply, &target),
        );
        if let Some(r) = Redirect::of(&reply) {
            if followed >= client.max_redirects {
                events.push(ev);
                events.push(self_event(
                    EventKind::GiveUp {
                        reason: GiveUpReason::TooManyRedirects {
                            followed,
                            limit: client.max_redirects,
                        },
                    },
                    Narration::GiveUpRedirects { followed },
                ));
                return None;
            }
            followed += 1;
            match (client.policy, behaviour) {
                (Policy::RedisCliC, _) => {
                    ev.cli = format!("-> Redirected to slot [{}] located at {}\n", r.slot, r.addr);
                    events.push(ev);
                    client.connected = r.addr.clone();
                    // redis-cli opens a new connection: the old one's flags are gone.
                    client.sessions.remove(&r.addr);
                    asking = r.ask;
                    target = r.addr;
                }
                (Policy::Library(_), Some(b)) if r.ask => {
                    events.push(ev);
                    if b.refresh_on_ask && !refreshed {
                        refreshed = true;
                        let answering = target.clone();
                        refresh(
                            cluster,
                            client,
                            b,
                            &answering,
                            &r.addr,
                            RefreshCause::Ask,
                            events,
                        );
                    }
                    asking = true;
                    target = r.addr;
                }
                (Policy::Library(_), Some(b)) => {
                    events.push(ev);
                    let answering = target.clone();
                    let (patch, cause) = match b.on_moved {
                        OnMoved::PatchAndRefresh => (true, Some(RefreshCause::Moved)),
                        OnMoved::Refresh => (false, Some(RefreshCause::Moved)),
                        OnMoved::PatchOrEveryNthRefresh { every } => {
                            client.moved_seen = client.moved_seen.saturating_add(1);
                            if every > 0 && client.moved_seen.is_multiple_of(every) {
                                (false, Some(RefreshCause::NthMoved { every }))
                            } else {
                                (true, None)
                            }
                        }
                    };
                    if patch {
                        patch_entry(client, &r, slot, events);
                    }
                    if let Some(cause) = cause.filter(|_| !refreshed) {
                        refreshed = true;
                        refresh(cluster, client, b, &answering, &r.addr, cause, events);
                    }
                    moved = Some(r.slot);
                    target = r.addr;
                }
                _ => {
                    // The MOVED-only teaching client: ASK taken for MOVED.
                    events.push(ev);
                    patch_entry(client, &r, slot, events);
                    moved = Some(r.slot);
                    target = r.addr;
                }
            }
            continue;
        }
        let tryagain = matches!(&reply, Reply::Error(ErrorReply::TryAgain));
        events.push(ev);
        let retry = match behaviour.map(|b| b.on_tryagain) {
            Some(OnTryAgain::Retry { at, delay }) if tryagain => Some((at, delay)),
            _ => None,
        };
        if let Some((at, delay)) = retry {
            if followed >= client.max_redirects {
                events.push(self_event(
                    EventKind::GiveUp {
                        reason: GiveUpReason::StillSplit { retries: tryagains },
                    },
                    Narration::GiveUpTryAgain { retries: tryagains },
                ));
                return None;
            }
            followed += 1;
            tryagains += 1;
            let (min_ms, max_ms) = delay.range_ms(tryagains, sends);
            events.push(self_event(
                EventKind::Backoff {
                    attempt: tryagains,
                    min_ms,
                    max_ms,
                },
                Narration::Backoff {
                    attempt: tryagains,
                    min_ms,
                    max_ms,
                },
            ));
            match at {
                RetryAt::SlotTable => target = route_of(client),
                RetryAt::SameNode => retry_why = Some(SendReason::SameNode),
                RetryAt::RandomMaster => {
                    // No random numbers here: the masters in turn.
                    let nodes = client.known_nodes();
                    if let Some(n) =
                        nodes.get(usize::try_from(tryagains - 1).unwrap_or(0) % nodes.len().max(1))
                    {
                        target = n.clone();
                    }
                    retry_why = Some(SendReason::RandomMaster);
                }
            }
            continue;
        }
        return Some(reply);
    }
}

/// Rewrites the one entry a MOVED (or an ASK a MOVED-only client takes for one) names, with
/// its arrow.
fn patch_entry(client: &mut Client, r: &Redirect, slot: Option<u16>, events: &mut Vec<Event>) {
    let old = client.route(r.slot).map(str::to_owned);
    client.set_route(r.slot, &r.addr);
    // A client whose rule gives another slot than the MOVED's keeps looking the key up
    // there: this update does not help its next command.
    let own = slot
        .filter(|s| *s != r.slot && !r.ask)
        .and_then(|s| client.route(s).map(|a| (s, a.to_owned())));
    let narration = match own {
        Some((own_slot, own_addr)) if own_addr != r.addr => Narration::TableUpdateInVain {
            slot: r.slot,
            addr: r.addr.clone(),
            old: old.clone(),
            own_slot,
            own_addr,
        },
        _ => Narration::TableUpdate {
            slot: r.slot,
            addr: r.addr.clone(),
            old: old.clone(),
            ask_as_moved: r.ask,
        },
    };
    events.push(self_event(
        EventKind::TableUpdate {
            slot: r.slot,
            old,
            new: r.addr.clone(),
        },
        narration,
    ));
}
