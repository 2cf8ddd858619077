// Fuzz-style test of the CLI under hostile input (issue 27): generated malformed experiment files, argument lists and
// run directories go through the real CLI entry (main(), in process, as test/unit/cli/arguments.test.ts calls it) for
// `validate`, `plan`, `report` and `compare`. Every input must end as bad input (exit 2) in a few lines, or be
// accepted (0, or 1 for a run or gate that failed); never exit 3, never "a bug in rebootlab", each within a time
// bound. Deterministic: REBOOTLAB_FUZZ_SEED picks another sequence (default 27); the count is printed.
import { expect } from 'chai';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../lib/cli/main.js';
import { MAX_PRINTED_ISSUES } from '../../../lib/cli/print-error.js';

/** Most stderr lines one input may give: the printed issues, the "more issues" line and a hint. */
const MAX_LINES = MAX_PRINTED_ISSUES + 2;
/** Longest stderr line: file and path (160 characters each) and a message (1000), with their separators. */
const MAX_LINE_CHARS = 1400;
/** Per input, milliseconds: generous for a loaded 2-core machine (most take a few ms; a report of a run ~100 ms). */
const MAX_MS_PER_INPUT = 10_000;

/** mulberry32: a small seeded PRNG, so a failure reproduces from its seed and index. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_VALUES = [
  '.inf', '-.inf', '.nan', '-1', '0', '1e9', '1e300', '99999999999999999999999', '1.5', '""', "''", '~', 'null', 'true', '[]', '{}', '[1, 1]',
  '*nope', '&a x', '!!binary AAAA', '!!js/function "x"', '"\\u001b[2J"', '"a\\nb"', '__proto__', 'constructor', '"x.*"', '"a("', '0s', '600h',
  '3000000h', '-5s', '1m1m1m', `"${'a'.repeat(3000)}"`, '[60s, 60s]', '{a: 1, a: 2}', '"=> 3"', '"node.__proto__ == 1"', '"a < b < c"',
  '"pods[workload=web].outcome < 5"', '"count(predictions.missed) in [1, 0]"', '"p100(run.endAfterSeconds) < 1"', 'rebootlab-worker9',
  '{selector: "a=b,,c"}', '{command: {off: "rm -rf /", on: "$(reboot)"}}', '"\u202e"', '"😀"', '- x', '| \n  y', '>-', '[[[[[[[[[[', '}}',
];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '"a\\nb"', '"<<"', '"."', '""', '"1"', 'x'.repeat(900), '"\\u0000"', 'apiVersion'];
const WHOLE_FILES = [
  '', '---', '---\n---\n', '[]', 'null', "'str'", '42', '"\\u0000"', `${'['.repeat(5000)}`, `${'{a: '.repeat(3000)}`, 'a: &a [*a]',
  'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\nfault: {type: reboot}\nrepeat: 1000\nmatrix: {cluster.controllerManager.kubeAPIBurst: [1, 2]}\n',
  `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n`,
];

/** One mutation of an experiment file's text. */
function mutate(text: string, rand: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const lines = text.split('\n');
  const at = Math.floor(rand() * lines.length);
  switch (Math.floor(rand() * 9)) {
    case 0: { // a value replaced
      const m = /^(\s*(?:- )?[^:#]+:\s*)(.*)$/.exec(lines[at] ?? '');
      if (m) lines[at] = m[1] + pick(HOSTILE_VALUES);
      else lines[at] = `${lines[at] ?? ''} ${pick(HOSTILE_VALUES)}`;
      return lines.join('\n');
    }
    case 1: { // a key replaced
      const m = /^(\s*(?:- )?)([^:#\s][^:#]*)(:.*)$/.exec(lines[at] ?? '');
      if (m) lines[at] = m[1] + pick(HOSTILE_KEYS) + m[3];
      return lines.join('\n');
    }
    case 2:
      lines.splice(at, 1);
      return lines.join('\n');
    case 3:
      lines.splice(at, 0, lines[at] ?? '');
      return lines.join('\n');
    case 4:
      return text.slice(0, Math.floor(rand() * text.length));
    case 5: { // indentation shifted
      lines[at] = rand() < 0.5 ? `  ${lines[at] ?? ''}` : (lines[at] ?? '').replace(/^\s{1,2}/, '');
      return lines.join('\n');
    }
    case 6: { // raw characters inserted
      const offset = Math.floor(rand() * text.length);
      const chars = pick(['\u0000', '\u001b[2J', '\t', '\r', '\uFFFD', '%', '@', '`', '{', ']', '"', "'", '&x ', '*x', '!', '|', '? ']);
      return text.slice(0, offset) + chars + text.slice(offset);
    }
    case 7: // a hostile top-level key
      return `${text}\n${pick(HOSTILE_KEYS)}: ${pick(HOSTILE_VALUES)}\n`;
    default: // a list grown
      return `${text}\nexpect: [${Array.from({ length: 1 + Math.floor(rand() * 50) }, () => pick(HOSTILE_VALUES.filter((v) => v.startsWith('"')))).join(', ')}]\n`;
  }
}

/** One JSON mutation (for run.json, result.json and journal records): a field removed or given a hostile value. */
function mutateJson(value: unknown, rand: () => number): unknown {
  const hostile: unknown[] = [null, [], {}, 'x', -1, 1e308, true, 0, '', { kind: 'Result' }, [1, 2], 'fast'];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  if (typeof value !== 'object' || value === null) return pick(hostile);
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
  const keys = Object.keys(copy);
  if (keys.length === 0 || rand() < 0.1) return pick(hostile);
  const key = pick(keys);
  const r = rand();
  if (r < 0.25) delete copy[key];
  else if (r < 0.6) copy[key] = pick(hostile);
  else copy[key] = mutateJson(copy[key], rand);
  return copy;
}

interface Outcome {
  exitCode: number;
  stderr: string;
  ms: number;
}

/**
 * main(argv) in process, its output captured: the report command's warnings go to process.stderr directly, and
 * yargs prints --help through console.log.
 */
async function cli(argv: string[]): Promise<Outcome> {
  let stderr = '';
  const saved = { exitCode: process.exitCode, write: process.stderr.write, out: process.stdout.write };
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  const start = performance.now();
  try {
    const exitCode = await main(argv, { stdout: () => {}, stderr: (t) => void (stderr += t) });
    return { exitCode, stderr, ms: performance.now() - start };
  } finally {
    process.stderr.write = saved.write;
    process.stdout.write = saved.out;
    process.exitCode = saved.exitCode;
  }
}

describe('cli fuzz: hostile input to validate, plan, report and compare (issue 27)', function () {
  this.timeout(120_000);
  const seed = Number(process.env.REBOOTLAB_FUZZ_SEED ?? 27);
  let dir: string;
  let tried = 0;
  const exitCodes = new Map<number, number>();
  let slowestMs = 0;
  let started = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-fuzz-'));
    started = performance.now();
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    const codes = [...exitCodes.entries()].sort(([a], [b]) => a - b).map(([code, n]) => `exit ${code}: ${n}`).join(', ');
    process.stdout.write(`      fuzz (seed ${seed}): ${tried} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s (${codes}); slowest ${slowestMs.toFixed(0)} ms\n`);
  });

  /** Runs one input and checks the contract; `accepted` lists the exit codes besides 2 this input may give. */
  async function check(argv: string[], accepted: readonly number[], what: string): Promise<Outcome> {
    const outcome = await cli(argv);
    tried++;
    exitCodes.set(outcome.exitCode, (exitCodes.get(outcome.exitCode) ?? 0) + 1);
    slowestMs = Math.max(slowestMs, outcome.ms);
    if (process.env.REBOOTLAB_FUZZ_SLOW && outcome.ms > Number(process.env.REBOOTLAB_FUZZ_SLOW)) process.stdout.write(`slow ${outcome.ms.toFixed(0)} ms: ${argv.join(' ').slice(0, 200)}\n`);
    const context = `${what} (seed ${seed}, input ${tried}): rebootlab ${argv.map((a) => JSON.stringify(a.length > 80 ? `${a.slice(0, 80)}…` : a)).join(' ')}\n${outcome.stderr.slice(0, 2000)}`;
    expect(outcome.stderr, context).to.not.match(/bug in rebootlab|unexpected error|\n\s+at /);
    expect([2, ...accepted], context).to.include(outcome.exitCode);
    const lines = outcome.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('warning: '));
    if (outcome.exitCode === 2) {
      // Each file argument may bring its own lines (validate a.yaml b.yaml).
      expect(lines.length, context).to.be.within(1, MAX_LINES * Math.max(1, argv.length - 1));
      for (const line of lines) expect(line.length, context).to.be.at.most(MAX_LINE_CHARS);
      expect(lines[0], context).to.match(/^ERROR: /);
    }
    expect(outcome.ms, context).to.be.below(MAX_MS_PER_INPUT);
    return outcome;
  }

  it('malformed experiment files: validate and plan', async () => {
    const rand = prng(seed);
    const sources = ['experiments', 'experiments/catalog'].flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join(d, f), 'utf8')));
    const texts = [...WHOLE_FILES];
    for (let i = 0; i < 450; i++) {
      let text = sources[Math.floor(rand() * sources.length)]!;
      for (let n = 1 + Math.floor(rand() * 3); n > 0; n--) text = mutate(text, rand);
      texts.push(text);
    }
    let bad = 0;
    for (const [i, text] of texts.entries()) {
      const file = join(dir, `e${i}.yaml`);
      // Some files as raw bytes that are not UTF-8.
      writeFileSync(file, i % 50 === 7 ? Buffer.concat([Buffer.from(text.slice(0, 40)), Buffer.from([0xc3, 0x28, 0xff])]) : text);
      const outcome = await check(['validate', file], [0], 'validate');
      if (outcome.exitCode === 2) bad++;
      if (i % 4 === 0) {
        // A valid kind experiment exits 3 on a machine whose toolchain is not built: an infrastructure answer, not a crash.
        const plan = await check(['plan', file], [0, 3], 'plan');
        if (plan.exitCode === 3) expect(plan.stderr).to.match(/^ERROR: (kwok provider: )?Kubernetes v[0-9.]+ (is not built here|[^\n]*not built)[^\n]*\nRun: npm run toolchain/);
      }
    }
    // Most mutations break a file; a fuzz whose inputs all pass tests nothing.
    expect(bad).to.be.above(texts.length / 2);
  });

  it('hostile argument lists: validate, plan, report, compare', async () => {
    const rand = prng(seed + 1);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
    const run = join(dir, 'run');
    cpSync('test/fixtures/runs/reboot-quick', run, { recursive: true });
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{');
    const words = [
      'experiments/reboot-quick.yaml', 'test/fixtures/experiments/invalid-count-zero.yaml', join(dir, 'missing.yaml'), dir, '/dev/null', run, notJson,
      `${run}/result.json`, '', '-', '--', 'x'.repeat(5000), '\u001b[2J', '--set', 'fault.duration=1', '--set=__proto__.x=1', 'fault.type', '--foo', '-x',
      '--format', 'bogus', 'json', '--baseline', '--baseline-variant', 'nope', '--tolerance-seconds', '-1', 'NaN', '--tolerance-percent', 'abc',
      '-o', 'xml', '--output', '--baseline-any', '--shard', '0/0', '--help', '--version', '--no-verbose', '--set', 'nosuch.path=1', 'a=b=c', '=1',
    ];
    for (let i = 0; i < 260; i++) {
      const command = pick(['validate', 'plan', 'report', 'compare', 'valdate', 'cluster', '--bogus']);
      const argv = [command, ...Array.from({ length: Math.floor(rand() * 5) }, () => pick(words))];
      // `cluster` alone would create or list clusters: only its refusals are fuzzed (a bad action).
      if (command === 'cluster') argv.splice(1, 0, pick(['explode', '', 'Create']));
      // 0: --help, --version or a valid file; 1: a run that did not pass or a gate that regressed.
      await check(argv, [0, 1], 'argv');
    }
  });

  it('damaged run directories: report and compare', async () => {
    const rand = prng(seed + 2);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
    const source = 'test/fixtures/runs/reboot-quick';
    const journal = readFileSync(join(source, 'observations.jsonl'), 'utf8').split('\n').filter(Boolean);
    for (let i = 0; i < 70; i++) {
      const run = join(dir, `r${i}`);
      mkdirSync(run);
      cpSync(source, run, { recursive: true });
      const target = pick(['run.json', 'result.json', 'journal', 'journal', 'link', 'tree']);
      if (target === 'run.json' || target === 'result.json') {
        const value = JSON.parse(readFileSync(join(source, target), 'utf8')) as unknown;
        writeFileSync(join(run, target), rand() < 0.15 ? JSON.stringify(value).slice(0, Math.floor(rand() * 200)) : JSON.stringify(mutateJson(value, rand)));
      } else if (target === 'journal') {
        const records = [...journal];
        for (let n = 1 + Math.floor(rand() * 4); n > 0; n--) {
          const at = Math.floor(rand() * records.length);
          const r = rand();
          if (r < 0.3) records.splice(at, 1);
          else if (r < 0.5) records.splice(at, 0, records[Math.floor(rand() * records.length)]!);
          else if (r < 0.8) records[at] = JSON.stringify(mutateJson(JSON.parse(records[at]!) as unknown, rand));
          else records[at] = records[at]!.slice(0, Math.floor(rand() * records[at]!.length));
        }
        writeFileSync(join(run, 'observations.jsonl'), rand() < 0.1 ? '' : `${records.join('\n')}\n`);
      } else if (target === 'link') {
        const victim = join(dir, `victim${i}`);
        writeFileSync(victim, 'X');
        const name = pick(['summary.md', 'result.json', 'report.html', 'junit.xml']);
        rmSync(join(run, name), { force: true });
        symlinkSync(victim, join(run, name));
      } else {
        rmSync(join(run, pick(['run.json', 'observations.jsonl', 'result.json'])), { force: true });
      }
      await check(['report', run], [0, 1], `report (${target})`);
      await check(['compare', run, ...(rand() < 0.3 ? ['--baseline', join(source, 'result.json')] : [])], [0, 1], `compare (${target})`);
    }
    for (const victim of readdirSync(dir).filter((f) => f.startsWith('victim'))) expect(readFileSync(join(dir, victim), 'utf8')).to.equal('X');
  });
});
