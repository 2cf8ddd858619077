// The journal file observations.jsonl: appends one JSON record per line, written before the append returns (or, inside
// `group`, before the group returns), and reads it back.
import { closeSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { InfraError } from '../common/errors.js';
import { WATCHED_KINDS } from './types.js';
import type {
  ForecastObservation,
  GapObservation,
  ObjectObservation,
  Observation,
  PhaseName,
  PhaseObservation,
  ProbeObservation,
} from './types.js';

/** A record before the journal stamps it: the journal sets `seq` and `type`; `receivedAtMs` defaults to now. */
export type NewObservation<T extends Observation> = Omit<T, 'seq' | 'type' | 'receivedAtMs'> & { receivedAtMs?: number };

/** Receives one-line warnings and notices; library code never prints. */
export type LogFn = (level: 'info' | 'warn', message: string) => void;

/**
 * An open observations.jsonl. Every `append` is written with one `write(2)` of a full line before it
 * returns, so a `kill -9` of the process leaves every earlier record readable. Inside `group` the appends of one
 * synchronous batch share one `write(2)`, made before `group` returns (see there why that keeps the guarantee).
 */
export interface Journal {
  /** Absolute or relative path of the file, as given to `openJournal`. */
  readonly path: string;
  /** Number of records written so far (the next record's `seq`). */
  readonly count: number;
  /** Append an object observation (from the observer). @throws InfraError if the write fails. */
  appendObject(record: NewObservation<ObjectObservation>): ObjectObservation;
  /** Append a gap record (a watch that broke and was re-listed). @throws InfraError if the write fails. */
  appendGap(record: NewObservation<GapObservation>): GapObservation;
  /** Append one probe request's outcome (lib/observe/prober.ts). @throws InfraError if the write fails. */
  appendProbe(record: NewObservation<ProbeObservation>): ProbeObservation;
  /** Append the run's frozen forecast (before the first fault command). @throws InfraError if the write fails. */
  appendForecast(record: NewObservation<ForecastObservation>): ForecastObservation;
  /**
   * Mark a run phase, e.g. `mark('fault-injected', { nodes: ['kind-worker'] })`; stamped with the client
   * clock (Unix epoch milliseconds) unless `atMs` is given. @throws InfraError if the write fails.
   */
  mark(phase: PhaseName, options?: { nodes?: string[]; detail?: Record<string, unknown>; atMs?: number }): PhaseObservation;
  /**
   * Call `listener` with every record after it is written (live reporters, progress display); returns an
   * unsubscribe function. A listener that throws is removed so it cannot break the journal.
   */
  subscribe(listener: (record: Observation) => void): () => void;
  /**
   * Run `fn` (synchronous) with its appends written together: records are stamped and returned as usual, kept in
   * memory, and written with one `write(2)` when `fn` returns or throws (earlier if they reach GROUP_MAX_BYTES),
   * before `group` returns; listeners are called after that write. The observer wraps each chunk read from a watch
   * stream in it, so 5000 events/s cost a few hundred writes per second instead of 5000.
   * Why this keeps the journal's guarantee: JavaScript runs `fn` to its end before anything else in the process, so
   * no code outside the group, no listener and no other I/O can act on a grouped record before it is written; a
   * `kill -9` during `fn` loses only records nothing has seen, as if it had come before the chunk was read. `fn`
   * must therefore not itself do I/O that assumes its appends are on disk (the watch callbacks do none).
   * Nested groups join the outermost. Returns what `fn` returns.
   * @throws InfraError if the write fails (after `fn` ran); whatever `fn` throws, after its records are written.
   */
  group<T>(fn: () => T): T;
  /** fsync and close the file; later appends throw. */
  close(): void;
}

/**
 * Most characters of records a `group` keeps before writing them: bounds the memory a group holds and the records a
 * `kill -9` inside one can lose to what one chunk of a watch stream (64 KiB) produces, with room to spare.
 */
export const GROUP_MAX_BYTES = 1024 * 1024;

/** Options of `openJournal`. */
export interface OpenJournalOptions {
  /** Client clock, Unix epoch milliseconds; injected by tests. Default `Date.now`. */
  nowMs?: () => number;
}

/**
 * Create (truncate) a journal file at `path` and return its writer.
 * @throws InfraError if the file cannot be opened.
 */
export function openJournal(path: string, options: OpenJournalOptions = {}): Journal {
  const nowMs = options.nowMs ?? Date.now;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'w');
  } catch (err) {
    throw new InfraError(`cannot open journal ${path}: ${(err as Error).message}`, 'check that the run directory is writable', { cause: err });
  }
  let seq = 0;
  const listeners = new Set<(record: Observation) => void>();
  /** Depth of nested `group` calls; 0 outside any. */
  let grouping = 0;
  /** Lines and records appended inside the current group, not yet written. */
  let pendingText = '';
  let pendingRecords: Observation[] = [];
  const writeText = (text: string): void => {
    if (fd === undefined) throw new InfraError(`journal ${path} is closed`);
    try {
      writeSync(fd, text);
    } catch (err) {
      throw new InfraError(`cannot write journal ${path}: ${(err as Error).message}`, 'check free disk space', { cause: err });
    }
  };
  const notify = (records: readonly Observation[]): void => {
    for (const record of records) {
      for (const listener of listeners) {
        try {
          listener(record);
        } catch {
          listeners.delete(listener);
        }
      }
    }
  };
  const flush = (): void => {
    if (pendingRecords.length === 0) return;
    const [text, records] = [pendingText, pendingRecords];
    pendingText = '';
    pendingRecords = [];
    writeText(text);
    notify(records);
  };
  const write = <T extends Observation>(record: NewObservation<T> & { type: T['type'] }): T => {
    if (fd === undefined) throw new InfraError(`journal ${path} is closed`);
    // seq and type first, then the record's own fields: a stable key order keeps the file diffable.
    const { type, ...fields } = record;
    const full = { seq, type, ...fields, receivedAtMs: record.receivedAtMs ?? nowMs() } as unknown as T;
    const line = JSON.stringify(full) + '\n';
    if (grouping > 0) {
      pendingText += line;
      pendingRecords.push(full);
      seq += 1;
      if (pendingText.length >= GROUP_MAX_BYTES) flush();
      return full;
    }
    writeText(line);
    seq += 1;
    notify([full]);
    return full;
  };
  return {
    path,
    get count() {
      return seq;
    },
    appendObject: (record) => write<ObjectObservation>({ ...record, type: 'object' }),
    appendGap: (record) => write<GapObservation>({ ...record, type: 'gap' }),
    appendProbe: (record) => write<ProbeObservation>({ ...record, type: 'probe' }),
    appendForecast: (record) => write<ForecastObservation>({ ...record, type: 'forecast' }),
    mark: (phase, opts = {}) =>
      write<PhaseObservation>({
        type: 'phase',
        phase,
        ...(opts.nodes ? { nodes: opts.nodes } : {}),
        ...(opts.detail ? { detail: opts.detail } : {}),
        receivedAtMs: opts.atMs,
      }),
    group(fn) {
      grouping += 1;
      let failed = false;
      try {
        return fn();
      } catch (err) {
        failed = true;
        throw err;
      } finally {
        grouping -= 1;
        if (grouping === 0) {
          // A write error is thrown only when fn did not throw already (fn's error says more).
          try {
            flush();
          } catch (err) {
            if (!failed) throw err;
          }
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      if (fd === undefined) return;
      try {
        flush();
      } catch {
        // closing must not throw for a record that could not be written; the write error was the caller's to see
      }
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
        fd = undefined;
      }
    },
  };
}

