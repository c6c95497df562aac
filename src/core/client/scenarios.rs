//! Scenarios: operator and client actions, parsed from lines or built in, played into steps; the page's ready-made stories on the fixtures' cluster.

use super::*;

/// One thing that happens in a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The operator's plain redis-cli sends a command to one node (`CLUSTER SETSLOT`,
    /// `MIGRATE`, or a direct command to show what a node answers). One connection per node
    /// lasts the whole scenario, so `ASKING` on it covers the next command there.
    Operator {
        /// The node's address.
        addr: String,
        /// The command.
        args: Vec<Vec<u8>>,
    },
    /// The application's client sends a command, following its policy.
    Client {
        /// The command.
        args: Vec<Vec<u8>>,
    },
}

/// Why a line typed into free mode is not an action (the page words it in its language).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// `@host:port` with no command after it.
    NoCommand,
    /// A blank line.
    Empty,
    /// The command could not be split into arguments.
    Args(EscapeError),
}

/// A line typed into free mode: an operator command to one node (`@127.0.0.1:7001 CLUSTER
/// SETSLOT …`) or a command for the client.
pub fn parse_action(line: &str) -> Result<Action, ActionError> {
    let line = line.trim();
    let (addr, rest) = match line.strip_prefix('@') {
        Some(r) => match r.split_once(char::is_whitespace) {
            Some((addr, rest)) => (Some(addr.to_string()), rest),
            None => return Err(ActionError::NoCommand),
        },
        None => (None, line),
    };
    let args = split_args(rest).map_err(ActionError::Args)?;
    if args.is_empty() {
        return Err(ActionError::Empty);
    }
    Ok(match addr {
        Some(addr) => Action::Operator { addr, args },
        None => Action::Client { args },
    })
}

/// One step of a scenario: an action and the arrows it caused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What was done.
    pub action: Action,
    /// What it caused, in order.
    pub events: Vec<Event>,
    /// The cluster's slot states and keys before the action, and after it (what the sequence
    /// diagram draws on its lifelines: [`steps::Snapshot`]).
    pub before: steps::Snapshot,
    /// …and after it.
    pub after: steps::Snapshot,
}

/// A ready-made story for the Redirections view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// A stable identifier for links (`live-migration`).
    pub id: &'static str,
    /// A short title, in English (the page words it by `id` in the reader's language).
    pub title: &'static str,
    /// The client's policy.
    pub policy: Policy,
    /// How the client computes a key's slot.
    pub rule: ClientRule,
    /// The client's redirect budget.
    pub max_redirects: u32,
    /// The client's slot table before the first step (ranges and addresses); table updates in
    /// the events change it step by step, and undoing them in reverse steps back.
    pub start_table: Vec<(SlotRange, String)>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

impl Scenario {
    /// Every event of every step, in order (the timeline the page scrubs through).
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.steps.iter().flat_map(|s| s.events.iter())
    }
}

fn words(line: &str) -> Vec<Vec<u8>> {
    split_args(line).unwrap_or_default()
}

/// Runs `actions` on `cluster` with `client`, and records what each caused.
pub fn play(cluster: &mut Cluster, client: &mut Client, actions: Vec<Action>) -> Vec<Step> {
    let mut operator: BTreeMap<String, Session> = BTreeMap::new();
    actions
        .into_iter()
        .map(|action| {
            let before = steps::Snapshot::of(cluster);
            let events = match &action {
                Action::Client { args } => run(cluster, client, args),
                Action::Operator { addr, args } => {
                    let session = operator.entry(addr.clone()).or_default();
                    let req = request(
                        Endpoint::Operator,
                        addr,
                        args,
                        Narration::OperatorSends {
                            command: typed_form(args),
                            addr: addr.clone(),
                        },
                    );
                    let reply = cluster.exec(addr, args, session);
                    let narration = explain_reply(&reply, addr);
                    vec![
                        req,
                        reply_event(addr, Endpoint::Operator, args, reply, narration),
                    ]
                }
            };
            Step {
                action,
                events,
                before,
                after: steps::Snapshot::of(cluster),
            }
        })
        .collect()
}

/// Node ids of the fixtures' masters, as in transcript 07.
const ID_7001: &str = "f7c6b5d608aefdd517b33641eb638ce56252d0b4";
const ID_7002: &str = "44084a172411812451c56a0a3330ec6daa733083";
const M0: &str = "127.0.0.1:7000";
const M1: &str = "127.0.0.1:7001";
const M2: &str = "127.0.0.1:7002";

