//! Every kind of error the page words, driven in 简体中文: import errors of every kind (CLUSTER
//! NODES, SHARDS and SLOTS, terminal and `--raw` forms) and import warnings, escape errors in
//! the key field, the planner and free mode, redis-cli's refusals of a reshard or rebalance and
//! the page's own, a comparison that cannot run, and the notes for what the page does not run.
//! Each message must be Chinese: no Latin prose word outside `<code>`, once Redis's and
//! redis-cli's verbatim lines, code words and the reader's own quoted text are taken out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, typeKey, fixtures } from './harness.mjs';

const env = sharedBrowser();

/** Redis's and redis-cli's own words, quoted as they print them: taken out before searching. */
const VERBATIM = [
  /CROSSSLOT Keys in request don't hash to the same slot/g,
  /CLUSTERDOWN Hash slot not served/g,
  /Invalid argument\(s\)/g,
  /ERR This instance has cluster support disabled/g,
  /\*\*\* It is not possible to use the target node as source node\./g,
  /\*\*\* No source nodes given, operation aborted\./g,
  /\*\*\* The specified node \(\S+\) is not known or not a master, please retry\./g,
  /\[ERR\] Not all 16384 slots are covered by nodes\./g,
  /\[WARNING\] Node \S+ has slots in (migrating|importing) state [\d,]+\./g,
  /\*\*\* Please fix your cluster problems before (resharding|rebalancing)/g,
  /\[ERR\] Node \S+ is not empty! Reshard data away and try again\./g,
  /\[ERR\] No such node ID \S+/g,
  /\bRedis Cluster\b/g,
];

/**
 * Latin words that are code, not prose: Redis's vocabulary (flags, roles, reply notations,
 * field names of CLUSTER NODES / SHARDS, `--cluster` subcommands), keys on a keyboard, names.
 */
const CODE_WORDS = new Set([
  'master', 'slave', 'replica', 'myself', 'fail', 'connected', 'disconnected', 'slots', 'nodes',
  'id', 'port', 'ip', 'role', 'hostname', 'integer', 'nil', 'empty', 'array', 'create',
  'rebalance', 'reshard', 'redis', 'cli', 'lua', 'page', 'up', 'down', 'home', 'end', 'shift',
  'esc', 'ctrl', 'cmd', 'enter', 'ms', 'mib', 'kib', 'npm', 'slotscope', 'ioredis',
]);

/**
 * The Latin prose words of `text`: after the verbatim lines and the reader's quoted text
 * (“…”, "…") are taken out, every run of ASCII letters (anything else separates words) of two
 * or more letters with a lower-case one, not glued to code (digits, `-`, `:`, `@`, `.`, `_`,
 * braces, backslashes, …) and not a code word.
 */
