//! Only the interaction figures of `bench.mjs` (INP beside the plain page, and the heavy
//! interactions), for comparing builds quickly: `node bench/interactions.mjs` from `e2e/`,
//! `SLOTSCOPE_DIST=… node bench/interactions.mjs` for another build; `--inp` for the INP figures
//! alone, `--heavy` for the heavy interactions alone (the bus section's from `bus_heavy.mjs`),
//! `--first-switch` for a fresh page's first language switch alone (16 pages). Asserts nothing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, launch, here } from '../harness.mjs';
import { measureInp, measureHeavy, measureFirstSwitch, printInp, printHeavy } from './inp.mjs';
import { measureBusHeavy } from './bus_heavy.mjs';

const server = await serveDist({
  '/__bench/plain.html': { type: 'text/html; charset=utf-8', body: await readFile(join(here, 'bench', 'plain.html'), 'utf8') },
  '/__bench/plain.js': { type: 'text/javascript; charset=utf-8', body: await readFile(join(here, 'bench', 'plain.js'), 'utf8') },
});
const browser = await launch();
try {
  console.log('Chromium', browser.version());
  const only = process.argv.slice(2);
  if (!only.includes('--heavy') && !only.includes('--first-switch')) printInp(await measureInp(browser, server.url, `${server.url}__bench/plain.html`));
  if (only.includes('--first-switch')) printHeavy(await measureFirstSwitch(browser, server.url, 16));
  else if (!only.includes('--inp')) printHeavy([...await measureHeavy(browser, server.url), ...await measureFirstSwitch(browser, server.url), ...await measureBusHeavy(browser, server.url)]);
} finally {
  await browser.close();
  await server.close();
}
