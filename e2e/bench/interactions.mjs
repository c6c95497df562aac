//! Only the interaction figures of `bench.mjs` (INP beside the plain page, and the heavy
//! interactions), for comparing builds quickly: `node bench/interactions.mjs` from `e2e/`,
//! `SLOTSCOPE_DIST=… node bench/interactions.mjs` for another build; `--inp` for the INP figures
//! alone, `--heavy` for the heavy interactions alone (the bus section's from `bus_heavy.mjs`),
//! `--first-switch` for a fresh page's first language switch alone (16 pages); `--wide-tiles`
//! to run them in a Chromium whose raster tiles are 2048 px wide (WIDE_TILES), so the key
//! field (1182 px) is one tile as the plain page's input is. Asserts nothing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, launch, here } from '../harness.mjs';
import { measureInp, measureHeavy, measureFirstSwitch, printInp, printHeavy } from './inp.mjs';
import { measureBusHeavy } from './bus_heavy.mjs';

const server = await serveDist({
  '/__bench/plain.html': { type: 'text/html; charset=utf-8', body: await readFile(join(here, 'bench', 'plain.html'), 'utf8') },
  '/__bench/plain.js': { type: 'text/javascript; charset=utf-8', body: await readFile(join(here, 'bench', 'plain.js'), 'utf8') },
});
// Without a GPU, Chromium rasters a layer in tiles of 256 px, or 512 wide for a short one (cc's
// default_tile_size and max_untiled_layer_size), and each tile replays the whole text of a
// one-line field: the 64 KB key costs the 1182-px key field three rasters of 64K glyphs, the
// plain page's narrow input one. These switches make every layer here one tile wide, to show
// what is left of the gap once the field's width is taken out of it.
const WIDE_TILES = ['--default-tile-width=2048', '--max-untiled-layer-width=2048'];
const only = process.argv.slice(2);
const browser = await launch(only.includes('--wide-tiles') ? WIDE_TILES : []);
try {
  console.log('Chromium', browser.version(), only.includes('--wide-tiles') ? WIDE_TILES.join(' ') : '');
  if (!only.includes('--heavy') && !only.includes('--first-switch')) printInp(await measureInp(browser, server.url, `${server.url}__bench/plain.html`));
  if (only.includes('--first-switch')) printHeavy(await measureFirstSwitch(browser, server.url, 16));
  else if (!only.includes('--inp')) printHeavy([...await measureHeavy(browser, server.url), ...await measureFirstSwitch(browser, server.url), ...await measureBusHeavy(browser, server.url)]);
} finally {
  await browser.close();
  await server.close();
}
