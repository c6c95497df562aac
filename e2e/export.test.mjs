//! The slot map and the sequence diagram downloaded as SVG and PNG, checked as a slide tool would read them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { sharedBrowser, openPage, masterRows } from './harness.mjs';

const env = sharedBrowser();

/** Clicks `testid` and returns the downloaded file's name and bytes. */
async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  const path = await dl.path();
  return { name: dl.suggestedFilename(), bytes: await readFile(path) };
}

/** Width and height from a PNG's IHDR chunk (after checking the signature). */
function pngSize(buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG signature');
  assert.equal(buf.subarray(12, 16).toString('latin1'), 'IHDR');
  return { w: buf.readUInt32BE(16), h: buf.readUInt32BE(20) };
}

/** The colour at (x, y) of a PNG, decoded by the browser on a blank page (no app, no CSP). */
async function pixel(browser, buf, x, y) {
  const page = await browser.newPage();
  const rgba = await page.evaluate(async ({ b64, x, y }) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    return [...ctx.getImageData(x, y, 1, 1).data];
  }, { b64: buf.toString('base64'), x, y });
  await page.close();
  return rgba;
}

/**
 * Parses SVG text on a blank page (the app's Trusted Types policy refuses DOMParser, as it
 * should); returns what a test needs, or the parser's complaint.
 */
const readSvg = async (_page, text) => {
  const page = await env.browser.newPage();
  try { return await page.evaluate((text) => {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const err = doc.querySelector('parsererror');
  if (err) return { error: err.textContent };
  const svg = doc.documentElement;
  return {
    tag: svg.tagName, ns: svg.namespaceURI, width: Number(svg.getAttribute('width')), height: Number(svg.getAttribute('height')),
    rects: [...svg.querySelectorAll('rect[data-first]')].map((r) => ({ first: Number(r.dataset.first), w: Number(r.getAttribute('width')), fill: r.getAttribute('fill') })),
    texts: [...svg.querySelectorAll('text')].map((t) => t.textContent),
    style: svg.querySelector('style')?.textContent ?? '',
  };
}, text); } finally { await page.close(); }
};

test('the map downloads as an SVG that paints all 16384 slots in the owners\' colours, and as a PNG', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const svgFile = await download(page, 'export-map-svg');
  assert.equal(svgFile.name, 'slotscope-slot-map.svg');
  const svg = await readSvg(page, svgFile.bytes.toString('utf8'));
  assert.equal(svg.error, undefined);
  assert.equal(svg.tag, 'svg');
  assert.equal(svg.ns, 'http://www.w3.org/2000/svg');
  // Every slot painted once, each run in the colour the page's legend gives its owner.
  const masters = await masterRows(page);
  const swatches = await page.locator('[data-testid=node-row][data-role=master] .swatch').evaluateAll((els) => els.map((e) => e.style.background));
  assert.equal(masters.length, 3);
  const owner = (slot) => masters.findIndex((m) => m.ranges.split(',').some((r) => {
    const [a, b = a] = r.split('-').map(Number);
    return slot >= a && slot <= b;
  }));
  let cells = 0;
  const seen = new Set();
  for (const r of svg.rects) {
    const n = r.w / 6;
    cells += n;
    const o = owner(r.first);
    assert.ok(o >= 0);
    assert.equal(owner(r.first + n - 1), o, `run at ${r.first} stays with one owner`);
    seen.add(`${o}:${r.fill}`);
  }
  assert.equal(cells, 16384);
  assert.equal(seen.size, 3, `one colour per master: ${[...seen]}`);
  for (const m of masters) assert.ok(svg.texts.includes(m.addr), m.addr);
  assert.ok(swatches.length === 3);

  const png = await download(page, 'export-map-png');
  assert.equal(png.name, 'slotscope-slot-map.png');
  const size = pngSize(png.bytes);
  assert.deepEqual(size, { w: svg.width * 2, h: svg.height * 2 });
  // Slot 0 (top left of the grid, at 24 + 44 in SVG units, twice that in the PNG) is 7000's
  // sky blue, #66CCEE; slot 16383 (bottom right) is 7002's blue, #0072B2 (the palette's first
  // and third colours, chosen to stay apart for colour-blind readers: src/ui/palette.rs).
  const first = await pixel(env.browser, png.bytes, (24 + 3) * 2, (44 + 3) * 2);
  assert.deepEqual(first, [0x66, 0xcc, 0xee, 255]);
  const last = await pixel(env.browser, png.bytes, (24 + 127 * 6 + 3) * 2, (44 + 127 * 6 + 3) * 2);
  assert.deepEqual(last, [0x00, 0x72, 0xb2, 255]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the sequence diagram downloads as a standalone SVG at the step shown, and as a PNG', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('scenario-select').selectOption('live-migration');
  for (let i = 0; i < 14; i++) await page.getByTestId('step-next').click();
  const step = await page.getByTestId('timeline').getAttribute('data-step');
  const file = await download(page, 'export-seq-svg');
  assert.equal(file.name, `slotscope-live-migration-step-${step}.svg`);
  const text = file.bytes.toString('utf8');
  const svg = await readSvg(page, text);
  assert.equal(svg.error, undefined);
  assert.equal(svg.ns, 'http://www.w3.org/2000/svg');
  assert.ok(svg.width > 100 && svg.height > 100);
  // The page's rules came along, with no custom property left to resolve and no animation.
  assert.match(svg.style, /\.seq__shaft/);
  assert.doesNotMatch(svg.style, /var\(/);
  assert.doesNotMatch(svg.style, /animation/);
  // What the page shows at this step, the picture shows.
  const shown = await page.locator('#redirections .redir__player svg.seq text').allTextContents();
  assert.deepEqual(svg.texts, shown);
  assert.ok(shown.some((t) => t.startsWith('(error) ASK 5712')), 'the ASK reply is in the picture');
  // Drawn in the dark scheme's ink: a shaft's stroke is light.
  assert.match(svg.style, /\.seq__shaft \{ stroke: (#eeeae2|rgb\(238, 234, 226\))/);
  // The picture ends below the last arrow drawn (the diagram itself grows with its steps).
  const live = await page.locator('#redirections .redir__player svg.seq').evaluate((s) => ({
    height: Number(s.getAttribute('viewBox').split(' ')[3]),
    lastY: Math.max(...[...s.querySelectorAll('.seq__arrow')].map((g) => g.getBBox().y + g.getBBox().height)),
  }));
  assert.ok(svg.height <= live.height, `${svg.height} <= ${live.height}`);
  assert.ok(live.lastY <= svg.height && svg.height - live.lastY <= 48, `last arrow ends at ${live.lastY}, picture at ${svg.height}`);
  const png = await download(page, 'export-seq-png');
  assert.deepEqual(pngSize(png.bytes), { w: svg.width * 2, h: svg.height * 2 });
  assert.deepEqual(problems, []);
  await context.close();
});
