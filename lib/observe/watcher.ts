// Keeps one collection watched: records list entries and watch events, restarts a dropped watch with backoff and records the gap.
import type { Journal, LogFn } from './journal.js';
import type { RawList, RawObject } from './raw-types.js';
import type { WatchSource } from './sources.js';
import type { ObservationVerb } from './types.js';

/** The part of client-node's `Informer` (ListWatch) the watcher uses. */
export interface InformerLike {
  on(verb: 'add' | 'update' | 'delete', cb: (obj: RawObject) => void): void;
  on(verb: 'error', cb: (err?: unknown) => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Builds a fresh informer (empty cache, so starting it lists first) around a list call. */
export type InformerFactory = (source: WatchSource, list: () => Promise<RawList>) => InformerLike;

/** Options of `watchSource`. */
export interface WatchSourceOptions {
  journal: Journal;
  makeInformer: InformerFactory;
  log: LogFn;
  /** Client clock, Unix epoch milliseconds. Default `Date.now`. */
  nowMs?: () => number;
  /** Waits before a restart; injected by tests. Default a real timer. */
  delayFn?: (ms: number) => Promise<void>;
}

/** A running watch of one collection. */
export interface SourceWatch {
  /** Resolves after the first successful list has been journaled. */
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

/** First restart delay after a dropped watch, milliseconds; doubles up to RESTART_MAX_DELAY_MS (as client-node's ListWatch). */
export const RESTART_BASE_DELAY_MS = 1_000;
/** Longest restart delay, milliseconds. */
export const RESTART_MAX_DELAY_MS = 30_000;

function withoutManagedFields(obj: RawObject): RawObject {
  if (!obj.metadata || obj.metadata.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * Watch `source`: every list entry becomes a LISTED record, every watch event an ADDED/MODIFIED/DELETED
 * record. An informer `error` (client-node stops the informer on any error but 410 Gone and its own
 * inactivity timeout) schedules a restart with a fresh cache after 1 s, 2 s, … 30 s (reset by the next watch
 * event, so a watch that lists but keeps failing backs off); once the re-list
 * succeeds, objects that vanished meanwhile are recorded DELETED and a GapObservation covers the blind span.
 */
export function watchSource(source: WatchSource, options: WatchSourceOptions): SourceWatch {
  const { journal, makeInformer, log } = options;
  const nowMs = options.nowMs ?? Date.now;
  const delayFn = options.delayFn ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  /** uid → last journaled object, to drop the informer's echo of list entries and to find deletions missed in a gap. */
  const known = new Map<string, RawObject>();
  let informer: InformerLike | undefined;
  let stopped = false;
  let restartDelayMs = 0;
  let gapFromMs: number | undefined;
  let gapReason = '';
  let lastActivityMs = nowMs();
  let listsInInformer = 0;
  let markSynced: () => void = () => {};
  const synced = new Promise<void>((resolve) => (markSynced = resolve));

  const record = (verb: ObservationVerb, raw: RawObject): void => {
    // A stopped informer's stream can still hand over lines it had buffered; the observation has ended (the journal
    // may be closed), so they are not part of it.
    if (stopped) return;
    const obj = withoutManagedFields(raw);
    const md = obj.metadata ?? {};
    journal.appendObject({
      kind: source.kind,
      verb,
      ...(md.namespace ? { namespace: md.namespace } : {}),
      name: md.name ?? '',
      uid: md.uid ?? '',
      resourceVersion: md.resourceVersion ?? '',
      object: obj as Record<string, unknown>,
    });
    lastActivityMs = nowMs();
  };

  const list = async (): Promise<RawList> => {
    const result = await source.list();
    listsInInformer += 1;
    // client-node re-lists inside one informer after 410 Gone: events in between were not seen.
    if (listsInInformer > 1 && gapFromMs === undefined) {
      gapFromMs = lastActivityMs;
      gapReason = 'watch expired (410 Gone), re-listed';
    }
    // One synchronous batch: its records share the journal's writes (Journal.group says why that keeps the guarantee).
    journal.group(() => recordList(result));
    markSynced();
    return result;
  };

  const recordList = (result: RawList): void => {
    const seen = new Set<string>();
    for (const item of result.items ?? []) {
      const uid = item.metadata?.uid ?? '';
      seen.add(uid);
      record('LISTED', item);
      known.set(uid, item);
    }
    for (const [uid, last] of [...known]) {
      if (!seen.has(uid)) {
        record('DELETED', last);
        known.delete(uid);
      }
    }
    if (gapFromMs !== undefined) {
      journal.appendGap({ kind: source.kind, fromMs: gapFromMs, toMs: nowMs(), reason: `${source.label}: ${gapReason}` });
      gapFromMs = undefined;
    }
  };

  const onChange = (verb: 'ADDED' | 'MODIFIED') => (obj: RawObject) => {
    const uid = obj.metadata?.uid ?? '';
    if (known.get(uid)?.metadata?.resourceVersion === obj.metadata?.resourceVersion) return; // echo of a list entry
    known.set(uid, obj);
    record(verb, obj);
    restartDelayMs = 0; // a delivered watch event means the restarted watch works: reset the backoff
  };
  const onDelete = (obj: RawObject) => {
    const uid = obj.metadata?.uid ?? '';
    if (!known.has(uid)) return; // already recorded by the re-list
    known.delete(uid);
    record('DELETED', obj);
    restartDelayMs = 0;
  };

  const launch = (): void => {
    listsInInformer = 0;
    const current = makeInformer(source, list);
    informer = current;
    current.on('add', onChange('ADDED'));
    current.on('update', onChange('MODIFIED'));
    current.on('delete', onDelete);
    current.on('error', (err) => {
      if (stopped || informer !== current) return;
      const message = err instanceof Error ? err.message : String(err);
      if (gapFromMs === undefined) {
        gapFromMs = lastActivityMs;
        gapReason = `watch failed (${message}), restarted`;
      }
      restartDelayMs = Math.min(restartDelayMs > 0 ? restartDelayMs * 2 : RESTART_BASE_DELAY_MS, RESTART_MAX_DELAY_MS);
      log('warn', `${source.label} watch failed: ${message}; restarting in ${restartDelayMs} ms`);
      void current.stop();
      void delayFn(restartDelayMs).then(() => {
        if (!stopped && informer === current) launch();
      });
    });
    current.start().catch((err: unknown) => log('warn', `${source.label} informer start failed: ${String(err)}`));
  };

  launch();
  return {
    synced,
    async stop() {
      stopped = true;
      await informer?.stop();
    },
  };
}
