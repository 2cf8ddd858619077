// The journal file observations.jsonl: appends one JSON record per line, flushed per record, and reads it back.
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { InfraError } from '../common/errors.js';
import type {
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
 * returns, so a `kill -9` of the process leaves every earlier record readable.
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
  /** fsync and close the file; later appends throw. */
  close(): void;
}

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
  const write = <T extends Observation>(record: NewObservation<T> & { type: T['type'] }): T => {
    if (fd === undefined) throw new InfraError(`journal ${path} is closed`);
    // seq and type first, then the record's own fields: a stable key order keeps the file diffable.
    const { type, ...fields } = record;
    const full = { seq, type, ...fields, receivedAtMs: record.receivedAtMs ?? nowMs() } as unknown as T;
    const line = JSON.stringify(full) + '\n';
    try {
      writeSync(fd, line);
    } catch (err) {
      throw new InfraError(`cannot write journal ${path}: ${(err as Error).message}`, 'check free disk space', { cause: err });
    }
    seq += 1;
    for (const listener of listeners) {
      try {
        listener(full);
      } catch {
        listeners.delete(listener);
      }
    }
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
    mark: (phase, opts = {}) =>
      write<PhaseObservation>({
        type: 'phase',
        phase,
        ...(opts.nodes ? { nodes: opts.nodes } : {}),
        ...(opts.detail ? { detail: opts.detail } : {}),
        receivedAtMs: opts.atMs,
      }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      if (fd === undefined) return;
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
        fd = undefined;
      }
    },
  };
}

/**
 * Parse the text of an observations.jsonl. A line that is not valid JSON is skipped with a warning:
 * the last line may be torn by a `kill -9`; a torn line elsewhere is reported the same way.
 * Records are returned in file order.
 */
export function parseJournal(text: string, log: LogFn = () => {}, source = 'observations.jsonl'): Observation[] {
  const records: Observation[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as Observation;
      if (typeof value !== 'object' || value === null || typeof value.seq !== 'number') {
        log('warn', `${source}:${i + 1}: not a journal record; skipped`);
        continue;
      }
      records.push(value);
    } catch {
      const where = i === lines.length - 1 ? 'torn last line' : 'unreadable line';
      log('warn', `${source}:${i + 1}: ${where} (${line.length} bytes); skipped`);
    }
  }
  return records;
}

/**
 * Read a journal file. A torn last line (from a killed writer) is skipped with a warning through `log`.
 * @throws InfraError if the file cannot be read.
 */
export function readJournal(path: string, log: LogFn = () => {}): Observation[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InfraError(`cannot read journal ${path}: ${(err as Error).message}`, 'pass a run directory that holds observations.jsonl', { cause: err });
  }
  return parseJournal(text, log, path);
}