export function latinProse(text) {
  let rest = text;
  for (const re of VERBATIM) rest = rest.replace(re, ' ');
  rest = rest.replace(/“[^”]*”/g, ' ').replace(/"[^"]*"/g, ' ');
  const words = [];
  for (const raw of rest.split(/[\s\u0080-\uffff]+/)) {
    const token = raw.replace(/^[()"',;!…]+/, '').replace(/[()"',;!…]+$/, '');
    if (!token || /[0-9\-:@._{}\\%<>[\]=?/*$+#&|~^`]/.test(token)) continue;
    for (const word of token.split(/[^A-Za-z]+/)) {
      if (word.length >= 2 && /[a-z]/.test(word) && !CODE_WORDS.has(word.toLowerCase())) words.push(word);
    }
  }
  return words;
}

const CJK = /[\u3400-\u9fff]/;

/** Collects what is wrong with each message into `found`. */
function checker() {
  const found = [];
  const check = (what, text) => {
    if (!text || !text.trim()) {
      found.push(`${what}: no message`);
      return;
    }
    if (!CJK.test(text)) found.push(`${what}: not Chinese: ${JSON.stringify(text)}`);
    const prose = latinProse(text);
    if (prose.length) found.push(`${what}: Latin prose ${JSON.stringify(prose)} in ${JSON.stringify(text)}`);
  };
  return { found, check };
}

/** The text of `locator` outside `<code>`, `pre` and `.mono`. */
async function proseOf(locator) {
  return locator.evaluate((el) => {
    const copy = el.cloneNode(true);
    for (const c of copy.querySelectorAll('code, pre, .mono, kbd, textarea')) c.remove();
    return copy.textContent.trim();
  });
}

async function openZh() {
  const opened = await openPage(env.browser, env.server.url);
  await opened.page.getByTestId('lang-select').selectOption('zh');
  await opened.page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  return opened;
}

/** The command's output in a transcript: the lines after the `$ redis-cli …` line. */
async function output(name) {
  const text = await readFile(join(fixtures, 'transcripts', name), 'utf8');
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('$ '));
  return lines.slice(start + 1).join('\n').trimEnd();
}

const ID_A = 'd3bede0cd4ba07708f552c2e44e8211e0d571a39';
const ID_B = '44084a172411812451c56a0a3330ec6daa733083';
const ID_C = 'f7c6b5d608aefdd517b33641eb638ce56252d0b4';
const nodesLine = (id, addr, flags, master, rest) => `${id} ${addr} ${flags} ${master} 0 0 1 connected${rest ? ` ${rest}` : ''}`;
const MASTER_A = nodesLine(ID_A, '127.0.0.1:7000@17000', 'myself,master', '-', '0-16383');

/** Pastes `text` into the import field and returns the error shown, or null. */
async function importText(page, text) {
  const details = page.locator('.lab__import');
  if ((await details.getAttribute('open')) === null) await page.locator('.lab__import summary').click();
  await page.getByTestId('topology-input').fill(text);
  await page.getByTestId('topology-apply').click();
  await page.waitForTimeout(40);
  const error = page.getByTestId('topology-error');
  return (await error.count()) ? proseOf(error) : null;
}

test('every kind of import error and warning is worded in Chinese', async () => {
  const { page, context, problems } = await openZh();
  const { found, check } = checker();
  const nodes = await output('10_before_add_node_cluster_nodes.txt');
  const shards = await output('10_before_add_node_cluster_shards.txt');
  const slots = await output('10_before_add_node_cluster_slots.txt');
  const nodeLines = nodes.split('\n');
  const shardLines = shards.split('\n');
  const slotLines = slots.split('\n');
  const swap = (lines, i) => { const l = [...lines]; [l[i], l[i + 1]] = [l[i + 1], l[i]]; return l.join('\n'); };
  const portAt = shardLines.findIndex((l) => l.trim() === '3) "port"');
  const bigClaims = nodesLine(ID_A, '127.0.0.1:7000@17000', 'master', '-', Array(17).fill('0-16383').join(' '));
  const cases = [
    ['empty', '# just a comment\n$ redis-cli -p 7000 CLUSTER NODES\n'],
    ['unrecognised', 'cluster_state:ok\ncluster_slots_assigned:16384'],
    ['error reply', '$ redis-cli -p 7000 CLUSTER NODES\n(error) ERR This instance has cluster support disabled'],
    // One long line: a textarea lays out 28k short lines far more slowly than one long one.
    ['too large', 'k'.repeat(2 * 1024 * 1024 + 10)],
    ['no node id', `x${ID_A.slice(1)} 127.0.0.1:7000@17000 master - 0 0 1 connected 0-16383`],
    ['truncated line', `${nodeLines[0]}\n${nodeLines[1].slice(0, 68)}`],
    ['bad address', MASTER_A.replace('127.0.0.1:7000@17000', '127.0.0.1@17000')],
    ['bad flags', MASTER_A.replace('myself,master', 'myself,-')],
    ['two roles', MASTER_A.replace('myself,master', 'master,slave')],
    ['bad master id', MASTER_A.replace(' - 0 0 1', ' 12 0 0 1')],
    ['bad counter', MASTER_A.replace(' - 0 0 1', ' - 0 x 1')],
    ['bad link state', MASTER_A.replace('connected', 'linked')],
    ['slots on a replica', `${MASTER_A}\n${nodesLine(ID_B, '127.0.0.1:7001@17001', 'slave', ID_A, '0-10')}`],
    ['bad open slot', MASTER_A.replace('0-16383', '0-16383 [5712->-xyz]')],
    ['bad slot', MASTER_A.replace('0-16383', 'abc')],
    ['slot out of range', MASTER_A.replace('0-16383', '0-16384')],
    ['backward range', MASTER_A.replace('0-16383', '5-3')],
    ['node twice', `${MASTER_A}\n${MASTER_A}`],
    ['no master', nodesLine(ID_B, '127.0.0.1:7001@17001', 'slave', ID_A, '')],
    ['two replies', `$ redis-cli CLUSTER NODES\n${MASTER_A}\n$ redis-cli CLUSTER NODES\n${MASTER_A}`],
    ['too many slot claims', bigClaims],
    ['too deep', `${'1) '.repeat(20)}(integer) 0`],
    ['shards: shuffled items', swap(shardLines, 2)],
    ['shards: value cut', shardLines.slice(0, portAt + 1).join('\n')],
    ['shards: not a value', shards.replace('"port"', 'port?')],
    ['shards: raw, bad start', 'nodes\nslots'],
    ['shards: raw, no nodes', 'slots\n0\n5460'],
    ['slots: cut after a port', slotLines.slice(0, 4).join('\n')],
    ['slots: misaligned', slotLines.map((l, i) => (i === 3 ? ` ${l}` : l)).join('\n')],
    ['slots: bad integer', slots.replace('(integer) 0', '(integer) zero')],
    ['slots: raw, cut', '0\n5460\n127.0.0.1\n7000'],
    ['slots: one node two roles', `1) 1) (integer) 0
   2) (integer) 100
   3) 1) "127.0.0.1"
      2) (integer) 7000
      3) "${ID_A}"
   4) 1) "127.0.0.1"
      2) (integer) 7001
      3) "${ID_B}"
2) 1) (integer) 101
   2) (integer) 16383
   3) 1) "127.0.0.1"
      2) (integer) 7001
      3) "${ID_B}"`],
  ];
  for (const [name, text] of cases) {
    const error = await importText(page, text);
    check(`import, ${name}`, error);
  }
  // Warnings: the import succeeds and says what looked wrong.
  for (const [name, text] of [
    ['overlap and uncovered slots', `${nodesLine(ID_A, '127.0.0.1:7000@17000', 'master', '-', '0-100')}\n${nodesLine(ID_B, '127.0.0.1:7001@17001', 'master', '-', '50-200')}`],
    ['orphan replicas', `${MASTER_A}\n${nodesLine(ID_B, '127.0.0.1:7001@17001', 'slave', ID_C, '')}\n${nodesLine(ID_C, '127.0.0.1:7002@17002', 'slave', '-', '')}`],
  ]) {
    assert.equal(await importText(page, text), null, name);
    check(`import warning, ${name}`, await proseOf(page.getByTestId('topology-notice')));
  }
  assert.deepEqual(found, [], `English on the Chinese page:\n${found.join('\n')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

// Every class of malformed escape, as typed in the key field, a planner key line and free mode.
const MALFORMED = ['foo\\x4', 'foo\\xZZ', 'foo\\x', 'foo\\q', 'foo\\', '"foo', '"foo"bar'];

test('escape errors read in Chinese in the key field, the planner and free mode', async () => {
  const { page, context, problems } = await openZh();
  const { found, check } = checker();
  for (const typed of MALFORMED) {
    await typeKey(page, typed);
    const error = page.getByTestId('key-error');
    await error.waitFor();
    check(`key field ${JSON.stringify(typed)}`, await proseOf(error));
  }
  await typeKey(page, 'foo');

  // The planner, one key per line: each bad line is named with its line and column.
  await page.getByTestId('command-select').selectOption('MGET');
  await page.getByTestId('batch-input').fill(MALFORMED.join('\n'));
  await page.waitForFunction((n) => document.querySelectorAll('.planner .lab__error').length >= n, MALFORMED.length);
  for (const p of await page.locator('.planner .lab__error').all()) check('planner key line', await proseOf(p));

  // The planner, commands: redis-cli's `Invalid argument(s)` and the page's reason after it.
  await page.getByTestId('command-select').selectOption({ index: 0 });
  await page.getByTestId('batch-input').fill('GET "unclosed\nGET \'unclosed\nGET "a"b');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=verdict]').length === 3);
  for (const v of await page.getByTestId('verdict').all()) {
    const text = await v.textContent();
    assert.match(text, /^Invalid argument\(s\): /);
    check('planner command line', text);
  }

  // Free mode: the same lines, and the lines that are not commands at all.
  const input = page.getByTestId('free-command-input');
  let before = '';
  for (const line of ['GET "unclosed', "GET 'a'b", '@127.0.0.1:7000', '   ']) {
    await input.fill(line);
    await input.press('Enter');
    // Each line's error differs from the one before it: wait for the new one.
    await page.waitForFunction((b) => {
      const e = document.querySelector('[data-testid=free-error]');
      return e && e.textContent !== b;
    }, before);
    before = await page.getByTestId('free-error').textContent();
    check(`free mode ${JSON.stringify(line)}`, await proseOf(page.getByTestId('free-error')));
  }
  assert.deepEqual(found, [], `English on the Chinese page:\n${found.join('\n')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a paste too long for its field is refused in Chinese: the key, free mode, a template and the import', async () => {
  const { page, context, problems } = await openZh();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.server.url).origin });
  const { found, check } = checker();
  // Over each limit, the import's 2 MiB too.
  await page.evaluate((n) => navigator.clipboard.writeText('k'.repeat(n)), 2 * 1024 * 1024 + 100);
  await page.locator('.lab__import summary').click();
  for (const [id, error] of [['key-input', '[data-testid=key-error]'], ['free-command-input', '.redir__free [data-testid=paste-refused]'], ['tag-template', '.tags [data-testid=paste-refused]'], ['topology-input', '.lab__import [data-testid=paste-refused]']]) {
    await page.getByTestId(id).scrollIntoViewIfNeeded();
    await page.getByTestId(id).click();
    await page.keyboard.press('Control+V');
    await page.locator(error).waitFor();
    check(`${id} paste`, await proseOf(page.locator(error)));
  }
  assert.match(await page.locator('.tags [data-testid=paste-refused]').textContent(), /^粘贴后该输入框将有 2,097,\d{3} 字节/);
  assert.match(await page.getByTestId('key-error').textContent(), /^这个键将有 2,097,\d{3} 字节/);
  assert.deepEqual(found, [], `English on the Chinese page:\n${found.join('\n')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The topology lab's error after `act`, or fails. */
async function labError(page, act) {
  await act();
  const error = page.getByTestId('topology-error');
  await error.waitFor();
  return proseOf(error);
}

test('refused reshards, rebalances and removals, and a comparison that cannot run, read in Chinese', async () => {
  const { page, context, problems } = await openZh();
  const { found, check } = checker();
  const rebalance = () => page.getByTestId('rebalance').click();
  const reshard = () => page.getByTestId('reshard').click();

  // The page's own refusals of what was typed.
  await page.getByTestId('weights').fill('127.0.0.1:9999=2');
  check('rebalance, weight for no master', await labError(page, rebalance));
  await page.getByTestId('weights').fill('127.0.0.1:7000=-1');
  check('rebalance, negative weight', await labError(page, rebalance));
  await page.getByTestId('weights').fill('127.0.0.1:7000');
  check('rebalance, weight without =', await labError(page, rebalance));
  await page.getByTestId('weights').fill('');
  await page.getByTestId('reshard-slots').fill('0');
  check('reshard, no slots', await labError(page, reshard));
  await page.getByTestId('reshard-slots').fill('100');
  // A master that still owns slots cannot be removed.
  check('remove a master with slots', await labError(page, () => page.locator('[data-testid=node-row][data-addr="127.0.0.1:7000"] button').nth(1).click()));

  // redis-cli's refusals: a cluster with uncovered slots, then one with an open slot.
  await importText(page, nodesLine(ID_A, '127.0.0.1:7000@17000', 'myself,master', '-', '0-8000') + '\n'
    + nodesLine(ID_B, '127.0.0.1:7001@17001', 'master', '-', '8001-10000'));
  check('rebalance with uncovered slots', await labError(page, rebalance));
  check('reshard with uncovered slots', await labError(page, reshard));
  await importText(page, nodesLine(ID_A, '127.0.0.1:7000@17000', 'myself,master', '-', `0-8191 [5712->-${ID_B}]`) + '\n'
    + nodesLine(ID_B, '127.0.0.1:7001@17001', 'master', '-', '8192-16383'));
  check('rebalance with an open slot', await labError(page, rebalance));

  // A comparison that cannot run.
  await page.locator('#cmp-n').fill('0');
  const cmp = page.locator('.compare [role=alert]');
  await cmp.waitFor();
  check('compare with no masters', await proseOf(cmp));
  assert.deepEqual(found, [], `English on the Chinese page:\n${found.join('\n')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

// The notes for what the page does not run (INFO, a pop that would block for ever, RESTORE, a
// value too large for the page) and for a script it does
// not run. The script note is moved out of the engine by another change (helper `replies`);
// until that is merged this test fails on the EVAL line only, and says so.
test('the notes for what the page does not run read in Chinese', async () => {
  const { page, context, problems } = await openZh();
  const { found, check } = checker();
  await page.getByTestId('batch-input').fill('INFO\nBLPOP hello 0\nRESTORE hello 0 x\nSETRANGE hello 100000000 x');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=verdict-note]').length === 4);
  for (const n of await page.getByTestId('verdict-note').all()) check('not run', await n.textContent());
  assert.deepEqual(found, [], `English on the Chinese page:\n${found.join('\n')}`);

  await page.getByTestId('batch-input').fill('EVAL "while true do end" 0');
  await page.waitForFunction(() => document.querySelectorAll('.verdict').length === 1);
  const line = page.locator('.verdict').first();
  const note = line.getByTestId('verdict-note');
  const text = (await note.count()) ? await note.textContent() : await line.getByTestId('verdict').textContent();
  check('script not run (needs the script note moved to the page, helper replies)', text);
  assert.deepEqual(found, [], `English on the Chinese page:\n${found.join('\n')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the prose detector finds the messages the issue quotes and lets code through', () => {
  assert.ok(latinProse('第 4 行：应为 8 fields (id, address, flags, master, ping-sent, pong-recv, config-epoch, link-state) before the slots，实际是 only 2: "x"').length > 0);
  assert.ok(latinProse('应为 a node id (40 hex digits) at the start of the line').length > 0);
  assert.ok(latinProse('ERR slotscope does not run this script (line 1, column 6: …)').length > 0);
  assert.deepEqual(latinProse('第 4 行：应为槽之前的 8 个字段（节点 ID、地址、ping-sent），实际是只有 2 个：“abc def”'), []);
  assert.deepEqual(latinProse('集群检查发现问题：[ERR] Not all 16384 slots are covered by nodes.\n*** Please fix your cluster problems before resharding'), []);
  assert.deepEqual(latinProse('Invalid argument(s): 第 5 列：这个引号（"）没有闭合'), []);
  assert.deepEqual(latinProse('形如 myself,master 或 slave,fail? 的标志'), []);
});
