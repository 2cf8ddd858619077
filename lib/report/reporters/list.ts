// Reporter `list`: a run's progress on the terminal, from the same events the other reporters get. The command's
// steps and warnings, then the notable journal records (fault markers, a node's Ready change, evictions, pod
// deletions) with times since the fault; on a TTY a status line below them is redrawn every second with the next
// expected event and its window as a countdown ("node should go NotReady in 10–27 s").
import { terminalOutput } from '../../common/errors.js';
import type { Window } from '../../analyze/types.js';
import { detectionWindowFromSilence, evictionWindowFromSilence } from '../../analyze/windows.js';
import type { Observation } from '../../observe/types.js';
import type { TimeoutSettings } from '../../spec/settings.js';
import type { Reporter, ReporterFactory, TerminalSink } from '../reporter.js';
import type { RunInfo } from '../result-types.js';

/**
 * The `list` reporter, writing to `options.terminal` (nothing without one). Every line starts with the seconds since
 * the reporter started: a journal record is stamped with its own `receivedAtMs`, a status or warning with the clock.
 * A journal replayed later (`rebootlab report --reporter list`; its first record is older than the reporter) counts
 * from that record and stamps warnings with the last record's time, so its output depends on the journal alone and
 * its record lines are those a live run printed. Settings for the countdowns come from `onBegin` (run.json).
 */
export const createListReporter: ReporterFactory = (options): Reporter => {
  const sink = options.terminal;
  const nowMs = options.nowMs ?? Date.now;
  if (!sink) return { printsToStdio: () => false };
  let startedAtMs = nowMs();
  let replayed = false;
  let lastRecordAtMs = startedAtMs;
  const clock = () => (replayed ? lastRecordAtMs : nowMs());
  let phaseText = 'starting';
  let injectedAtMs: number | null = null;
  let settings: TimeoutSettings | null = null;
  let notReadySeen = false;
  const notReadyNodes = new Set<string>();
  const evicted = new Set<string>();
  const stamp = (atMs: number) => `[${((atMs - startedAtMs) / 1000).toFixed(0).padStart(4)} s]`;
  const line = (text: string, atMs = clock()) => {
    if (sink.isTTY) sink.write('\r\x1b[2K');
    sink.write(`${stamp(atMs)} ${terminalOutput(text)}\n`);
    draw();
  };
  const nextExpected = (): string => {
    if (injectedAtMs === null || settings === null) return '';
    const sinceS = (nowMs() - injectedAtMs) / 1000;
    // The same windows the forecast and the causal model use (lib/analyze/windows.ts).
    const detection = detectionWindowFromSilence(settings);
    if (!notReadySeen) return sinceS < detection.toSeconds ? `; node should go NotReady ${countdown(detection, sinceS)}` : '';
    const eviction = evictionWindowFromSilence(settings, settings.apiServer.defaultUnreachableTolerationSeconds);
    if (sinceS < eviction.toSeconds) return `; default-toleration pods evicted ${countdown(eviction, sinceS)}`;
    return '';
  };
  const draw = () => {
    if (!sink.isTTY) return;
    const since = injectedAtMs === null ? '' : `, ${((nowMs() - injectedAtMs) / 1000).toFixed(0)} s since fault`;
    sink.write(`\r\x1b[2K${stamp(nowMs())} ${phaseText}${since}${nextExpected()}`);
  };
  const timer = sink.isTTY ? setInterval(draw, 1000) : null;
  timer?.unref();
  /** A new run (the next variant of a matrix, or repeat): its times count from its own fault. */
  const reset = () => {
    injectedAtMs = null;
    notReadySeen = false;
    notReadyNodes.clear();
  };
  return {
    onBegin(run: RunInfo) {
      reset();
      settings = run.settings;
    },
    onStatus(text) {
      phaseText = text;
      line(text);
    },
    onLog(level, message) {
      line(`${level === 'warn' ? 'warning: ' : ''}${message}`);
    },
    onObservation(record: Observation) {
      if (record.receivedAtMs < startedAtMs) {
        replayed = true;
        startedAtMs = record.receivedAtMs;
      }
      const at = (lastRecordAtMs = record.receivedAtMs);
      if (record.type === 'phase') {
        if (record.phase === 'workloads-ready') reset();
        // Time zero is the start of the first fault command, as in the results (staggered nodes come later).
        if (record.phase === 'fault-injecting' && injectedAtMs === null) injectedAtMs = record.receivedAtMs;
        if (record.phase.startsWith('fault-')) line(`${record.phase} ${(record.nodes ?? []).join(', ')}`, at);
        return;
      }
      if (record.type === 'gap') return line(`watch of ${record.kind} broke and was re-listed (${record.reason})`, at);
      if (record.type === 'probe' || record.type === 'forecast' || injectedAtMs === null || record.verb === 'LISTED') return;
      const since = `+${((record.receivedAtMs - injectedAtMs) / 1000).toFixed(1)} s`;
      if (record.kind === 'Node') {
        const status = readyStatus(record.object);
        if (status && status !== 'True' && !notReadySeen) {
          notReadySeen = true;
          notReadyNodes.add(record.name);
          line(`${since} node ${record.name} Ready=${status}`, at);
        } else if (status === 'True' && notReadyNodes.delete(record.name)) {
          line(`${since} node ${record.name} Ready again`, at);
        }
      } else if (record.kind === 'Pod' && record.verb === 'DELETED') {
        line(`${since} pod ${record.namespace}/${record.name} deleted`, at);
      } else if (record.kind === 'Pod') {
        const metadata = record.object.metadata as { deletionTimestamp?: string } | undefined;
        if (metadata?.deletionTimestamp && !evicted.has(record.uid)) {
          evicted.add(record.uid);
          line(`${since} pod ${record.namespace}/${record.name} evicted (deletionTimestamp set)`, at);
        }
      }
    },
    onExit() {
      if (timer) clearInterval(timer);
      if (sink.isTTY) sink.write('\r\x1b[2K');
    },
    printsToStdio: () => true,
  };
};

/** "in 14–31 s" (both ends counted from now, `sinceSeconds` after time zero), or "any moment now (window ends in 3 s)". */
function countdown(window: Window, sinceSeconds: number): string {
  const from = Math.max(0, window.fromSeconds - sinceSeconds);
  const to = window.toSeconds - sinceSeconds;
  return from === 0 ? `any moment now (window ends in ${to.toFixed(0)} s)` : `in ${from.toFixed(0)}–${to.toFixed(0)} s`;
}

function readyStatus(node: Record<string, unknown>): string | undefined {
  const conditions = (node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
  return conditions?.find((c) => c.type === 'Ready')?.status;
}