fn op(addr: &str, line: &str) -> Action {
    Action::Operator {
        addr: addr.to_owned(),
        args: words(line),
    }
}

fn cl(line: &str) -> Action {
    Action::Client { args: words(line) }
}

/// Transcript 07 up to the MIGRATE of `{user:1001}:profile`: the two keys written on 7001,
/// slot 5712 opened on both sides, one key moved.
fn migration_start() -> Vec<Action> {
    vec![
        cl("SET {user:1001}:profile alice"),
        cl("SET {user:1001}:orders 3"),
        op(M2, &format!("CLUSTER SETSLOT 5712 IMPORTING {ID_7001}")),
        op(M1, &format!("CLUSTER SETSLOT 5712 MIGRATING {ID_7002}")),
        op(M1, "MIGRATE 127.0.0.1 7002 {user:1001}:profile 0 5000"),
    ]
}

/// The scenarios that play a disagreeing client rule's MOVED loop on the fixtures' cluster:
/// `(rule, scenario id, title, key)`. Each key is the rule's documented example, or one whose
/// two slots belong to different masters of that cluster, so every command pays a MOVED:
/// `foo{}{bar}` 4015 (7000) for Redis's 8363 (7001); `{a}{b}` 3300 (7000) for 15495 (7002);
/// `naïve` 11246 (7002) for 2847 (7000). An empty key routed to any node has no loop to show.
pub const MOVED_LOOPS: &[(ClientRule, &str, &str, &str)] = &[
    (
        ClientRule::ClusterKeySlot,
        "client-disagrees",
        "A client that hashes keys differently: MOVED on every command",
        "foo{}{bar}",
    ),
    (
        ClientRule::LastBracePair,
        "client-last-brace",
        "A client that takes the last brace pair: MOVED on every command",
        "{a}{b}",
    ),
    (
        ClientRule::Utf16CodeUnits,
        "client-utf16",
        "A client that hashes UTF-16 code units: MOVED on every command",
        "naïve",
    ),
];

/// The id of the scenario that plays `rule`'s MOVED loop, if it has one.
pub fn moved_loop_scenario(rule: ClientRule) -> Option<&'static str> {
    MOVED_LOOPS
        .iter()
        .find(|&&(r, ..)| r == rule)
        .map(|&(_, id, ..)| id)
}

/// A scenario not yet played: its id and title, and how to play it. Playing every scenario
/// takes a while (the failover one runs the cluster-bus simulator), so the page lists them by
/// id and plays only the one it shows.
pub struct Recipe {
    /// The scenario's id.
    pub id: &'static str,
    /// Its title, in English.
    pub title: &'static str,
    make: Make,
}

enum Make {
    Play {
        cluster: Box<Cluster>,
        client: Box<Client>,
        actions: Vec<Action>,
    },
    Built(fn() -> Scenario),
}

impl Recipe {
    /// Plays it.
    pub fn play(self) -> Scenario {
        match self.make {
            Make::Built(f) => f(),
            Make::Play {
                mut cluster,
                mut client,
                actions,
            } => {
                let start_table = client.table();
                let rule = client.rule();
                let (policy, max_redirects) = (client.policy(), client.max_redirects());
                let steps = play(&mut cluster, &mut client, actions);
                Scenario {
                    id: self.id,
                    title: self.title,
                    policy,
                    rule,
                    max_redirects,
                    start_table,
                    steps,
                }
            }
        }
    }
}

fn scenario(
    id: &'static str,
    title: &'static str,
    cluster: Cluster,
    client: Client,
    actions: Vec<Action>,
) -> Recipe {
    Recipe {
        id,
        title,
        make: Make::Play {
            cluster: Box::new(cluster),
            client: Box::new(client),
            actions,
        },
    }
}

/// The page's scenarios, played.
pub fn scenarios() -> Vec<Scenario> {
    recipes().into_iter().map(Recipe::play).collect()
}

/// The scenario `id`, played (`None`: no scenario has this id).
pub fn scenario_of(id: &str) -> Option<Scenario> {
    recipes().into_iter().find(|r| r.id == id).map(Recipe::play)
}

