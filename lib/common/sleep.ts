// The one abortable wait: fault durations, staggers and the run's recovery checks all end early on Ctrl-C.

/** Waits `ms` milliseconds, or until `signal` aborts (then resolves early, never rejects). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Default {@link Sleep}: a timer, resolved at once when `ms` ≤ 0 or `signal` is already aborted, early on abort. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
