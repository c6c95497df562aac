//! One command through a client: every request, reply, ASKING, slot-table update, back-off and give-up it causes, in order; and a command's typed and RESP forms.

use super::*;

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

/// Sends `args` through `client` to `cluster` and returns every arrow it caused, in order.
///
/// The client picks the node from its slot table (redis-cli -c: the node it is connected to),
/// then follows its [`Policy`]. It always stops: after a reply that is not a redirection or
/// TRYAGAIN, after `max_redirects` followed redirections (the next one makes it give up), or
/// after `max_tryagain` retries.
pub fn run(cluster: &mut Cluster, client: &mut Client, args: &[Vec<u8>]) -> Vec<Event> {
    let mut events = Vec::new();
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
    let mut redirects = 0u32;
    let mut tryagains = 0u32;
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
        let reply = cluster.exec(&target, args, client.session(&target));
        asking = false;
        moved = None;
        let mut ev = reply_event(
            &target,
            Endpoint::Client,
            args,
            reply.clone(),
            explain_reply(&reply, &target),
        );
        if let Some(r) = Redirect::of(&reply) {
            if redirects >= client.max_redirects {
                events.push(ev);
                events.push(self_event(
                    EventKind::GiveUp {
                        reason: GiveUpReason::TooManyRedirects {
                            followed: redirects,
                            limit: client.max_redirects,
                        },
                    },
                    Narration::GiveUpRedirects {
                        followed: redirects,
                    },
                ));
                return events;
            }
            redirects += 1;
            match client.policy {
                Policy::RedisCliC => {
                    ev.cli = format!("-> Redirected to slot [{}] located at {}\n", r.slot, r.addr);
                    events.push(ev);
                    client.connected = r.addr.clone();
                    // redis-cli opens a new connection: the old one's flags are gone.
                    client.sessions.remove(&r.addr);
                    asking = r.ask;
                    target = r.addr;
                }
                Policy::Smart if r.ask => {
                    events.push(ev);
                    asking = true;
                    target = r.addr;
                }
                Policy::Smart | Policy::MovedOnly => {
                    events.push(ev);
                    let old = client.route(r.slot).map(str::to_owned);
                    client.set_route(r.slot, &r.addr);
                    // A client whose rule gives another slot than the MOVED's keeps looking
                    // the key up there: this update does not help its next command.
                    let own = slot
                        .filter(|s| *s != r.slot && !r.ask)
                        .and_then(|s| client.route(s).map(|a| (s, a.to_owned())));
                    let narration = match own {
                        Some((own_slot, own_addr)) if own_addr != r.addr => {
                            Narration::TableUpdateInVain {
                                slot: r.slot,
                                addr: r.addr.clone(),
                                old: old.clone(),
                                own_slot,
                                own_addr,
                            }
                        }
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
                    moved = Some(r.slot);
                    target = r.addr;
                }
            }
            continue;
        }
        let tryagain = matches!(&reply, Reply::Error(ErrorReply::TryAgain));
        events.push(ev);
        if tryagain && client.policy != Policy::RedisCliC {
            if tryagains >= client.max_tryagain {
                events.push(self_event(
                    EventKind::GiveUp {
                        reason: GiveUpReason::StillSplit { retries: tryagains },
                    },
                    Narration::GiveUpTryAgain { retries: tryagains },
                ));
                return events;
            }
            tryagains += 1;
            events.push(self_event(
                EventKind::Backoff { attempt: tryagains },
                Narration::Backoff { attempt: tryagains },
            ));
            target = route_of(client);
            continue;
        }
        return events;
    }
}