const WATCHED_KIND_SET: ReadonlySet<string> = new Set(WATCHED_KINDS);
const VERBS = new Set(['LISTED', 'ADDED', 'MODIFIED', 'DELETED']);
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
/** An instant a Date can hold (ECMAScript: ±8.64e15 ms around the epoch); later ones make toISOString throw. */
const isInstantMs = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 8.64e15;

/**
 * Why a parsed line is not a record of the shape types.ts gives (the fields analysis reads without checking), or
 * null when it is one. A journal comes from a run directory someone handed over: a record of the wrong shape is
 * skipped with a warning, as a torn line is, rather than crashing the analysis.
 */
export function recordProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'not a JSON object';
  if (!isFiniteNumber(value.seq)) return 'seq is not a number';
  if (!isInstantMs(value.receivedAtMs)) return 'receivedAtMs is not an instant in milliseconds';
  switch (value.type) {
    case 'object': {
      if (typeof value.kind !== 'string' || !WATCHED_KIND_SET.has(value.kind)) return 'kind is not a watched kind';
      if (typeof value.verb !== 'string' || !VERBS.has(value.verb)) return 'verb is not LISTED, ADDED, MODIFIED or DELETED';
      if (typeof value.name !== 'string' || typeof value.uid !== 'string') return 'name or uid is not a string';
      if (value.namespace !== undefined && typeof value.namespace !== 'string') return 'namespace is not a string';
      if (!isPlainObject(value.object)) return 'object is not a JSON object';
      return null;
    }
    case 'phase':
      if (typeof value.phase !== 'string') return 'phase is not a string';
      if (value.nodes !== undefined && !(Array.isArray(value.nodes) && value.nodes.every((n) => typeof n === 'string'))) return 'nodes is not a list of names';
      if (value.detail !== undefined && !isPlainObject(value.detail)) return 'detail is not an object';
      return null;
    case 'gap':
      if (typeof value.kind !== 'string' || !isInstantMs(value.fromMs) || !isInstantMs(value.toMs)) return 'a gap needs kind, fromMs and toMs';
      return null;
    case 'probe':
      if (typeof value.probe !== 'string' || !isInstantMs(value.sentAtMs) || !isFiniteNumber(value.latencyMs) || typeof value.outcome !== 'string') return 'a probe record needs probe, sentAtMs, latencyMs and outcome';
      return null;
    case 'forecast':
      // The forecast measurement reads its items and targets (lib/analyze/measurements/forecast.ts).
      if (!isPlainObject(value.forecast) || !Array.isArray(value.forecast.items) || !Array.isArray(value.forecast.targets)) return 'a forecast record needs forecast.items and forecast.targets lists';
      return null;
    default:
      return 'type is not object, phase, gap, probe or forecast';
  }
}

