//! Share links: the page's whole state as a short, versioned string for the URL fragment, and back.
//!
//! A link is `s=1.` followed by a base64url payload (no padding). The payload is a list of
//! sections, each `[tag][varint length][body][CRC16 of tag, length and body]`, ended by a zero
//! byte. A section equal to its default is left out, so the default state is `s=1.AA`. Each
//! section is checked and restored on its own: a damaged planner section costs the planner
//! input and nothing else. The older form `redirect=<scenario>:<step>` (version 0) still opens.
//!
//! ```
//! use slotscope::core::share::{decode, encode, SharedState};
//! let state = SharedState { key: "foo".into(), ..SharedState::default() };
//! let link = encode(&state).text;
//! assert!(link.starts_with("s=1."));
//! let back = decode(&link);
//! assert_eq!(back.state, state);
//! assert!(back.problems.is_empty());
//! ```

use super::batch::KEY_COMMANDS;
use super::crc16::crc16;
use super::topology::{Master, Replica, SlotMap, SlotRange, TopologyError};
use super::N_SLOTS;
use core::fmt;

/// The prefix of a version-1 link.
pub const PREFIX: &str = "s=1.";
/// The longest fragment [`decode`] reads; longer ones are refused unread.
pub const MAX_LINK_BYTES: usize = 64 << 10;
/// The longest batch text a link carries; a longer batch is left out (and kept in the browser).
pub const MAX_BATCH_BYTES: usize = 8 << 10;
/// The longest key-field text a link carries.
pub const MAX_KEY_TEXT_BYTES: usize = 4 << 10;
/// The longest short field (planner template, counts, node, scenario id) a link carries.
pub const MAX_FIELD_BYTES: usize = 1 << 10;
/// The most masters a `--cluster create` tag may ask for (the page's picker allows as many).
pub const MAX_CREATED_MASTERS: usize = 1000;
/// The key the page opens with.
pub const DEFAULT_KEY: &str = "{user1}:profile";
/// The batch the planner opens with.
pub const DEFAULT_BATCH: &str =
    "MSET a 1 b 2 c 3\nMGET {user1}:a {user1}:b\nMULTI\nSET hello 1\nSET foo 2\nEXEC";

/// The page's language, as a link stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Chinese (simplified).
    Zh,
}

/// Which cluster the page shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Cluster {
    /// [`SlotMap::fixture_cluster`].
    #[default]
    Fixture,
    /// [`SlotMap::created`] with this many masters on 127.0.0.1:7000….
    Created(usize),
    /// Any other map (after a reshard, an add, an import, …), stored in full.
    Custom(SlotMap),
}

impl Cluster {
    /// The shortest description of `map`: the fixtures' cluster, a created one, or the map itself.
    pub fn from_map(map: &SlotMap) -> Cluster {
        let n = map.n_masters();
        if n == 3 && *map == SlotMap::fixture_cluster() {
            return Cluster::Fixture;
        }
        if (1..=MAX_CREATED_MASTERS).contains(&n)
            && map.masters()[0].addr == "127.0.0.1:7000"
            && SlotMap::created(n, "127.0.0.1", 7000).is_ok_and(|c| c == *map)
        {
            return Cluster::Created(n);
        }
        Cluster::Custom(map.clone())
    }

    /// The slot map this describes.
    pub fn to_map(&self) -> Result<SlotMap, TopologyError> {
        match self {
            Cluster::Fixture => Ok(SlotMap::fixture_cluster()),
            Cluster::Created(n) => SlotMap::created(*n, "127.0.0.1", 7000),
            Cluster::Custom(map) => Ok(map.clone()),
        }
    }
}

/// What the fan-out planner holds: its fields as typed or chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannerInput {
    /// The batch text.
    pub text: String,
    /// `commands`, or one of [`KEY_COMMANDS`] (lines are keys for it).
    pub command: String,
    /// The node the batch is sent to (`None`: the first master).
    pub node: Option<String>,
    /// The generator: `template` or `h3`.
    pub gen_kind: String,
    /// The generator's template, as typed.
    pub gen_template: String,
    /// How many keys to generate, as typed.
    pub gen_count: String,
    /// The chunk size, as typed.
    pub chunk: String,
    /// The copy style: `mget`, `eval` or `tagged`.
    pub style: String,
    /// Whether generated keys stand in for the batch (they are generated again on restore).
    pub generated: bool,
}

