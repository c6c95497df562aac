//! The e2e tests' own Redis slot function (harness.mjs `redisSlot`, which checks the tags and
//! plans the page generates) against every key Redis 7.0.15 answered in keyslot.tsv and
//! keyslot_64k.tsv, and the CRC16 check value. No browser: node alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtures, redisSlot } from './harness.mjs';

async function rows(name) {
  const text = await readFile(join(fixtures, name), 'utf8');
  return text.trimEnd().split('\n').slice(1).map((l) => l.split('\t'));
}

test('redisSlot gives the slot Redis gave every key of keyslot.tsv and keyslot_64k.tsv', async () => {
  const short = await rows('keyslot.tsv');
  const long = await rows('keyslot_64k.tsv');
  assert.equal(short.length, 2125);
  assert.equal(long.length, 2);
  const wrong = [];
  for (const [hex, display, slot] of [...short, ...long]) {
    const got = redisSlot(Buffer.from(hex, 'hex'));
    if (got !== Number(slot)) wrong.push(`${display}: ${got} != ${slot}`);
  }
  assert.deepEqual(wrong, []);
});

test('redisSlot reads strings as UTF-8 and follows the hash-tag rule', () => {
  // CRC-16/XMODEM's check value: crc("123456789") = 0x31C3, masked to 14 bits.
  assert.equal(redisSlot('123456789'), 0x31c3 & 0x3fff);
  // Transcripts 01 and 02.
  assert.equal(redisSlot('foo'), 12182);
  assert.equal(redisSlot('a{b}c'), 3300);
  assert.equal(redisSlot('{}a'), 10875);
  assert.equal(redisSlot('{a}{b}'), 15495);
  assert.equal(redisSlot('x{}{y}'), 14166);
  assert.equal(redisSlot('{user1}:profile'), 8106);
  assert.equal(redisSlot('用户:1001'), 12170);
});
