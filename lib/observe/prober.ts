// A traffic prober: requests at a fixed rate (HTTP GETs of one URL, or DNS queries) to a Service reached through a
// node that is not a fault target, each outcome journaled as it ends. This is what a Service's clients see, as
// opposed to the API's view.
import { request } from 'node:http';
import type { Journal } from './journal.js';
import type { ProbeOutcome } from './types.js';

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
export interface ProbeResult {
  sentAtMs: number;
  latencyMs: number;
  outcome: ProbeOutcome;
  status?: number;
  pod?: string;
  error?: string;
  localPort?: number;
}

/** A running prober. */
export interface Prober {
  /** Requests started so far. */
  readonly sent: number;
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
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  fire();
  const timer = setInterval(fire, periodMs);
  return {
    get sent() {
      return sent;
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
