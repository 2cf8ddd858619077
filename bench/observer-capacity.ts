// Benchmark: rebootlab's observer and journal at a set event rate, fed by a loopback API server in a child
// process (bench/loopback), so the figures are the observer's, not a cluster's pace. Prints figures; asserts
// nothing (timings depend on the machine).
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openJournal, startObserver } from '../lib/observe/index.js';
import { LOAD_NAMESPACE } from './loopback/cluster-load.js';
import type { DoneMessage, RunMessage } from './loopback/feeder-main.js';

/** Options of {@link benchObserverCapacity}. */
export interface ObserverCapacityOptions {
  nodes: number;
  pods: number;
  zones: number;
  /** Changes per second the loopback server makes. */
  ratePerSecond: number;
  /** How long it makes them, seconds. */
  seconds: number;
  /** When every watch gets 410 Gone (forcing a re-list), seconds after the start; < 0 for never. */
  expireAtSeconds: number;
}

/** What {@link benchObserverCapacity} measured. Durations in milliseconds unless named otherwise, sizes in bytes. */
export interface ObserverCapacityFigures {
  options: ObserverCapacityOptions;
  /** Seconds from startObserver until every collection was listed (nodes + leases + pods). */
  syncSeconds: number;
  /** Watch events the server sent (resourceVersions given out during the run). */
  eventsEmitted: number;
  /** Object records journaled from the first change until the journal caught up (includes the re-list). */
  recordsJournaled: number;
  /** eventsEmitted / seconds: the rate the observer kept up with. */
  eventsPerSecond: number;
  /** Emitted events neither journaled nor inside a reported gap. */
  dropped: number;
  /**
   * Emitted events inside a reported gap (superseded before the re-list that the gap stands for): of the gap's kind,
   * after the last resourceVersion of that kind journaled from the watch before the gap, emitted before the gap ended.
   */
  inReportedGaps: number;
  gaps: number;
  /** Objects whose last journaled resourceVersion differs from the server's at the end (should be 0). */
  finalStateMismatches: number;
  /** Milliseconds from the last emission until the journal held the final state of every object. */
  catchUpMs: number;
  /** Emission → journal delay of each journaled event, percentiles. */
  lagP50Ms: number;
  lagP99Ms: number;
  lagMaxMs: number;
  /**
   * Time to handle one chunk of a watch stream (its lines parsed, projected, cached and journaled with one write:
   * Journal.group) or one ungrouped append, percentiles: how long a record can wait in memory before it is written.
   */
  appendP99Ms: number;
  appendMaxMs: number;
  /** Journal writes (groups and ungrouped appends) during the run, and the records they held. */
  journalWrites: number;
  eventLoopDelayP99Ms: number;
  /** Peak RSS during the run (sampled every 100 ms) and over the process life (getrusage). */
  peakRssRunBytes: number;
  maxRssBytes: number;
  /** CPU of the observer process over the run, percent of one core. */
  cpuPercent: number;
  /**
   * CPU microseconds of the observer process per event emitted (the re-list's records included in the cost): the
   * figure that does not depend on what else runs on the machine; 1e6 / it is the rate one free core sustains.
   */
  cpuMicrosPerEvent: number;
  journalBytes: number;
  /** Most bytes waiting in the server's watch sockets: how far behind the observer fell. */
  serverPendingMaxBytes: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs one capacity measurement and returns its figures; the temporary journal is deleted afterwards.
 * @throws Error when the loopback server cannot start or the observer never syncs.
 */
export async function benchObserverCapacity(o: ObserverCapacityOptions, log: (line: string) => void): Promise<ObserverCapacityFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-capacity-'));
  const child = fork(fileURLToPath(new URL('./loopback/feeder-main.js', import.meta.url)), [JSON.stringify({ nodes: o.nodes, pods: o.pods, zones: o.zones, dir, bookmarkIntervalMs: 1000 })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const nextMessage = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      child.once('message', (m) => resolve(m as T));
      child.once('exit', (code) => reject(new Error(`loopback feeder exited with ${code}`)));
    });
  try {
    const { kubeconfigPath } = await nextMessage<{ kubeconfigPath: string }>();
    const journalPath = join(dir, 'observations.jsonl');
    const journal = openJournal(journalPath);
    // Instrumentation, kept small so it does not weigh on the RSS measured: per resourceVersion the time it
    // was journaled (typed array), per uid the last resourceVersion journaled.
    const expected = o.ratePerSecond * o.seconds + o.nodes * 2 + o.pods * 2 + 1_000_000;
    const journaledAt = new Float64Array(expected + 100_000);
    const lastRv = new Map<string, number>();
    // Once the server's final versions are known: uid → final resourceVersion, and how many objects the journal does
    // not hold at it yet, kept up to date by every append (polling a count, not re-checking 12,000 objects every
    // 20 ms, which cost the measured process 1.5 CPU s of a 20 s run while it caught up).
    let finalRv: Map<string, number> | undefined;
    let mismatchCount = 0;
    const matchesFinal = (uid: string) => finalRv !== undefined && finalRv.has(uid) && lastRv.get(uid) === finalRv.get(uid);
    const appendMs: number[] = [];
    // Per kind, the highest resourceVersion journaled from a watch event: what a gap of that kind starts after.
    const lastWatchedRv = new Map<string, number>();
    const gaps: { kind: string; afterRv: number; fromMs: number; toMs: number }[] = [];
    const appendObject = journal.appendObject.bind(journal);
    let grouping = 0;
    const group = journal.group.bind(journal);
    journal.group = (fn) => {
      const t0 = performance.now();
      grouping += 1;
      try {
        return group(fn);
      } finally {
        grouping -= 1;
        if (grouping === 0) appendMs.push(performance.now() - t0);
      }
    };
    journal.appendObject = (record) => {
      const t0 = performance.now();
      const written = appendObject(record);
      if (grouping === 0) appendMs.push(performance.now() - t0);
      const rv = Number(record.resourceVersion);
      // The loopback server's resourceVersions count up from 1001.
      if (rv - 1000 < journaledAt.length && journaledAt[rv - 1000] === 0) journaledAt[rv - 1000] = written.receivedAtMs;
      if (record.verb !== 'LISTED') lastWatchedRv.set(record.kind, Math.max(lastWatchedRv.get(record.kind) ?? 0, rv));
      const matchedBefore = matchesFinal(record.uid);
      if (record.verb === 'DELETED') lastRv.delete(record.uid);
      else lastRv.set(record.uid, rv);
      if (finalRv?.has(record.uid)) mismatchCount += Number(matchedBefore) - Number(matchesFinal(record.uid));
      return written;
    };
    const appendGap = journal.appendGap.bind(journal);
    journal.appendGap = (record) => {
      gaps.push({ kind: record.kind, afterRv: lastWatchedRv.get(record.kind) ?? 0, fromMs: record.fromMs, toMs: record.toMs });
      log(`  gap: ${record.reason} (${record.toMs - record.fromMs} ms)`);
      return appendGap(record);
    };
    let t0 = performance.now();
    const observer = await startObserver({ kubeconfigPath, journal, namespaces: [LOAD_NAMESPACE], log: (level, m) => log(`  observer ${level}: ${m}`) });
    await observer.synced;
    const syncSeconds = (performance.now() - t0) / 1000;
    const mem = process.memoryUsage();
    log(`  observer listed ${journal.count} objects in ${syncSeconds.toFixed(2)} s; rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB of ${(mem.heapTotal / 2 ** 20).toFixed(0)} MiB, external ${(mem.external / 2 ** 20).toFixed(0)} MiB`);
    appendMs.length = 0;

    let peakRssRunBytes = 0;
    const rssTimer = setInterval(() => (peakRssRunBytes = Math.max(peakRssRunBytes, process.memoryUsage.rss())), 100);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const cpu0 = process.cpuUsage();
    t0 = performance.now();
    const recordsBefore = journal.count;
    const run: RunMessage = { type: 'run', ratePerSecond: o.ratePerSecond, seconds: o.seconds, expireAtSeconds: o.expireAtSeconds };
    child.send(run);
    const done = await nextMessage<DoneMessage>();
    const lastEmitMs = done.ticks[done.ticks.length - 1];
    // Caught up once every object's last journaled resourceVersion is the server's.
    const mismatches = () => done.finalVersions.filter(([uid, rv]) => lastRv.get(uid) !== rv).length;
    finalRv = new Map(done.finalVersions);
    mismatchCount = mismatches();
    while (mismatchCount > 0 && Date.now() - lastEmitMs < 60_000) await new Promise((resolve) => setTimeout(resolve, 20));
    const catchUpMs = Math.max(0, Date.now() - lastEmitMs);
    const wallSeconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    loopDelay.disable();
    clearInterval(rssTimer);
    const recordsJournaled = journal.count - recordsBefore;
    await observer.stop();
    journal.close();

    let eventsEmitted = 0;
    let dropped = 0;
    let inReportedGaps = 0;
    const lags: number[] = [];
    for (let i = 0; i < done.ticks.length; i += 3) {
      const [first, last, atMs] = [done.ticks[i], done.ticks[i + 1], done.ticks[i + 2]];
      for (let rv = first; rv <= last; rv++) {
        eventsEmitted += 1;
        const at = journaledAt[rv - 1000];
        if (at > 0) lags.push(at - atMs);
        // Inside a reported gap: a gap of the event's kind that begins after the last event of that kind the journal
        // holds from the watch (in journal order, not by the clock: while the observer lags, the events it never got
        // were emitted before it noticed the break) and ends after the event was emitted.
        else if (gaps.some((g) => g.kind === done.kinds[rv - 1001] && rv > g.afterRv && atMs <= g.toMs)) inReportedGaps += 1;
        else dropped += 1;
      }
    }
    const sortedLags = Float64Array.from(lags).sort();
    const sortedAppends = Float64Array.from(appendMs).sort();
    return {
      options: o, syncSeconds, eventsEmitted, recordsJournaled, eventsPerSecond: eventsEmitted / o.seconds, dropped, inReportedGaps, gaps: gaps.length,
      finalStateMismatches: mismatches(), catchUpMs,
      lagP50Ms: percentile(sortedLags, 50), lagP99Ms: percentile(sortedLags, 99), lagMaxMs: sortedLags[sortedLags.length - 1] ?? 0,
      journalWrites: appendMs.length,
      appendP99Ms: percentile(sortedAppends, 99), appendMaxMs: sortedAppends[sortedAppends.length - 1] ?? 0,
      eventLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      peakRssRunBytes, maxRssBytes: process.resourceUsage().maxRSS * 1024,
      cpuPercent: ((cpu.user + cpu.system) / 1e6 / wallSeconds) * 100,
      cpuMicrosPerEvent: (cpu.user + cpu.system) / eventsEmitted,
      journalBytes: statSync(journalPath).size, serverPendingMaxBytes: done.pendingBytesMax,
    };
  } finally {
    if (child.connected) child.send({ type: 'stop' });
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    rmSync(dir, { recursive: true, force: true });
  }
}
