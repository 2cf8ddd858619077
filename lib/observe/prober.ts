// A traffic prober: requests at a fixed rate (HTTP GETs of one URL, or DNS queries) to a Service reached through a
// node that is not a fault target, each outcome journaled as it ends. This is what a Service's clients see, as
// opposed to the API's view.
import { request } from 'node:http';
import type { Journal } from './journal.js';
import type { ObservationBase, ProbeObservation, ProbeOutcome } from './types.js';
import { InfraError } from '../common/errors.js';

/** What to probe and how often. */
export interface ProberOptions {
  /** The probe's name, written into every record. */
  name: string;
  /**
   * `http://<host>:<port>/`: a new TCP connection per request, as a client without keep-alive. With `send`, a
   * description of where the requests go (`dns://<host>:<port>/<name>`), journaled in the `probe-started` marker.
   */
  url: string;
  /**
   * Sends one request and resolves (never rejects) to its outcome; default an HTTP GET of `url`. The DNS prober
   * passes one UDP query (lib/observe/dns-query.ts).
   */
  send?: (timeoutMs: number, now: () => number) => Promise<ProbeResult>;
  /** Requests started per second (not waiting for answers): 1000 / rate milliseconds apart. */
  ratePerSecond: number;
  /** A request still unanswered after this many milliseconds counts as `timeout`. */
  timeoutMs: number;
  /** Client clock, Unix epoch milliseconds; default Date.now (tests). */
  nowMs?: () => number;
  /** Written into the `probe-started` marker besides name, URL, rate and timeout (e.g. the Service), and its nodes. */
  marker?: { nodes?: string[]; detail?: Record<string, unknown> };
}

/** How one request ended, as {@link ProberOptions.send} resolves it (ProbeObservation without the journal's fields). */
export type ProbeResult = Omit<ProbeObservation, keyof ObservationBase | 'type' | 'probe'>;

/** A steady baseline a prober reached (see Prober.waitForBaseline); instants are client clock, Unix epoch ms. */
export interface ProbeBaseline {
  /** Send time of the first request of the run of successes that made the baseline: requests sent before it are warm-up. */
  fromMs: number;
  /** When the baseline was reached. */
  reachedAtMs: number;
  /** Pods that answered during that run. */
  pods: string[];
  /** Requests sent before `fromMs` that failed (warm-up failures). */
  warmUpErrors: number;
}

/** What a baseline needs; see Prober.waitForBaseline. */
export interface BaselineOptions {
  /** The run of consecutive successes must span at least this long (send times), milliseconds. */
  minMs: number;
  /** Pods that must each have answered during that run (the Service's ready endpoints); empty: any. */
  pods: readonly string[];
  /** Give up after this long, milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A running prober. */
export interface Prober {
  /** Requests started so far. */
  readonly sent: number;
  /**
   * Resolves once the prober has a steady baseline: its latest requests, all answered (no failure sent after the
   * first of them), span `minMs` of send time and were answered by every pod of `pods`; journals a `probe-baseline`
   * marker (fromMs, pods, warm-up failures) then.
   * @throws InfraError after `timeoutMs`, one line saying what was missing (failures, or pods that never answered);
   *   Error when `signal` aborts.
   */
  waitForBaseline(options: BaselineOptions): Promise<ProbeBaseline>;
  /**
   * Stop sending; resolves once every request in flight has ended and been journaled, then journals a `probe-stopped`
   * marker with `sent`, so the analyzer can check that every request sent has its record. Idempotent.
   */
  stop(): Promise<void>;
}

/**
 * A send more than this many request periods, and more than STALL_MIN_MS, after the previous one is a stall of the
 * prober (its event loop was blocked): journaled as a `probe-gap` marker, so no silence in the records goes
 * unexplained. Shorter slips (a GC pause on a busy machine) only delay a request by less than two of the report's
 * 100 ms buckets.
 */
export const STALL_PERIODS = 2;
/** Milliseconds; see STALL_PERIODS. */
export const STALL_MIN_MS = 200;

/** Answers kept for the baseline check (about 8 min at 20 requests per second): a baseline needs seconds of them. */
const MAX_KEPT_ANSWERS = 10_000;

/** Node error codes → outcome: what a client library would call the failure. */
const ERROR_OUTCOMES: Record<string, ProbeOutcome> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ETIMEDOUT: 'timeout',
};

