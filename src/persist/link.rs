//! The link itself: sections framed with their CRC16, the planner's fields, `encode`, and a
//! `decode` that never panics and restores each section on its own.

use super::bus::{bus_body, read_bus};
use super::bytes::{b64_decode, b64_encode, put_str, put_varint, Bad, Reader};
use super::cluster::{cluster_body, read_cluster};
use super::{
    Cluster, Decoded, Encoded, Lang, OldLink, PlannerInput, Problem, ScenarioStep, Section,
    SharedState, DEFAULT_KEY, MAX_BATCH_BYTES, MAX_FIELD_BYTES, MAX_KEY_TEXT_BYTES, MAX_LINK_BYTES,
    PREFIX,
};
use crate::core::key::crc16::crc16;
use crate::core::workload::batch::KEY_COMMANDS;
use std::rc::Rc;

fn frame(out: &mut Vec<u8>, section: Section, body: &[u8]) {
    let start = out.len();
    out.push(section.tag());
    put_varint(out, body.len() as u64);
    out.extend_from_slice(body);
    let crc = crc16(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
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

/// The planner's body, and whether a field had to be left out. A batch too long for a link is
/// carried as an empty one: whoever opens the link reads an empty batch (the browser that made
/// it keeps the batch, `ui::share::keep_batch`), not the default commands read as whatever the
/// link's lines are.
fn planner_body(p: &PlannerInput) -> (Vec<u8>, bool) {
    let default = PlannerInput::default();
    let (mut now, then) = (planner_fields(p), planner_fields(&default));
    let mut omitted = now[0].len() > MAX_BATCH_BYTES;
    if omitted {
        now[0] = "";
    }
    let mut mask = 0u64;
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
            0 => p.text = Rc::from(s),
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
    if let Some(b) = &state.bus {
        if b.scenario.len() > MAX_FIELD_BYTES || b.spec.len() > super::MAX_BUS_SPEC_BYTES {
            omitted.push(Section::Bus);
        } else {
            sections.push((Section::Bus, bus_body(b)));
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
        old_link: None,
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
    let (id, step_text) = rest.split_once(':').unwrap_or((rest, "0"));
    let step = match step_text.parse::<u32>() {
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
    out.old_link = Some(OldLink {
        scenario: id.to_string(),
        step: step_text.to_string(),
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
            Section::Bus => {
                let b = read_bus(&mut r)?;
                if r.left() > 0 {
                    return Err(Bad::Malformed);
                }
                out.state.bus = Some(b);
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
    fn the_default_state_is_a_tiny_link() {
        assert_eq!(encode(&SharedState::default()).text, "s=1.AA");
        assert_eq!(decode("#s=1.AA").state, SharedState::default());
    }
}
