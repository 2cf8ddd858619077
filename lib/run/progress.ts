// Progress of a run on the terminal: the phase, elapsed time and the next expected event with a
// countdown ("node should go NotReady in ~12 s") on a TTY; plain lines otherwise.
import type { Observation } from '../observe/index.js';
import type { TimeoutSettings } from '../spec/settings.js';
import { detectionWindowFromSilence, evictionWindowFromSilence } from '../analyze/windows.js';
import type { Window } from '../analyze/types.js';

/** Where progress goes: one line at a time (plain) or a redrawn status line (TTY). */
export interface ProgressSink {
  isTTY: boolean;
  write(text: string): void;
}

/** Receives the run's phases and journal records and shows them. */
export interface Progress {
  /** A new phase; `settings` (milliseconds) enable the countdowns once the fault is injected. */
  phase(text: string, settings?: TimeoutSettings): void;
  onObservation(record: Observation): void;
  log(level: 'info' | 'warn', message: string): void;
  /** Stop redrawing; leaves the cursor on a fresh line. */
  close(): void;
}

/** A Progress that prints nothing (`-o json`, tests). */
export const silentProgress: Progress = { phase() {}, onObservation() {}, log() {}, close() {} };

/**
 * A Progress writing to `sink`. Notable journal records (fault markers, a target node's Ready change,
 * taints, pod deletions) become lines; on a TTY a status line below them is redrawn every second.
 */
export function createProgress(sink: ProgressSink, nowMs: () => number = Date.now): Progress {
  const startedAtMs = nowMs();
  let phaseText = 'starting';
  let injectedAtMs: number | null = null;
  let settings: TimeoutSettings | null = null;
  let notReadySeen = false;
  const notReadyNodes = new Set<string>();
  const evicted = new Set<string>();
  const stamp = () => `[${((nowMs() - startedAtMs) / 1000).toFixed(0).padStart(4)} s]`;
  const line = (text: string) => {
    if (sink.isTTY) sink.write('\r\x1b[2K');
    sink.write(`${stamp()} ${text}\n`);
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
    sink.write(`\r\x1b[2K${stamp()} ${phaseText}${since}${nextExpected()}`);
  };
  const timer = sink.isTTY ? setInterval(draw, 1000) : null;
  timer?.unref();
  return {
    phase(text, newSettings) {
      phaseText = text;
      if (newSettings) settings = newSettings;
      line(text);
    },
    onObservation(record) {
      if (record.type === 'phase') {
        if (record.phase === 'workloads-ready') {
          // The next variant of a matrix (or repeat): its times count from its own fault.
          injectedAtMs = null;
          notReadySeen = false;
          notReadyNodes.clear();
        }
        // Time zero is the start of the first fault command, as in the results (staggered nodes come later).
        if (record.phase === 'fault-injecting' && injectedAtMs === null) injectedAtMs = record.receivedAtMs;
        if (record.phase.startsWith('fault-')) line(`${record.phase} ${(record.nodes ?? []).join(', ')}`);
        return;
      }
      if (record.type === 'gap') return line(`watch of ${record.kind} broke and was re-listed (${record.reason})`);
      if (record.type === 'probe' || record.type === 'forecast' || injectedAtMs === null || record.verb === 'LISTED') return;
      const since = `+${((record.receivedAtMs - injectedAtMs) / 1000).toFixed(1)} s`;
      if (record.kind === 'Node') {
        const status = readyStatus(record.object);
        if (status && status !== 'True' && !notReadySeen) {
          notReadySeen = true;
          notReadyNodes.add(record.name);
          line(`${since} node ${record.name} Ready=${status}`);
        } else if (status === 'True' && notReadyNodes.delete(record.name)) {
          line(`${since} node ${record.name} Ready again`);
        }
      } else if (record.kind === 'Pod' && record.verb === 'DELETED') {
        line(`${since} pod ${record.namespace}/${record.name} deleted`);
      } else if (record.kind === 'Pod') {
        const metadata = record.object.metadata as { deletionTimestamp?: string } | undefined;
        if (metadata?.deletionTimestamp && !evicted.has(record.uid)) {
          evicted.add(record.uid);
          line(`${since} pod ${record.namespace}/${record.name} evicted (deletionTimestamp set)`);
        }
      }
    },
    log(level, message) {
      line(`${level === 'warn' ? 'warning: ' : ''}${message}`);
    },
    close() {
      if (timer) clearInterval(timer);
      if (sink.isTTY) sink.write('\r\x1b[2K');
    },
  };
}

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