/// The page's scenarios, each run on the fixtures' cluster (recorded node ids), with key names
/// from transcripts 02-07, in the player's order, not yet played.
pub fn recipes() -> Vec<Recipe> {
    let fixture = SlotMap::fixture_cluster();
    let lib = |l: ClientLibrary, map: &SlotMap| Client::library(l, map);
    let mut out = Vec::new();

    // (a) A stale route: the client's table still says 7000 serves slot 9779 (as before a
    // reshard moved it); 7001 owns it and holds user:1002. ioredis rewrites the one entry,
    // retries, and refreshes its whole map with CLUSTER SLOTS (lib/cluster/index.ts:543, 551).
    {
        let mut cluster = Cluster::new(fixture.clone());
        let mut session = Session::new();
        cluster.exec(M1, &words("SET user:1002 alice"), &mut session);
        let mut client = lib(ClientLibrary::Ioredis, &fixture);
        client.set_route(9779, M0);
        out.push(scenario(
            "stale-route",
            "Stale route after a reshard: ioredis rewrites the entry, refreshes its map, then goes direct",
            cluster,
            client,
            vec![cl("GET user:1002"), cl("GET user:1002")],
        ));
    }

    // (b) A live migration of slot 5712 from 7001 to 7002, key by key, seen by ioredis (ASK:
    // ASKING and the command, the table untouched, no refresh: index.ts:659).
    {
        let mut actions = migration_start();
        actions.extend([
            cl("GET {user:1001}:profile"),
            cl("GET {user:1001}:orders"),
            op(M2, "GET {user:1001}:profile"),
            op(M2, "ASKING"),
            op(M2, "GET {user:1001}:profile"),
            op(M2, "GET {user:1001}:profile"),
        ]);
        out.push(scenario(
            "live-migration",
            "A live migration: ASK, ASKING, the source still serving, MOVED back from the target",
            Cluster::new(fixture.clone()),
            lib(ClientLibrary::Ioredis, &fixture),
            actions,
        ));
    }

    // (c) TRYAGAIN: an MGET whose keys are split between source and target, until the last
    // key moves, seen by go-redis (three retries with a back-off, then the error:
    // osscluster.go:1299, 1379).
    {
        let mut actions = migration_start();
        actions.extend([
            cl("MGET {user:1001}:profile {user:1001}:orders"),
            op(
                M1,
                "MIGRATE 127.0.0.1 7002 \"\" 0 5000 KEYS {user:1001}:orders",
            ),
            cl("MGET {user:1001}:profile {user:1001}:orders"),
        ]);
        out.push(scenario(
            "tryagain",
            "TRYAGAIN: go-redis retries a multi-key command split across source and target",
            Cluster::new(fixture.clone()),
            lib(ClientLibrary::GoRedis, &fixture),
            actions,
        ));
    }

    // (d) CROSSSLOT, as in transcript 04.
    out.push(scenario(
        "crossslot",
        "CROSSSLOT: keys in different slots",
        Cluster::new(fixture.clone()),
        lib(ClientLibrary::Ioredis, &fixture),
        vec![cl("MSET hello 1 bar 2"), cl("MGET hello bar")],
    ));

    // (e) The end of the migration: SETSLOT NODE everywhere, then the old owner answers MOVED;
    // Jedis renews its whole slot cache on that connection before following it
    // (ClusterCommandExecutor.java:142).
    {
        let mut actions = migration_start();
        actions.extend([
            op(
                M1,
                "MIGRATE 127.0.0.1 7002 \"\" 0 5000 KEYS {user:1001}:orders",
            ),
            op(M2, &format!("CLUSTER SETSLOT 5712 NODE {ID_7002}")),
            op(M1, &format!("CLUSTER SETSLOT 5712 NODE {ID_7002}")),
            op(M0, &format!("CLUSTER SETSLOT 5712 NODE {ID_7002}")),
            cl("GET {user:1001}:profile"),
            cl("GET {user:1001}:orders"),
        ]);
        out.push(scenario(
            "end-of-migration",
            "The end of a migration: SETSLOT NODE, MOVED from the old owner, Jedis renews its whole map",
            Cluster::new(fixture.clone()),
            lib(ClientLibrary::Jedis, &fixture),
            actions,
        ));
    }

    // (f) A MOVED-only client (go-redis's budget of 3) during the same migration.
    {
        let budget = MOVED_ONLY_BUDGET;
        let mut actions = migration_start();
        actions.push(cl("GET {user:1001}:profile"));
        out.push(scenario(
            "moved-only-client",
            "A MOVED-only client during a migration bounces until its redirects run out",
            Cluster::new(fixture.clone()),
            Client::new(Policy::MovedOnly, budget, &fixture),
            actions,
        ));
    }

    // (g) An uncovered slot: nobody serves slot 866 (hello).
    {
        let mut map = fixture.clone();
        map.assign(866, None);
        // Jedis hands CLUSTERDOWN to the application (it retries only redirections and
        // connection errors: ClusterCommandExecutor.java:120-143).
        let client = lib(ClientLibrary::Jedis, &map);
        out.push(scenario(
            "uncovered-slot",
            "An uncovered slot: CLUSTERDOWN Hash slot not served",
            Cluster::new(map),
            client,
            vec![cl("GET hello")],
        ));
    }

    // (h) Clients whose slot rule disagrees with Redis, one scenario per rule that can send a
    // command to the wrong master (see [`MOVED_LOOPS`]). cluster-key-slot 1.1.x hashes
    // `foo{}{bar}` as `{bar` (slot 4015, 7000's) where Redis hashes the whole key (slot 8363,
    // 7001's). Every GET goes to the wrong master first and pays a MOVED; the table update for
    // Redis's slot never helps, because the client looks the key up under its own slot.
    for &(rule, id, title, key) in MOVED_LOOPS {
        let mut cluster = Cluster::new(fixture.clone());
        let mut session = Session::new();
        let get = format!("GET {key}");
        // Written on the master that owns the key's slot by Redis's rule.
        let owner = fixture
            .owner(crate::core::key::slot::key_slot(key.as_bytes()))
            .and_then(|i| fixture.masters().get(i))
            .map_or(M1, |m| m.addr.as_str());
        cluster.exec(owner, &words(&format!("SET {key} hello")), &mut session);
        out.push(scenario(
            id,
            title,
            cluster,
            lib(ClientLibrary::Ioredis, &fixture).with_rule(rule),
            vec![cl(&get), cl(&get), cl(&get)],
        ));
    }
    // (i) Keys in two slots, as two libraries treat them: Lettuce splits the MGET by slot and
    // puts the values back in order (RedisAdvancedClusterAsyncCommandsImpl.java:414); redis-py
    // refuses before sending (redis/cluster.py:1494). Transcript 04's keys: hello (866, 7000)
    // and bar (5061, 7000).
    {
        let mut cluster = Cluster::new(fixture.clone());
        let mut session = Session::new();
        cluster.exec(M0, &words("SET hello 1"), &mut session);
        cluster.exec(M0, &words("SET bar 2"), &mut session);
        out.push(scenario(
            "lettuce-splits",
            "Keys in two slots: Lettuce splits the MGET by slot and puts the replies back together",
            cluster,
            lib(ClientLibrary::Lettuce, &fixture),
            vec![cl("MGET hello bar"), cl("DEL hello bar")],
        ));
        out.push(scenario(
            "redis-py-refuses",
            "Keys in two slots: redis-py refuses the MGET before sending it",
            Cluster::new(fixture.clone()),
            lib(ClientLibrary::RedisPy, &fixture),
            vec![cl("MGET hello bar")],
        ));
    }
    // (j) A client during a failover (failover.rs): Jedis while 7000 dies, 7004 takes over and
    // 7000 comes back, at the instants the bus simulator gives with the fixtures' NT.
    out.push(Recipe {
        id: FAILOVER_ID,
        title: FAILOVER_TITLE,
        make: Make::Built(|| failover_scenario().0),
    });
    out
}

#[cfg(test)]
mod free_line_tests {
    use super::*;

    #[test]
    fn lines_become_client_or_operator_actions() {
        assert!(matches!(parse_action("GET foo"), Ok(Action::Client { .. })));
        match parse_action("@127.0.0.1:7001 CLUSTER SETSLOT 5712 STABLE") {
            Ok(Action::Operator { addr, args }) => {
                assert_eq!(addr, "127.0.0.1:7001");
                assert_eq!(args.len(), 4);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_action("@127.0.0.1:7001"), Err(ActionError::NoCommand));
        assert_eq!(parse_action("   "), Err(ActionError::Empty));
        assert!(matches!(
            parse_action("GET \"x"),
            Err(ActionError::Args(EscapeError::UnclosedQuote {
                column: 5,
                ..
            }))
        ));
    }
}