/** `pod=<name> …` as the workload server (hack/node-helpers/cmd/rebootlab-workload) answers GET /. */
function podOf(body: string): string | undefined {
  return /^pod=(\S+)/.exec(body)?.[1];
}

/**
 * Journals a `probe-started` marker (name, URL, rate, timeout, `options.marker`), then probes `options.url` at once
 * and every 1000 / ratePerSecond ms after. Every request ends in exactly one journal record (`appendProbe`), so the
 * count of records equals `sent` after `stop()`, which journals it (`probe-stopped`). A send more than STALL_PERIODS
 * periods (and STALL_MIN_MS) after the previous one journals a `probe-gap` marker (fromMs, toMs: Unix epoch milliseconds). Starting a
 * prober of the same name again later is a restart: the analyzer reports the time between its `probe-stopped` and
 * the new `probe-started` as a gap.
 * @throws RangeError when ratePerSecond or timeoutMs is not positive.
 */
export function startProber(journal: Pick<Journal, 'appendProbe' | 'mark'>, options: ProberOptions): Prober {
  if (!(options.ratePerSecond > 0)) throw new RangeError(`prober ${options.name}: ratePerSecond must be > 0`);
  if (!(options.timeoutMs > 0)) throw new RangeError(`prober ${options.name}: timeoutMs must be > 0`);
  const now = options.nowMs ?? Date.now;
  const send = options.send ?? ((timeoutMs: number, clock: () => number) => probeOnce(options.url, timeoutMs, clock));
  const periodMs = 1000 / options.ratePerSecond;
  const stallMs = Math.max(STALL_PERIODS * periodMs, STALL_MIN_MS);
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let lastSendMs: number | null = null;
  // The current run of successes, by send time: a failure sent after the run's first success ends it.
  let lastFailure: { sentAtMs: number; outcome: ProbeOutcome } | null = null;
  let failures = 0;
  const answers: { sentAtMs: number; pod: string | undefined }[] = [];
  let stopped: Promise<void> | null = null;
  journal.mark('probe-started', {
    ...(options.marker?.nodes ? { nodes: options.marker.nodes } : {}),
    detail: { probe: options.name, ...options.marker?.detail, url: options.url, ratePerSecond: options.ratePerSecond, timeoutMs: options.timeoutMs },
  });
  const fire = () => {
    const at = now();
    if (lastSendMs !== null && at - lastSendMs > stallMs) {
      journal.mark('probe-gap', { detail: { probe: options.name, fromMs: lastSendMs, toMs: at, reason: `no request sent for ${Math.round(at - lastSendMs)} ms (period ${Math.round(periodMs)} ms): the prober's event loop was blocked` } });
    }
    lastSendMs = at;
    sent += 1;
    const done = send(options.timeoutMs, now).then((r) => {
      journal.appendProbe({ probe: options.name, ...r, receivedAtMs: r.sentAtMs + r.latencyMs });
      if (r.outcome === 'ok') {
        answers.push({ sentAtMs: r.sentAtMs, pod: r.pod });
        if (answers.length > MAX_KEPT_ANSWERS) answers.shift();
      }
      else {
        failures += 1;
        if (lastFailure === null || r.sentAtMs > lastFailure.sentAtMs) lastFailure = { sentAtMs: r.sentAtMs, outcome: r.outcome };
      }
      // Only the answers since the latest failure can make a baseline.
      while (answers.length > 0 && lastFailure !== null && answers[0]!.sentAtMs <= lastFailure.sentAtMs) answers.shift();
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  fire();
  const timer = setInterval(fire, periodMs);
  /** The baseline as of now, or why there is none yet. */
  const baselineNow = (o: BaselineOptions): ProbeBaseline | string => {
    const run = answers.filter((a) => lastFailure === null || a.sentAtMs > lastFailure.sentAtMs).sort((a, b) => a.sentAtMs - b.sentAtMs);
    const failed = lastFailure === null ? '' : `; last failure sent ${Math.round(now() - lastFailure.sentAtMs)} ms ago (${lastFailure.outcome})`;
    if (run.length === 0) return `no request answered yet${failed}`;
    const fromMs = run[0]!.sentAtMs;
    const pods = [...new Set(run.flatMap((a) => (a.pod ? [a.pod] : [])))].sort();
    const spanMs = run.at(-1)!.sentAtMs - fromMs;
    if (spanMs < o.minMs) return `${Math.round(spanMs)} ms of consecutive answers, ${o.minMs} ms needed${failed}`;
    const missing = o.pods.filter((p) => !pods.includes(p));
    if (missing.length > 0) return `ready endpoint(s) ${missing.join(', ')} never answered in ${Math.round(spanMs)} ms of consecutive answers (answered: ${pods.join(', ') || 'none'})`;
    return { fromMs, reachedAtMs: now(), pods, warmUpErrors: failures };
  };
  return {
    get sent() {
      return sent;
    },
    async waitForBaseline(o: BaselineOptions): Promise<ProbeBaseline> {
      const startMs = now();
      for (;;) {
        if (o.signal?.aborted) throw new Error(`prober ${options.name}: aborted while waiting for a baseline`);
        const b = baselineNow(o);
        if (typeof b !== 'string') {
          journal.mark('probe-baseline', { detail: { probe: options.name, fromMs: b.fromMs, pods: b.pods, warmUpErrors: b.warmUpErrors, minMs: o.minMs } });
          return b;
        }
        if (now() - startMs >= o.timeoutMs) throw new InfraError(`probe ${options.name} had no steady baseline before the fault within ${Math.round(o.timeoutMs / 1000)} s: ${b}`, `check the Service ${options.url} from the probing node; the fault was not injected`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        await Promise.all([...inFlight]);
        journal.mark('probe-stopped', { detail: { probe: options.name, sent } });
      })();
      return stopped;
    },
  };
}

/** One request: resolves (never rejects) to its outcome. */
function probeOnce(url: string, timeoutMs: number, now: () => number): Promise<ProbeResult> {
  const sentAtMs = now();
  return new Promise((resolve) => {
    let settled = false;
    let boundPort: number | undefined;
    const finish = (result: { outcome: ProbeOutcome; status?: number; pod?: string; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Read before destroy: the kernel bound the source port at connect(), also for a SYN never answered. A socket
      // an error already closed (EHOSTUNREACH, ECONNREFUSED) has none left: the port read just after connect() stands.
      const localPort = req.socket?.localPort ?? boundPort;
      req.destroy();
      resolve({ sentAtMs, latencyMs: Math.max(0, now() - sentAtMs), ...result, ...(localPort !== undefined ? { localPort } : {}) });
    };
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const pod = podOf(body);
        finish({ outcome: status >= 200 && status < 300 ? 'ok' : 'http-error', status, ...(pod ? { pod } : {}) });
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish({ outcome: ERROR_OUTCOMES[error.code ?? ''] ?? 'reset', error: error.code ?? error.message }));
    });
    // The whole request, connect included: a SYN to a frozen pod gets no answer at all.
    const timer = setTimeout(() => finish({ outcome: 'timeout', error: `no answer in ${timeoutMs} ms` }), timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ outcome: ERROR_OUTCOMES[error.code ?? ''] ?? 'error', error: error.code ?? error.message }));
    // net.connect to an IP address calls connect() on a tick queued before the one that emits 'socket', so the port
    // is bound here (the read falls back to the next macrotask should that order change).
    req.on('socket', (socket) => {
      boundPort = socket.localPort;
      if (boundPort === undefined) setImmediate(() => (boundPort ??= socket.localPort));
    });
    req.end();
  });
}