/**
 * A journal line that was skipped: 1-based `line` and `column` (the character where JSON parsing stopped, 1 when the
 * parser does not say or the line is valid JSON of the wrong shape), what is wrong with it, and whether it is the
 * torn last line a `kill -9` of the writer leaves (expected; any other skipped line means the file is damaged).
 */
export interface SkippedJournalLine {
  line: number;
  column: number;
  /** e.g. `unreadable line (42 bytes)`, `torn last line (42 bytes)`, `not a journal record (kind is not a watched kind)`. */
  problem: string;
  tornLast: boolean;
}

/** The 1-based column where JSON.parse stopped reading `line`, from its message (V8: "... at position 7"; "Unexpected end" is the end). */
function jsonErrorColumn(error: unknown, line: string): number {
  const message = error instanceof Error ? error.message : '';
  const at = /at position (\d+)/.exec(message);
  if (at) return Math.min(Number(at[1]), line.length) + 1;
  return /Unexpected end of JSON input/.test(message) ? line.length + 1 : 1;
}

/**
 * Parses journal lines one at a time (1-based `lineNumber`), appending records to `records` and each skipped line to
 * `skipped` (with one warning through `log`, `source:line:column: problem; skipped`); see parseJournal.
 */
function parseLine(text: string, lineNumber: number, isLast: boolean, records: Observation[], log: LogFn, source: string, skipped: SkippedJournalLine[]): void {
  // rebootlab never writes a byte order mark; an editor that saved the file may, and the first record is still one.
  const line = lineNumber === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (line.trim() === '') return;
  const skip = (column: number, problem: string, tornLast: boolean): void => {
    skipped.push({ line: lineNumber, column, problem, tornLast });
    log('warn', `${source}:${lineNumber}:${column}: ${problem}; skipped`);
  };
  let value: Observation;
  try {
    value = JSON.parse(line) as Observation;
  } catch (error) {
    skip(jsonErrorColumn(error, line), `${isLast ? 'torn last line' : 'unreadable line'} (${line.length} bytes)`, isLast);
    return;
  }
  const wrong = recordProblem(value);
  if (wrong !== null) {
    // A last line without its newline is what a killed writer leaves, whatever its bytes happen to parse as.
    skip(1, `not a journal record (${wrong})`, isLast);
    return;
  }
  records.push(value);
}

