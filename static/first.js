//! The first-screen module's page side: until the app has started, answers the prerendered
//! pipeline for the key the reader types, with `crates/first` (the page's own core compiled on
//! its own, about 18 KB gzipped, against the app's 700 KB). scripts/first.py puts it inline
//! in <head>, in a scope of its own, with the module's name filled in; it runs before the
//! parser has reached <body>.
//!
//! It answers only a page that opens at its defaults (no state in the address, none saved):
//! that is the cluster the prerendered copy shows, whose runs of slots the pipeline carries in
//! `data-owners`. It writes values only, as text; the sentences under them still explain the
//! default key, so they are hidden and a note (prerendered, in the page's words) says they
//! follow with the app. The app then mounts in the copy's place and answers the same key
//! (src/ui/prerender.rs keeps what was typed).
//!
//! It also puts the sections below the first screen into the page right after the first paint:
//! scripts/prerender.py delivers them in `<template id="below">`, so that paint lays out the
//! first screen alone.

const MODULE = '__FIRST_WASM__';
const SEP = '\u001f';

/** The prerendered copy's key field and pipeline, once the parser has passed them. */
let field = null;
let pipeline = null;

/** Whether the app will open at the defaults the prerendered copy shows (src/ui/share.rs). */
function opensAtDefaults() {
  const fragment = location.hash.slice(1);
  // A fragment naming a section alone (#map) is a place to scroll to, not a state (called
  // once the whole copy is parsed when there is a fragment).
  if (fragment && !document.getElementById(fragment)?.classList.contains('page-section')) return false;
  try {
    if (localStorage.getItem('slotscope.state')) return false;
  } catch {
    // Storage refused: the app cannot read a saved state either, and opens at its defaults.
  }
  return true;
}

/** The master's address for `slot`, from the prerendered runs ("0-5460 127.0.0.1:7000;…"). */
function ownerOf(slot) {
  for (const run of pipeline.dataset.owners.split(';')) {
    const [range, addr] = run.split(' ');
    const [first, last = first] = range.split('-').map(Number);
    if (slot >= first && slot <= last) return addr;
  }
  return null;
}

function text(selector, value) {
  const el = pipeline.querySelector(selector);
  if (el) el.textContent = value;
}

function start(exports) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const note = pipeline.querySelector('[data-testid=pipeline-early]');
  const answer = () => {
    // The app has mounted in the copy's place: it answers from now on.
    if (!field.isConnected) return;
    const bytes = encoder.encode(field.value);
    const at = exports.first_input(bytes.length);
    new Uint8Array(exports.memory.buffer, at, bytes.length).set(bytes);
    const n = exports.first_answer();
    const f = decoder.decode(new Uint8Array(exports.memory.buffer, exports.first_output(), n)).split(SEP);
    pipeline.classList.add('pipeline--early');
    pipeline.closest('[data-prerendered]')?.setAttribute('data-early', '');
    if (note) note.hidden = false;
    const owner = f[0] === 'key' ? ownerOf(Number(f[7])) : null;
    // Not a key the page explains, or the empty key: the cards keep the last answer, dimmed,
    // as the app's do; the app says why when it starts.
    const stale = owner == null;
    pipeline.classList.toggle('pipeline--stale', stale);
    pipeline.setAttribute('aria-busy', String(stale));
    if (stale) return;
    text('[data-testid=key-bytes]', f[1]);
    const marked = pipeline.querySelector('.stage__key');
    if (marked) {
      const mark = document.createElement('mark');
      mark.textContent = f[3];
      marked.replaceChildren(f[2], mark, f[4]);
    }
    text('[data-testid=hashed-part]', f[5]);
    pipeline.querySelector('[data-testid=hashed-part]')?.closest('.stage')
      ?.classList.toggle('stage--tag', f[11] === '1');
    text('[data-testid=crc16]', f[6]);
    text('[data-testid=slot]', f[7]);
    const bits = pipeline.querySelector('.bits');
    if (bits) {
      const dropped = document.createElement('s');
      dropped.className = 'bits__dropped';
      dropped.textContent = f[8];
      bits.replaceChildren(dropped, f[9]);
      bits.setAttribute('aria-label', f[10]);
    }
    text('[data-testid=node]', owner);
    const command = pipeline.querySelector('[data-testid=verify-command]');
    if (command) {
      command.textContent = f[12];
      const reply = command.nextElementSibling;
      if (reply) reply.textContent = f[13];
      command.parentElement.hidden = f[12] === '';
    }
  };
  field.addEventListener('input', answer);
  // Typed while the module was on its way.
  if (field.value !== field.defaultValue) answer();
}

/**
 * Resolves once the parser has passed the prerendered pipeline (the section after it has
 * begun), or the whole page when the address has a fragment (the section it may name can be
 * further down). This script runs in <head>, before either.
 */
function parsed() {
  return new Promise((done) => {
    const whole = location.hash.length > 1;
    const check = () => {
      const root = document.querySelector('[data-prerendered]');
      const section = root?.querySelector('.pipeline[data-owners]');
      const past = whole ? document.readyState !== 'loading' : section?.parentElement?.nextElementSibling;
      if (!past && document.readyState === 'loading') return false;
      field = root?.querySelector('#key-field') ?? null;
      pipeline = section ?? null;
      done();
      return true;
    };
    if (check()) return;
    const watch = new MutationObserver(() => { if (check()) watch.disconnect(); });
    watch.observe(document, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', () => { watch.disconnect(); check(); }, { once: true });
  });
}

// Fetched and compiled while the parser works through the page.
const module = fetch(MODULE)
  .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`${MODULE}: ${r.status}`))))
  .then((bytes) => WebAssembly.instantiate(bytes, {}));
Promise.all([module, parsed()])
  .then(([{ instance }]) => {
    if (field && pipeline && opensAtDefaults()) start(instance.exports);
  })
  // Without the module the page is as before: the app answers when it starts.
  .catch(() => {});

/** Puts the prerendered sections below the first screen into the page (a no-op once the app has mounted). */
function unfold() {
  const below = document.getElementById('below');
  if (below instanceof HTMLTemplateElement) below.replaceWith(below.content);
}
// After the first paint: a rAF callback runs just before a paint, a task it queues after it.
const afterPaint = () => requestAnimationFrame(() => setTimeout(unfold));
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', afterPaint, { once: true });
else afterPaint();
