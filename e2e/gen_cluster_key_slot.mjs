//! Writes tests/data/cluster_key_slot.tsv: what the real npm `cluster-key-slot` 1.1.2 computes
//! for every key of the fixtures' keyslot.tsv, given as a Buffer (bytes) and, where the bytes
//! are valid UTF-8, as a JavaScript string. Not a test: `node gen_cluster_key_slot.mjs`, and
//! the native tests (tests/clients.rs) compare the core's port with the file.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fixtures, root } from './harness.mjs';

const require = createRequire(import.meta.url);
const generate = require('cluster-key-slot');
const { version } = require('cluster-key-slot/package.json');

const text = await readFile(join(fixtures, 'keyslot.tsv'), 'utf8');
const rows = text.split('\n').slice(1).filter((l) => l.length > 0);
const strict = new TextDecoder('utf-8', { fatal: true });
const out = [`# cluster-key-slot ${version}: generate(Buffer) and generate(string) ('-' when the bytes are not UTF-8)`, 'key_hex\tbuffer_slot\tstring_slot'];
for (const row of rows) {
  const [hex] = row.split('\t');
  const bytes = Buffer.from(hex, 'hex');
  let asString = '-';
  try {
    asString = String(generate(strict.decode(bytes)));
  } catch {
    // not UTF-8: a JS client could not hold this key as a string
  }
  out.push(`${hex}\t${generate(bytes)}\t${asString}`);
}
await writeFile(join(root, 'tests', 'data', 'cluster_key_slot.tsv'), out.join('\n') + '\n');
console.log(`${rows.length} keys`);