/** Skipped lines warned about one by one; the rest of a damaged journal's are counted in one line (a file of 100,000 bad lines printed 100,000). */
export const MAX_SKIPPED_LINE_WARNINGS = 20;

/**
 * `log` passing on the first MAX_SKIPPED_LINE_WARNINGS skipped-line warnings; `done()` then warns once how many more
 * lines of `source` were skipped without a line of their own (each is still in `skipped`).
 */
function cappedSkipLog(log: LogFn, source: string): { log: LogFn; done: () => void } {
  let count = 0;
  return {
    log: (level, message) => {
      count += 1;
      if (count <= MAX_SKIPPED_LINE_WARNINGS) log(level, message);
    },
    done: () => {
      if (count > MAX_SKIPPED_LINE_WARNINGS) log('warn', `${source}: ${count - MAX_SKIPPED_LINE_WARNINGS} more lines skipped (${count} in all), not listed`);
    },
  };
}

/**
 * Parse the text of an observations.jsonl. A line that is not valid JSON is skipped with a warning:
 * the last line may be torn by a `kill -9`; a torn line elsewhere is reported the same way.
 * Records are returned in file order; each skipped line is also appended to `skipped` when given. The first
 * MAX_SKIPPED_LINE_WARNINGS skipped lines get a warning each, the rest one line counting them.
 */
export function parseJournal(text: string, log: LogFn = () => {}, source = 'observations.jsonl', skipped: SkippedJournalLine[] = []): Observation[] {
  const records: Observation[] = [];
  const lines = text.split('\n');
  const capped = cappedSkipLog(log, source);
  for (let i = 0; i < lines.length; i++) parseLine(lines[i], i + 1, i === lines.length - 1, records, capped.log, source, skipped);
  capped.done();
  return records;
}

/** Bytes read per read(2) by readJournal. */
const READ_CHUNK_BYTES = 4 * 1024 * 1024;
/** Byte value of '\n'; it never occurs inside a UTF-8 multi-byte sequence, so lines can be split on bytes. */
const NEWLINE = 0x0a;

/**
 * Read a journal file, as parseJournal does with its text, but in chunks of READ_CHUNK_BYTES split into lines on
 * bytes, decoding one line at a time: a 1000-node / 10,000-pod journal is a few hundred MB, and holding it whole as
 * one string (twice its size in UTF-16) before parsing took longer than the parsing; decoding each chunk through a
 * StringDecoder and slicing the string cost about as much again as JSON.parse (bench/run.ts --only report).
 * A line that is not a record is skipped with a warning through `log` (`path:line:column: problem; skipped`) and
 * appended to `skipped` when given: a torn last line (from a killed writer) is expected, any other means the file is damaged.
 * The first MAX_SKIPPED_LINE_WARNINGS skipped lines get a warning each, the rest one line counting them.
 * @throws InfraError if the file cannot be read.
 */
export function readJournal(path: string, warn: LogFn = () => {}, skipped: SkippedJournalLine[] = []): Observation[] {
  const records: Observation[] = [];
  const capped = cappedSkipLog(warn, path);
  const log = capped.log;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    let buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    /** Bytes of buffer[0, filled) not yet parsed start at `start`. */
    let filled = 0;
    let lineNumber = 0;
    for (;;) {
      if (filled === buffer.length) {
        // One line longer than the buffer: grow it rather than split the line.
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      const bytes = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (bytes === 0) break;
      const end = filled + bytes;
      let start = 0;
      for (let newline = buffer.indexOf(NEWLINE, filled); newline >= 0 && newline < end; newline = buffer.indexOf(NEWLINE, start)) {
        parseLine(buffer.toString('utf8', start, newline), ++lineNumber, false, records, log, path, skipped);
        start = newline + 1;
        if (start >= end) break;
      }
      // Keep the unfinished line at the front of the buffer for the next read.
      buffer.copy(buffer, 0, start, end);
      filled = end - start;
    }
    parseLine(buffer.toString('utf8', 0, filled), ++lineNumber, true, records, log, path, skipped);
    capped.done();
  } catch (err) {
    throw new InfraError(`cannot read journal ${path}: ${(err as Error).message}`, 'pass a run directory that holds observations.jsonl', { cause: err });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return records;
}