impl Default for PlannerInput {
    fn default() -> Self {
        PlannerInput {
            text: DEFAULT_BATCH.to_string(),
            command: "commands".to_string(),
            node: None,
            gen_kind: "template".to_string(),
            gen_template: "user:%d".to_string(),
            gen_count: "1000".to_string(),
            chunk: "100".to_string(),
            style: "mget".to_string(),
            generated: false,
        }
    }
}

/// The redirection player's scenario and step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioStep {
    /// The scenario's id (e.g. `live-migration`), as the link has it: the page checks it.
    pub scenario: String,
    /// Steps shown.
    pub step: u32,
}

/// Everything a link carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedState {
    /// The language.
    pub lang: Lang,
    /// The key field's text.
    pub key: String,
    /// The cluster.
    pub cluster: Cluster,
    /// The planner's input.
    pub planner: PlannerInput,
    /// The redirection player (`None`: the first scenario at its start).
    pub redirect: Option<ScenarioStep>,
}

impl Default for SharedState {
    /// The page's opening state.
    fn default() -> Self {
        SharedState {
            lang: Lang::En,
            key: DEFAULT_KEY.to_string(),
            cluster: Cluster::Fixture,
            planner: PlannerInput::default(),
            redirect: None,
        }
    }
}

/// One part of the state, as problems and the encoder's report name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The language.
    Lang,
    /// The key field.
    Key,
    /// The cluster.
    Cluster,
    /// The planner's input.
    Planner,
    /// The redirection scenario and step.
    Scenario,
}

impl Section {
    const ALL: [Section; 5] = [
        Section::Lang,
        Section::Key,
        Section::Cluster,
        Section::Planner,
        Section::Scenario,
    ];

    fn tag(self) -> u8 {
        match self {
            Section::Lang => 1,
            Section::Key => 2,
            Section::Cluster => 3,
            Section::Planner => 4,
            Section::Scenario => 5,
        }
    }
}

/// Something a link could not restore. Everything not named is restored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The fragment is not a slotscope link at all.
    NotALink,
    /// A link from a newer version (its version as written, cut to 12 characters).
    UnknownVersion(String),
    /// The fragment is longer than [`MAX_LINK_BYTES`]; nothing was read.
    TooLong {
        /// Its length.
        bytes: usize,
    },
    /// The payload has characters or bits base64url never produces.
    BadBase64,
    /// The link stops part-way: sections read before the cut are restored.
    Truncated,
    /// A section failed its check or does not make sense: it is left at its default.
    BadSection(Section),
    /// A text in a section is longer than a link may carry: it is left at its default.
    TextTooLong(Section),
    /// A section this version does not know (from a newer version), skipped.
    UnknownSection(u8),
    /// Bytes after the end of the link.
    Trailing,
    /// A section's head is damaged: nothing from there on can be read.
    Damaged,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotALink => write!(f, "not a slotscope link"),
            Problem::UnknownVersion(v) => write!(f, "unknown link version {v}"),
            Problem::TooLong { bytes } => write!(f, "link too long ({bytes} bytes)"),
            Problem::BadBase64 => write!(f, "bad base64"),
            Problem::Truncated => write!(f, "link cut short"),
            Problem::BadSection(s) => write!(f, "damaged {s:?} section"),
            Problem::TextTooLong(s) => write!(f, "text too long in the {s:?} section"),
            Problem::UnknownSection(t) => write!(f, "unknown section {t}"),
            Problem::Trailing => write!(f, "bytes after the end of the link"),
            Problem::Damaged => write!(f, "the link is damaged from some point on"),
        }
    }
}

/// What [`decode`] restored, and what it could not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The state: every section the link restored, defaults elsewhere.
    pub state: SharedState,
    /// What could not be restored, in the order found.
    pub problems: Vec<Problem>,
    /// The link's version (0: the old `redirect=` form), `None` for an empty fragment or
    /// one that is not a link.
    pub version: Option<u32>,
}

/// A link and what it had to leave out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The fragment, without `#`.
    pub text: String,
    /// Sections (or parts of them) left out because they are too long for a link: the batch
    /// over [`MAX_BATCH_BYTES`], a key over [`MAX_KEY_TEXT_BYTES`], a cluster too big to fit.
    pub omitted: Vec<Section>,
}

