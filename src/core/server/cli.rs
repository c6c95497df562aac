//! redis-cli talking to the engine: one-shot or interactive, with `-c` following MOVED and
//! ASK (and printing `-> Redirected to slot …` as the real one does), and what it prints.

use super::reply::{cli_text, ErrorReply, Reply};
use super::route::Session;
use super::Cluster;
use crate::core::key::args::split_args;
use crate::core::key::escape::EscapeError;

/// A redirection redis-cli followed in cluster mode (`-c`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    /// The slot named in the MOVED or ASK error.
    pub slot: u16,
    /// Where redis-cli went next.
    pub addr: String,
    /// Whether it was ASK (redis-cli sends ASKING first) rather than MOVED.
    pub ask: bool,
}

impl Redirect {
    /// The redirection a `MOVED` or `ASK` error reply names, if the reply is one.
    pub fn of(reply: &Reply) -> Option<Redirect> {
        match reply {
            Reply::Error(ErrorReply::Moved { slot, addr }) => Some(Redirect {
                slot: *slot,
                addr: addr.clone(),
                ask: false,
            }),
            Reply::Error(ErrorReply::Ask { slot, addr }) => Some(Redirect {
                slot: *slot,
                addr: addr.clone(),
                ask: true,
            }),
            _ => None,
        }
    }
}

/// What redis-cli did with one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliOutput {
    /// The redirections it followed, in order (only with `-c`).
    pub redirects: Vec<Redirect>,
    /// The reply it printed, or `None` if it could not reach the node.
    pub reply: Option<Reply>,
    /// Exactly what it printed.
    pub text: String,
}

/// What redis-cli's interactive mode did with a typed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A blank line: nothing is sent.
    Blank,
    /// `quit` or `exit`: redis-cli ends.
    Quit,
    /// The line could not be split (redis-cli prints `Invalid argument(s)`).
    Invalid(EscapeError),
    /// The command was sent.
    Sent(CliOutput),
}

impl Typed {
    /// What redis-cli printed for the line.
    pub fn text(&self) -> String {
        match self {
            Typed::Blank | Typed::Quit => String::new(),
            Typed::Invalid(_) => "Invalid argument(s)\n".to_owned(),
            Typed::Sent(out) => out.text.clone(),
        }
    }
}

/// How many redirections redis-cli follows for one command before the page gives up
/// (the real one loops for ever).
const MAX_REDIRECTS: usize = 16;

/// redis-cli connected to one node of a [`Cluster`]: `-c` or not, interactive or one-shot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    addr: String,
    cluster_mode: bool,
    interactive: bool,
    in_multi: bool,
    session: Session,
}

impl Cli {
    /// `redis-cli [-c] -h host -p port`, connected to `addr` (`127.0.0.1:7000`).
    pub fn new(addr: impl Into<String>, cluster_mode: bool, interactive: bool) -> Cli {
        Cli {
            addr: addr.into(),
            cluster_mode,
            interactive,
            in_multi: false,
            session: Session::new(),
        }
    }

    /// The node it is connected to (it changes when `-c` follows a redirection).
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// The connection's state on the server side.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The interactive prompt, as redis-cli shows it: `127.0.0.1:7000> `, or
    /// `127.0.0.1:7000(TX)> ` inside MULTI.
    pub fn prompt(&self) -> String {
        let tx = if self.in_multi { "(TX)" } else { "" };
        format!("{}{tx}> ", self.addr)
    }

    /// Sends one command and follows MOVED/ASK with `-c` (printing `-> Redirected to slot [N]
    /// located at ADDR` in interactive mode only, as redis-cli does).
    pub fn send(&mut self, cluster: &mut Cluster, args: &[Vec<u8>]) -> CliOutput {
        let mut redirects: Vec<Redirect> = Vec::new();
        let mut text = String::new();
        let mut send_asking = false;
        loop {
            if !cluster.has_node(&self.addr) {
                text.push_str(&format!(
                    "Could not connect to Redis at {}: Connection refused\n",
                    self.addr
                ));
                return CliOutput {
                    redirects,
                    reply: None,
                    text,
                };
            }
            if send_asking {
                cluster.exec(&self.addr, &[b"ASKING".to_vec()], &mut self.session);
            }
            let reply = cluster.exec(&self.addr, args, &mut self.session);
            if self.cluster_mode
                && redirects.len() < MAX_REDIRECTS
                && let Some(redirect) = Redirect::of(&reply)
            {
                if self.interactive {
                    text.push_str(&format!(
                        "-> Redirected to slot [{}] located at {}\n",
                        redirect.slot, redirect.addr
                    ));
                }
                // A new connection: the old one's MULTI and flags are gone.
                self.addr = redirect.addr.clone();
                self.session = Session::new();
                self.in_multi = false;
                send_asking = redirect.ask;
                redirects.push(redirect);
                continue;
            }
            let name = |word: &[u8]| {
                args.len() == 1 && args.first().is_some_and(|a| a.eq_ignore_ascii_case(word))
            };
            if name(b"multi") && !reply.is_error() {
                self.in_multi = true;
            } else if (name(b"exec") && self.in_multi) || (name(b"discard") && !reply.is_error()) {
                self.in_multi = false;
            }
            text.push_str(&cli_text(args, &reply));
            return CliOutput {
                redirects,
                reply: Some(reply),
                text,
            };
        }
    }

    /// A line typed at the interactive prompt: split as redis-cli splits it, then sent.
    pub fn type_line(&mut self, cluster: &mut Cluster, line: &str) -> Typed {
        let args = match split_args(line) {
            Ok(args) => args,
            Err(e) => return Typed::Invalid(e),
        };
        match args.first() {
            None => Typed::Blank,
            Some(first)
                if first.eq_ignore_ascii_case(b"quit") || first.eq_ignore_ascii_case(b"exit") =>
            {
                Typed::Quit
            }
            Some(_) => Typed::Sent(self.send(cluster, &args)),
        }
    }
}
