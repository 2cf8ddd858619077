// The watch request under client-node's ListWatch: a Watch whose stream is read with node:http and split into lines
// by hand. client-node's own Watch reads through undici fetch, a web stream, Readable.fromWeb and readline; measured
// with the loopback benchmark (bench/observer-capacity.ts) that path cost about twice the CPU per event of this one,
// which decided how many events per second the observer can take. Semantics are client-node 2.0.1's: done() once,
// with a TimeoutError after WATCH_INACTIVITY_TIMEOUT_MS without data (ListWatch then resumes from its
// resourceVersion at once), with an Error carrying statusCode for an answer other than 200 (ListWatch re-lists
// after 410, reports anything else as an informer error), with null when the server ends the stream.
import { STATUS_CODES } from 'node:http';
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { apiUrl, sendGet } from './list.js';
import type { RawObject } from './raw-types.js';

/** A watch stream without any byte for this long is ended (client-node Watch.requestTimeoutMs), milliseconds. */
export const WATCH_INACTIVITY_TIMEOUT_MS = 30_000;

/** Byte value of '\n', which ends every watch event (one JSON object per line). */
const NEWLINE = 0x0a;

type WatchCallback = (phase: string, apiObj: unknown, watchObj?: unknown) => void;

/**
 * A client-node Watch that asks for BOOKMARK events (allowWatchBookmarks=true: on a quiet watch the API server
 * sends the current resourceVersion about once a minute, so a resume after the inactivity timeout starts from a
 * recent version rather than one that may have left the watch cache, which would cost a 410, a re-list and a gap;
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#watch-bookmarks) and passes every object through
 * `project` before ListWatch caches it, so the cache holds what the journal holds.
 */
export class ProjectingWatch extends Watch {
  /**
   * @param project applied to every object before ListWatch sees it.
   * @param group runs the handling of one chunk of the stream (its lines, callbacks and their journal appends); the
   *   observer passes Journal.group so a chunk's records share one write. Default: runs it as is.
   */
  constructor(
    private readonly kc: KubeConfig,
    private readonly project: (obj: RawObject) => RawObject,
    private readonly group: <T>(fn: () => T) => T = (fn) => fn(),
  ) {
    super(kc);
  }

  /**
   * Opens `GET <server><path>?watch=true&allowWatchBookmarks=true&<queryParams>` and calls `callback(type, object,
   * event)` per line, `done(err)` once when it ends. Resolves with the controller that aborts it.
   * @throws Error when the kubeconfig has no current cluster.
   */
  override async watch(path: string, queryParams: Record<string, string | number | boolean | undefined>, callback: WatchCallback, done: (err: unknown) => void): Promise<AbortController> {
    const url = apiUrl(this.kc, path, { watch: true, allowWatchBookmarks: true, ...queryParams });
    const controller = new AbortController();

    let finished = false;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (err: unknown) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      controller.abort();
      done(timedOut ? new DOMException('The operation was aborted due to timeout', 'TimeoutError') : err);
    };
    const resetTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        finish(null);
      }, WATCH_INACTIVITY_TIMEOUT_MS);
      timer.unref();
    };
    resetTimer();
    const req = await sendGet(this.kc, url, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        const error = Object.assign(new Error(res.statusMessage || STATUS_CODES[res.statusCode ?? 500] || 'Internal Server Error'), { statusCode: res.statusCode });
        finish(error);
        return;
      }
      resetTimer();
      // Lines are split on bytes ('\n' never occurs inside a UTF-8 multi-byte sequence) and each decoded on its own:
      // decoding every chunk through setEncoding's StringDecoder and then concatenating and slicing strings cost the
      // observer more CPU than JSON.parse of the lines (bench/observer-capacity.ts profile at 5000 events/s).
      let partial: Buffer | undefined;
      res.on('data', (chunk: Buffer) => {
        resetTimer();
        const data = partial ? Buffer.concat([partial, chunk]) : chunk;
        partial = undefined;
        let start = 0;
        this.group(() => {
          for (let end = data.indexOf(NEWLINE); end >= 0; end = data.indexOf(NEWLINE, start)) {
            const line = data.toString('utf8', start, end);
            start = end + 1;
            if (finished) return;
            let event: { type: string; object: RawObject };
            try {
              event = JSON.parse(line) as { type: string; object: RawObject };
            } catch {
              continue; // as client-node: a line that is not JSON is skipped
            }
            const object = event.type === 'BOOKMARK' || event.type === 'ERROR' ? event.object : this.project(event.object);
            callback(event.type, object, event);
          }
        });
        // A copy, not a view: a view would keep the whole chunk alive until the line ends.
        if (!finished && start < data.length) partial = Buffer.from(data.subarray(start));
      });
      res.on('end', () => finish(null));
      res.on('close', () => finish(null));
      res.on('error', finish);
    }, controller.signal);
    req.on('error', finish);
    req.end();
    return controller;
  }
}