// ---------------------------------------------------------------------------------------------
// Bytes.

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Why a section body did not read.
enum Bad {
    /// Malformed.
    Malformed,
    /// A text over its cap.
    TooLong,
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    fn left(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn byte(&mut self) -> Option<u8> {
        let b = *self.buf.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    /// A LEB128 number of at most 64 bits.
    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    /// A count of items that each take at least one byte (so a huge count is refused unread).
    fn count(&mut self) -> Result<usize, Bad> {
        let n = self.varint().ok_or(Bad::Malformed)?;
        if n > self.left() as u64 {
            return Err(Bad::Malformed);
        }
        Ok(n as usize)
    }

    fn string(&mut self, max: usize) -> Result<String, Bad> {
        let n = self.varint().ok_or(Bad::Malformed)?;
        if n > self.left() as u64 {
            return Err(Bad::Malformed);
        }
        if n > max as u64 {
            return Err(Bad::TooLong);
        }
        let b = self.bytes(n as usize).ok_or(Bad::Malformed)?;
        String::from_utf8(b.to_vec()).map_err(|_| Bad::Malformed)
    }

    fn slot(&mut self) -> Result<u16, Bad> {
        match self.varint() {
            Some(s) if s < N_SLOTS as u64 => Ok(s as u16),
            _ => Err(Bad::Malformed),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// base64url without padding, strict: a payload has exactly one spelling.

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn b64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn b64_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    } as u32)
}

/// The bytes of base64url `text`, and whether its end is loose: a last character that carries
/// no whole byte, or left-over bits that are not zero. An encoder never writes either, so a loose
/// end is a link cut short (its sections then run out) or a changed last character.
fn b64_decode(text: &str) -> Result<(Vec<u8>, bool), Problem> {
    let bytes = text.as_bytes();
    if !bytes.iter().all(|&c| b64_value(c).is_some()) {
        return Err(Problem::BadBase64);
    }
    let mut loose = false;
    let whole = match bytes.len() % 4 {
        1 => {
            loose = true;
            &bytes[..bytes.len() - 1]
        }
        _ => bytes,
    };
    let mut out = Vec::with_capacity(whole.len() / 4 * 3 + 2);
    for chunk in whole.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= b64_value(c).unwrap_or(0) << (18 - 6 * i);
        }
        let full = chunk.len() - 1;
        // Bits a shorter final group leaves over are zero in every link the page writes.
        if full < 3 && n & ((1u32 << (24 - 8 * full)) - 1) != 0 {
            loose = true;
        }
        for i in 0..full {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Ok((out, loose))
}

// ---------------------------------------------------------------------------------------------
// Sections.

fn frame(out: &mut Vec<u8>, section: Section, body: &[u8]) {
    let start = out.len();
    out.push(section.tag());
    put_varint(out, body.len() as u64);
    out.extend_from_slice(body);
    let crc = crc16(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A made-up but stable 40-hex-digit node id for a node the page adds at `addr`.
pub fn made_up_id(addr: &str) -> String {
    // FNV-1a over the address, spread over 160 bits: unique enough for a page, and stable.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in addr.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    let a = h;
    let b = h.rotate_left(21).wrapping_mul(0x9E3779B97F4A7C15);
    let c = (h.rotate_left(42) ^ 0x5bd1e995) as u32;
    format!("{a:016x}{b:016x}{c:08x}")
}

/// Ids of the fixtures' cluster (masters 7000-7002, then replicas 7004, 7005, 7003), each
/// written as one byte.
fn fixture_ids() -> Vec<String> {
    let map = SlotMap::fixture_cluster();
    let masters = map.masters().iter().map(|m| m.id.clone());
    let replicas = map
        .masters()
        .iter()
        .flat_map(|m| m.replicas.iter().map(|r| r.id.clone()));
    masters.chain(replicas).collect()
}

/// Id codes: raw 20 bytes; [`made_up_id`] of the node's own address; a fixture id; a
/// `--cluster create` id (`{n:040x}`); else text.
const ID_RAW: u64 = 0;
const ID_MADE_UP: u64 = 1;
const ID_FIXTURE: u64 = 2;
const ID_CREATED: u64 = 8;
const ID_TEXT: u64 = 9;

/// A node id as short as it goes; `addr` is the node's own address when it has one.
fn put_id(out: &mut Vec<u8>, id: &str, addr: Option<&str>, fixture: &[String]) {
    let is_hex = id.len() == 40 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if let Some(i) = fixture.iter().position(|f| f == id) {
        put_varint(out, ID_FIXTURE + i as u64);
    } else if addr.is_some_and(|a| made_up_id(a) == id) {
        put_varint(out, ID_MADE_UP);
    } else if is_hex && id.starts_with("000000000000000000000000") {
        let n = u64::from_str_radix(&id[24..], 16).unwrap_or(0);
        put_varint(out, ID_CREATED);
        put_varint(out, n);
    } else if is_hex {
        put_varint(out, ID_RAW);
        for pair in id.as_bytes().chunks(2) {
            let hex = |b: u8| if b <= b'9' { b - b'0' } else { b - b'a' + 10 };
            out.push(hex(pair[0]) << 4 | hex(pair[1]));
        }
    } else {
        put_varint(out, id.len() as u64 + ID_TEXT);
        out.extend_from_slice(id.as_bytes());
    }
}

fn read_id(r: &mut Reader, addr: Option<&str>, fixture: &[String]) -> Result<String, Bad> {
    let k = r.varint().ok_or(Bad::Malformed)?;
    match k {
        ID_RAW => {
            let raw = r.bytes(20).ok_or(Bad::Malformed)?;
            Ok(raw.iter().map(|b| format!("{b:02x}")).collect())
        }
        ID_MADE_UP => addr.map(made_up_id).ok_or(Bad::Malformed),
        ID_CREATED => {
            let n = r.varint().ok_or(Bad::Malformed)?;
            Ok(format!("{n:040x}"))
        }
        k if k < ID_CREATED => fixture
            .get((k - ID_FIXTURE) as usize)
            .cloned()
            .ok_or(Bad::Malformed),
        k => {
            let n = k - ID_TEXT;
            if n > r.left() as u64 {
                return Err(Bad::Malformed);
            }
            let b = r.bytes(n as usize).ok_or(Bad::Malformed)?;
            String::from_utf8(b.to_vec()).map_err(|_| Bad::Malformed)
        }
    }
}

/// An address `host:port` with a canonical decimal port, else `None`.
fn split_addr(addr: &str) -> Option<(&str, u16)> {
    let (host, port) = addr.rsplit_once(':')?;
    let p: u16 = port.parse().ok()?;
    (p.to_string() == port).then_some((host, p))
}

/// Addresses: `0, port` repeats the last host; `1, text` is any text; `len + 2, host, port`.
fn put_addr(out: &mut Vec<u8>, addr: &str, last_host: &mut String) {
    match split_addr(addr) {
        Some((host, port)) if host == last_host => {
            out.push(0);
            put_varint(out, port.into());
        }
        Some((host, port)) => {
            put_varint(out, host.len() as u64 + 2);
            out.extend_from_slice(host.as_bytes());
            put_varint(out, port.into());
            *last_host = host.to_string();
        }
        None => {
            out.push(1);
            put_str(out, addr);
        }
    }
}

fn read_addr(r: &mut Reader, last_host: &mut String) -> Result<String, Bad> {
    let k = r.varint().ok_or(Bad::Malformed)?;
    let port = |r: &mut Reader| match r.varint() {
        Some(p) if p <= u16::MAX as u64 => Ok(p),
        _ => Err(Bad::Malformed),
    };
    match k {
        0 => Ok(format!("{last_host}:{}", port(r)?)),
        1 => r.string(usize::MAX),
        _ => {
            let n = k - 2;
            if n > r.left() as u64 {
                return Err(Bad::Malformed);
            }
            let b = r.bytes(n as usize).ok_or(Bad::Malformed)?;
            let host = String::from_utf8(b.to_vec()).map_err(|_| Bad::Malformed)?;
            let addr = format!("{host}:{}", port(r)?);
            *last_host = host;
            Ok(addr)
        }
    }
}

fn put_flags(out: &mut Vec<u8>, flags: &[String]) {
    put_varint(out, flags.len() as u64);
    for f in flags {
        put_str(out, f);
    }
}

fn read_flags(r: &mut Reader) -> Result<Vec<String>, Bad> {
    let n = r.count()?;
    (0..n).map(|_| r.string(usize::MAX)).collect()
}

const HAS_HOSTNAME: u8 = 1;
const HAS_FLAGS: u8 = 2;
const HAS_REPLICAS: u8 = 4;
const HAS_MIGRATING: u8 = 8;
const HAS_IMPORTING: u8 = 16;

fn put_open_slots(out: &mut Vec<u8>, slots: &[(u16, String)], fixture: &[String]) {
    put_varint(out, slots.len() as u64);
    for (slot, id) in slots {
        put_varint(out, (*slot).into());
        put_id(out, id, None, fixture);
    }
}

fn read_open_slots(r: &mut Reader, fixture: &[String]) -> Result<Vec<(u16, String)>, Bad> {
    let n = r.count()?;
    (0..n)
        .map(|_| Ok((r.slot()?, read_id(r, None, fixture)?)))
        .collect()
}

fn cluster_body(cluster: &Cluster) -> Vec<u8> {
    let mut out = Vec::new();
    match cluster {
        Cluster::Fixture => out.push(0),
        Cluster::Created(n) => {
            out.push(1);
            put_varint(&mut out, *n as u64);
        }
        Cluster::Custom(map) => {
            out.push(2);
            let fixture = fixture_ids();
            put_varint(&mut out, map.n_masters() as u64);
            let mut last_host = String::new();
            for m in map.masters() {
                let head = [
                    (m.hostname.is_some(), HAS_HOSTNAME),
                    (!m.flags.is_empty(), HAS_FLAGS),
                    (!m.replicas.is_empty(), HAS_REPLICAS),
                    (!m.migrating.is_empty(), HAS_MIGRATING),
                    (!m.importing.is_empty(), HAS_IMPORTING),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .fold(0, |acc, (_, bit)| acc | bit);
                out.push(head);
                put_addr(&mut out, &m.addr, &mut last_host);
                put_id(&mut out, &m.id, Some(&m.addr), &fixture);
                if let Some(h) = &m.hostname {
                    put_str(&mut out, h);
                }
                if head & HAS_FLAGS != 0 {
                    put_flags(&mut out, &m.flags);
                }
                if head & HAS_REPLICAS != 0 {
                    put_varint(&mut out, m.replicas.len() as u64);
                    for rep in &m.replicas {
                        put_addr(&mut out, &rep.addr, &mut last_host);
                        put_id(&mut out, &rep.id, Some(&rep.addr), &fixture);
                        put_flags(&mut out, &rep.flags);
                    }
                }
                if head & HAS_MIGRATING != 0 {
                    put_open_slots(&mut out, &m.migrating, &fixture);
                }
                if head & HAS_IMPORTING != 0 {
                    put_open_slots(&mut out, &m.importing, &fixture);
                }
            }
            let runs: Vec<_> = map.runs().collect();
            put_varint(&mut out, runs.len() as u64);
            for run in runs {
                put_varint(&mut out, run.range.len() as u64 - 1);
                put_varint(&mut out, run.owner.map_or(0, |o| o as u64 + 1));
            }
        }
    }
    out
}

fn read_cluster(r: &mut Reader) -> Result<Cluster, Bad> {
    match r.byte().ok_or(Bad::Malformed)? {
        0 => Ok(Cluster::Fixture),
        1 => match r.varint() {
            Some(n) if (1..=MAX_CREATED_MASTERS as u64).contains(&n) => {
                Ok(Cluster::Created(n as usize))
            }
            _ => Err(Bad::Malformed),
        },
        2 => {
            let fixture = fixture_ids();
            let n = r.count()?;
            let mut masters = Vec::with_capacity(n);
            let mut last_host = String::new();
            for _ in 0..n {
                let head = r.byte().ok_or(Bad::Malformed)?;
                if head >= 32 {
                    return Err(Bad::Malformed);
                }
                let addr = read_addr(r, &mut last_host)?;
                let id = read_id(r, Some(&addr), &fixture)?;
                let mut m = Master::new(addr, id);
                if head & HAS_HOSTNAME != 0 {
                    m.hostname = Some(r.string(usize::MAX)?);
                }
                if head & HAS_FLAGS != 0 {
                    m.flags = read_flags(r)?;
                }
                if head & HAS_REPLICAS != 0 {
                    let k = r.count()?;
                    for _ in 0..k {
                        let addr = read_addr(r, &mut last_host)?;
                        let id = read_id(r, Some(&addr), &fixture)?;
                        let flags = read_flags(r)?;
                        m.replicas.push(Replica { addr, id, flags });
                    }
                }
                if head & HAS_MIGRATING != 0 {
                    m.migrating = read_open_slots(r, &fixture)?;
                }
                if head & HAS_IMPORTING != 0 {
                    m.importing = read_open_slots(r, &fixture)?;
                }
                masters.push(m);
            }
            let n_runs = r.count()?;
            let mut ranges = Vec::with_capacity(n_runs);
            let mut first = 0u64;
            for _ in 0..n_runs {
                let len = r.varint().ok_or(Bad::Malformed)? + 1;
                let owner = r.varint().ok_or(Bad::Malformed)?;
                let last = first + len - 1;
                if len > N_SLOTS as u64 || last >= N_SLOTS as u64 || owner > n as u64 {
                    return Err(Bad::Malformed);
                }
                if owner > 0 {
                    ranges.push((
                        owner as usize - 1,
                        SlotRange::new(first as u16, last as u16),
                    ));
                }
                first = last + 1;
            }
            if first != N_SLOTS as u64 {
                return Err(Bad::Malformed);
            }
            SlotMap::from_ranges(masters, &ranges)
                .map(Cluster::Custom)
                .map_err(|_| Bad::Malformed)
        }
        _ => Err(Bad::Malformed),
    }
}

/// The planner's fields in link order, each with whether it differs from the default.
fn planner_fields(p: &PlannerInput) -> [&str; 8] {
    [
        &p.text,
        &p.command,
        p.node.as_deref().unwrap_or(""),
        &p.gen_kind,
        &p.gen_template,
        &p.gen_count,
        &p.chunk,
        &p.style,
    ]
}

const GENERATED_BIT: u64 = 1 << 8;

/// The planner's body, and whether a field had to be left out.
fn planner_body(p: &PlannerInput) -> (Vec<u8>, bool) {
    let default = PlannerInput::default();
    let (now, then) = (planner_fields(p), planner_fields(&default));
    let mut mask = 0u64;
    let mut omitted = false;
    for (i, (a, b)) in now.iter().zip(then).enumerate() {
        let differs = if i == 2 { p.node.is_some() } else { *a != b };
        let cap = if i == 0 {
            MAX_BATCH_BYTES
        } else {
            MAX_FIELD_BYTES
        };
        if differs && a.len() > cap {
            omitted = true;
        } else if differs {
            mask |= 1 << i;
        }
    }
    if p.generated {
        mask |= GENERATED_BIT;
    }
    let mut out = Vec::new();
    put_varint(&mut out, mask);
    for (i, s) in now.iter().enumerate() {
        if mask & (1 << i) != 0 {
            put_str(&mut out, s);
        }
    }
    (out, omitted)
}

/// Reads the planner; a field with a value the page does not offer is a bad section (the
/// others are kept).
fn read_planner(r: &mut Reader) -> Result<(PlannerInput, bool), Bad> {
    let mask = r.varint().ok_or(Bad::Malformed)?;
    if mask >= GENERATED_BIT << 1 {
        return Err(Bad::Malformed);
    }
    let mut p = PlannerInput::default();
    let mut invalid = false;
    for i in 0..8 {
        if mask & (1 << i) == 0 {
            continue;
        }
        let cap = if i == 0 {
            MAX_BATCH_BYTES
        } else {
            MAX_FIELD_BYTES
        };
        let s = r.string(cap)?;
        let ok = match i {
            1 => s == "commands" || KEY_COMMANDS.contains(&s.as_str()),
            3 => s == "template" || s == "h3",
            7 => matches!(s.as_str(), "mget" | "eval" | "tagged"),
            _ => true,
        };
        if !ok {
            invalid = true;
            continue;
        }
        match i {
            0 => p.text = s,
            1 => p.command = s,
            2 => p.node = Some(s),
            3 => p.gen_kind = s,
            4 => p.gen_template = s,
            5 => p.gen_count = s,
            6 => p.chunk = s,
            _ => p.style = s,
        }
    }
    p.generated = mask & GENERATED_BIT != 0;
    Ok((p, invalid))
}

/// The link for `state`, and what it left out.
pub fn encode(state: &SharedState) -> Encoded {
    let mut omitted = Vec::new();
    let mut sections: Vec<(Section, Vec<u8>)> = Vec::new();
    if state.lang != Lang::En {
        sections.push((Section::Lang, vec![(state.lang == Lang::Zh) as u8]));
    }
    if state.key != DEFAULT_KEY {
        if state.key.len() > MAX_KEY_TEXT_BYTES {
            omitted.push(Section::Key);
        } else {
            sections.push((Section::Key, state.key.as_bytes().to_vec()));
        }
    }
    if state.cluster != Cluster::Fixture {
        sections.push((Section::Cluster, cluster_body(&state.cluster)));
    }
    if state.planner != PlannerInput::default() {
        let (body, left_out) = planner_body(&state.planner);
        if left_out {
            omitted.push(Section::Planner);
        }
        sections.push((Section::Planner, body));
    }
    if let Some(r) = &state.redirect {
        if r.scenario.len() > MAX_FIELD_BYTES {
            omitted.push(Section::Scenario);
        } else {
            let mut body = Vec::new();
            put_str(&mut body, &r.scenario);
            put_varint(&mut body, r.step.into());
            sections.push((Section::Scenario, body));
        }
    }
    let build = |sections: &[(Section, Vec<u8>)]| {
        let mut payload = Vec::new();
        for (s, body) in sections {
            frame(&mut payload, *s, body);
        }
        payload.push(0);
        format!("{PREFIX}{}", b64_encode(&payload))
    };
    let mut text = build(&sections);
    if text.len() > MAX_LINK_BYTES {
        // Only a huge custom cluster can get here: leave it out rather than make a dead link.
        sections.retain(|(s, _)| *s != Section::Cluster);
        omitted.push(Section::Cluster);
        text = build(&sections);
    }
    Encoded { text, omitted }
}

/// Restores what `fragment` (with or without `#`) holds. Never panics: whatever could not be
/// restored is named in [`Decoded::problems`] and left at its default.
pub fn decode(fragment: &str) -> Decoded {
    let mut out = Decoded {
        state: SharedState::default(),
        problems: Vec::new(),
        version: None,
    };
    let text = fragment.strip_prefix('#').unwrap_or(fragment);
    if text.is_empty() {
        return out;
    }
    if text.len() > MAX_LINK_BYTES {
        out.problems.push(Problem::TooLong { bytes: text.len() });
        return out;
    }
    if let Some(rest) = text.strip_prefix("redirect=") {
        out.version = Some(0);
        decode_v0(rest, &mut out);
        return out;
    }
    let Some(rest) = text.strip_prefix("s=") else {
        out.problems.push(Problem::NotALink);
        return out;
    };
    let (version, payload) = match rest.split_once('.') {
        Some((v, p)) => (v, Some(p)),
        None => (rest, None),
    };
    match (version, payload) {
        ("1", Some(payload)) => {
            out.version = Some(1);
            decode_v1(payload, &mut out);
        }
        ("1", None) => out.problems.push(Problem::Truncated),
        (v, _) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => out
            .problems
            .push(Problem::UnknownVersion(v.chars().take(12).collect())),
        _ => out.problems.push(Problem::NotALink),
    }
    out
}

/// `redirect=<scenario>:<step>`: the page checks the id and step and says what it changed.
fn decode_v0(rest: &str, out: &mut Decoded) {
    let (id, step) = rest.split_once(':').unwrap_or((rest, "0"));
    let step = match step.parse::<u32>() {
        Ok(s) => s,
        Err(_) => {
            out.problems.push(Problem::BadSection(Section::Scenario));
            0
        }
    };
    out.state.redirect = Some(ScenarioStep {
        scenario: id.to_string(),
        step,
    });
}

fn decode_v1(payload: &str, out: &mut Decoded) {
    let (bytes, loose_end) = match b64_decode(payload) {
        Ok(b) => b,
        Err(p) => {
            out.problems.push(p);
            return;
        }
    };
    read_sections(&bytes, out);
    // A loose end with every section whole: the last character was changed, not cut.
    if loose_end && !out.problems.contains(&Problem::Truncated) {
        out.problems.push(Problem::BadBase64);
    }
}

/// The sections of a version-1 payload, each restored on its own.
fn read_sections(bytes: &[u8], out: &mut Decoded) {
    let mut r = Reader::new(bytes);
    loop {
        let start = r.pos;
        let Some(tag) = r.byte() else {
            out.problems.push(Problem::Truncated);
            return;
        };
        if tag == 0 {
            break;
        }
        let Some(len) = r.varint() else {
            out.problems.push(Problem::Truncated);
            return;
        };
        let Some(body) = usize::try_from(len).ok().and_then(|n| r.bytes(n)) else {
            out.problems.push(Problem::Truncated);
            return;
        };
        let framed_end = r.pos;
        let Some(crc) = r.bytes(2) else {
            out.problems.push(Problem::Truncated);
            return;
        };
        let section = Section::ALL.into_iter().find(|s| s.tag() == tag);
        if crc16(&bytes[start..framed_end]) != u16::from_be_bytes([crc[0], crc[1]]) {
            match section {
                Some(s) => out.problems.push(Problem::BadSection(s)),
                None => {
                    // The tag itself is damaged, so its length can't be trusted either.
                    out.problems.push(Problem::Damaged);
                    return;
                }
            }
            continue;
        }
        let Some(section) = section else {
            out.problems.push(Problem::UnknownSection(tag));
            continue;
        };
        read_section(section, body, out);
    }
    if r.left() > 0 {
        out.problems.push(Problem::Trailing);
    }
}

fn read_section(section: Section, body: &[u8], out: &mut Decoded) {
    let mut r = Reader::new(body);
    let mut invalid = false;
    let result: Result<(), Bad> = (|| {
        match section {
            Section::Lang => {
                out.state.lang = match r.byte() {
                    Some(0) => Lang::En,
                    Some(1) => Lang::Zh,
                    _ => return Err(Bad::Malformed),
                }
            }
            Section::Key => {
                if body.len() > MAX_KEY_TEXT_BYTES {
                    return Err(Bad::TooLong);
                }
                let key = String::from_utf8(body.to_vec()).map_err(|_| Bad::Malformed)?;
                r.pos = body.len();
                out.state.key = key;
            }
            Section::Cluster => {
                let cluster = read_cluster(&mut r)?;
                if r.left() > 0 {
                    return Err(Bad::Malformed);
                }
                out.state.cluster = cluster;
            }
            Section::Planner => {
                let (p, bad) = read_planner(&mut r)?;
                if r.left() > 0 {
                    return Err(Bad::Malformed);
                }
                invalid = bad;
                out.state.planner = p;
            }
            Section::Scenario => {
                let scenario = r.string(MAX_FIELD_BYTES)?;
                let step = match r.varint() {
                    Some(s) if s <= u32::MAX as u64 => s as u32,
                    _ => return Err(Bad::Malformed),
                };
                if r.left() > 0 {
                    return Err(Bad::Malformed);
                }
                out.state.redirect = Some(ScenarioStep { scenario, step });
            }
        }
        Ok(())
    })();
    match result {
        Ok(()) if invalid => out.problems.push(Problem::BadSection(section)),
        Ok(()) => {}
        Err(Bad::Malformed) => out.problems.push(Problem::BadSection(section)),
        Err(Bad::TooLong) => out.problems.push(Problem::TextTooLong(section)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_and_refuses_a_second_spelling() {
        for n in 0..10 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 200) as u8).collect();
            let text = b64_encode(&bytes);
            assert_eq!(b64_decode(&text).unwrap(), (bytes, false));
        }
        assert_eq!(b64_encode(b"\xff"), "_w");
        // Another spelling of the same byte, or a character carrying no whole byte: a loose end.
        assert_eq!(b64_decode("_x"), Ok((vec![0xff], true)));
        assert_eq!(
            b64_decode("abcde"),
            Ok((b64_decode("abcd").unwrap().0, true))
        );
        assert_eq!(b64_decode("ab=c"), Err(Problem::BadBase64));
    }

    #[test]
    fn the_default_state_is_a_tiny_link() {
        assert_eq!(encode(&SharedState::default()).text, "s=1.AA");
        assert_eq!(decode("#s=1.AA").state, SharedState::default());
    }

    #[test]
    fn addresses_share_their_host() {
        let mut out = Vec::new();
        let mut host = String::new();
        for a in [
            "127.0.0.1:7000",
            "127.0.0.1:7001",
            "[::1]:0",
            "x:007",
            "plain",
        ] {
            put_addr(&mut out, a, &mut host);
        }
        let mut r = Reader::new(&out);
        let mut host = String::new();
        for a in [
            "127.0.0.1:7000",
            "127.0.0.1:7001",
            "[::1]:0",
            "x:007",
            "plain",
        ] {
            assert_eq!(read_addr(&mut r, &mut host).ok().as_deref(), Some(a));
        }
        assert_eq!(r.left(), 0);
    }
}
