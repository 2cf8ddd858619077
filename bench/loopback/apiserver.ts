// A watch source on loopback that answers list and watch the way kube-apiserver does, so the observer can be
// driven at a rate no real cluster here produces. Only what the observer uses is served: GET of a collection
// (with limit/continue paging, consistent at the first page's resourceVersion), GET ?watch=true from a
// resourceVersion with chunked JSON lines, BOOKMARK events when allowWatchBookmarks=true, and 410 Gone
// ("too old resource version") when the requested resourceVersion has left the event window.
// Semantics follow https://kubernetes.io/docs/reference/using-api/api-concepts/ (efficient detection of changes,
// watch bookmarks, retrieving large results sets in chunks, 410 Gone responses).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';

/** A Kubernetes object as the loopback server stores it; `metadata.resourceVersion` is set by the server. */
export interface LoopbackObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid: string; resourceVersion?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** A resource type the server knows: its API group prefix (`api/v1` or `apis/<group>/<version>`) and plural. */
export interface LoopbackResource {
  /** e.g. `api/v1`, `apis/coordination.k8s.io/v1`. */
  prefix: string;
  /** e.g. `pods`. */
  plural: string;
  /** List kind, e.g. `PodList`; the object kind is this without `List`. */
  listKind: string;
  apiVersion: string;
}

/** The resources rebootlab's observer watches (lib/observe/sources.ts). */
export const RESOURCES = {
  Node: { prefix: 'api/v1', plural: 'nodes', listKind: 'NodeList', apiVersion: 'v1' },
  Pod: { prefix: 'api/v1', plural: 'pods', listKind: 'PodList', apiVersion: 'v1' },
  Event: { prefix: 'api/v1', plural: 'events', listKind: 'EventList', apiVersion: 'v1' },
  Lease: { prefix: 'apis/coordination.k8s.io/v1', plural: 'leases', listKind: 'LeaseList', apiVersion: 'coordination.k8s.io/v1' },
  EndpointSlice: { prefix: 'apis/discovery.k8s.io/v1', plural: 'endpointslices', listKind: 'EndpointSliceList', apiVersion: 'discovery.k8s.io/v1' },
} as const satisfies Record<string, LoopbackResource>;

/** Options of {@link LoopbackApiServer}. */
export interface LoopbackApiServerOptions {
  /**
   * How many past events a watch may resume from (kube-apiserver's watch cache keeps a window of events per
   * resource; a resourceVersion older than the window gets 410 Gone). Default 100,000.
   */
  windowEvents?: number;
  /**
   * Milliseconds between BOOKMARK events on a watch that asked for them (allowWatchBookmarks=true).
   * kube-apiserver sends one about every minute (and before a watch times out); tests and benchmarks use less.
   * Default 1000.
   */
  bookmarkIntervalMs?: number;
}

/**
 * One change in the event window: its resourceVersion, where it belongs, and its watch line, serialized and encoded
 * once. The line is a Buffer (memory outside the JavaScript heap): a minute at 5000 events/s is a few hundred MB of
 * lines, which as strings the garbage collector copied and marked over and over, taking CPU from the observer
 * measured beside it on a 2-core machine.
 */
interface WindowEvent {
  rv: number;
  resource: string;
  namespace: string;
  name: string;
  line: Buffer;
}

/** An open watch stream. */
interface Watcher {
  resource: string;
  namespace: string | null;
  name: string | null;
  res: ServerResponse;
  bookmarks: boolean;
  /** Events written to this watch (not counting bookmarks). */
  sent: number;
}

/** What a request path names: a resource and optionally a namespace. */
interface Collection {
  resource: string;
  namespace: string | null;
}

const PATH = /^\/(api\/v1|apis\/[^/]+\/[^/]+)(?:\/namespaces\/([^/]+))?\/([a-z]+)$/;

/** `metadata.name=x` and `metadata.namespace=x` (comma-joined), the only field selectors served; others are refused. */
function parseFieldSelector(selector: string | null): { name: string | null; namespace: string | null } | Error {
  const result = { name: null as string | null, namespace: null as string | null };
  if (!selector) return result;
  for (const term of selector.split(',')) {
    const m = /^metadata\.(name|namespace)=(.*)$/.exec(term);
    if (!m) return new Error(`field selector ${term} not served by the loopback server`);
    result[m[1] as 'name' | 'namespace'] = m[2];
  }
  return result;
}

function statusObject(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/**
 * A kube-apiserver stand-in on 127.0.0.1 holding objects in memory. `put`/`remove` change an object and
 * stream the change to every matching watch; `expireWatches` ends every open watch with a 410 ERROR event and
 * moves the window past the current resourceVersion, as when etcd compaction outruns a watch.
 */
export class LoopbackApiServer {
  private readonly server: Server;
  private readonly windowEvents: number;
  private readonly bookmarkIntervalMs: number;
  /** resource key (`prefix/plural`) → `namespace/name` → stored object, serialized. */
  private readonly store = new Map<string, Map<string, { rv: number; json: string; namespace: string; name: string; uid: string }>>();
  private readonly window: WindowEvent[] = [];
  private windowStart = 0;
  private readonly watchers = new Set<Watcher>();
  private readonly snapshots = new Map<string, string[]>();
  private bookmarkTimer: NodeJS.Timeout | undefined;
  /** The last resourceVersion handed out (etcd's revision); starts at 1000 so none is mistaken for "0" (any). */
  resourceVersion = 1000;
  /** Resource key (`prefix/plural`, e.g. `api/v1/pods`) of each change, by resourceVersion - 1001: benchmarks use it to tell which watch missed an event. */
  readonly changedResources: string[] = [];
  /** Requests answered so far, by kind: `list`, `watch`, `gone` (410). */
  readonly requests = { list: 0, watch: 0, gone: 0 };

  constructor(options: LoopbackApiServerOptions = {}) {
    this.windowEvents = options.windowEvents ?? 100_000;
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? 1000;
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
  }

  /** Listen on 127.0.0.1 (port 0: any free port) and return the base URL, e.g. `http://127.0.0.1:41234`. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.bookmarkTimer = setInterval(() => this.sendBookmarks(), this.bookmarkIntervalMs);
    return this.url;
  }

  /** Base URL once listening. */
  get url(): string {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('loopback API server is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  /** Write a kubeconfig whose current context points at this server (plain HTTP: client-node refuses http:// unless insecure-skip-tls-verify is set; the token is ignored). */
  writeKubeconfig(path: string): void {
    writeFileSync(
      path,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: loopback\n  cluster:\n    server: ${this.url}\n    insecure-skip-tls-verify: true\n` +
        `users:\n- name: bench\n  user:\n    token: loopback\ncontexts:\n- name: loopback\n  context: {cluster: loopback, user: bench}\ncurrent-context: loopback\n`,
    );
  }

  /**
   * Create or replace an object: it gets the next resourceVersion and every matching watch an ADDED or
   * MODIFIED event. Returns the resourceVersion given.
   */
  put(resource: LoopbackResource, object: LoopbackObject): number {
    const key = `${resource.prefix}/${resource.plural}`;
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name;
    let objects = this.store.get(key);
    if (!objects) this.store.set(key, (objects = new Map()));
    const rv = ++this.resourceVersion;
    const full = { apiVersion: resource.apiVersion, kind: resource.listKind.replace(/List$/, ''), ...object, metadata: { ...object.metadata, resourceVersion: String(rv) } };
    const json = JSON.stringify(full);
    const type = objects.has(`${namespace}/${name}`) ? 'MODIFIED' : 'ADDED';
    objects.set(`${namespace}/${name}`, { rv, json, namespace, name, uid: object.metadata.uid });
    this.emit({ rv, resource: key, namespace, name, line: Buffer.from(`{"type":"${type}","object":${json}}\n`) });
    return rv;
  }

  /**
   * As `put` for an object already serialized: `render(rv)` returns its JSON with `metadata.resourceVersion` set to
   * `rv` and apiVersion/kind included. Lets a load generator fill a JSON template instead of building, copying and
   * serializing an object per change (the benchmark's feeder must cost less than the observer it feeds).
   */
  putJson(resource: LoopbackResource, id: { namespace?: string; name: string; uid: string }, render: (rv: number) => string): number {
    const key = `${resource.prefix}/${resource.plural}`;
    const namespace = id.namespace ?? '';
    let objects = this.store.get(key);
    if (!objects) this.store.set(key, (objects = new Map()));
    const rv = ++this.resourceVersion;
    const json = render(rv);
    const type = objects.has(`${namespace}/${id.name}`) ? 'MODIFIED' : 'ADDED';
    objects.set(`${namespace}/${id.name}`, { rv, json, namespace, name: id.name, uid: id.uid });
    this.emit({ rv, resource: key, namespace, name: id.name, line: Buffer.from(`{"type":"${type}","object":${json}}\n`) });
    return rv;
  }

  /** Delete an object (DELETED event with its last state at a new resourceVersion); false when it does not exist. */
  remove(resource: LoopbackResource, namespace: string, name: string): boolean {
    const key = `${resource.prefix}/${resource.plural}`;
    const stored = this.store.get(key)?.get(`${namespace}/${name}`);
    if (!stored) return false;
    this.store.get(key)!.delete(`${namespace}/${name}`);
    const rv = ++this.resourceVersion;
    const object = JSON.parse(stored.json) as LoopbackObject;
    object.metadata.resourceVersion = String(rv);
    this.emit({ rv, resource: key, namespace, name, line: Buffer.from(`{"type":"DELETED","object":${JSON.stringify(object)}}\n`) });
    return true;
  }

  /**
   * End every open watch with an ERROR event carrying a 410 Status (reason Expired) and drop the event window,
   * so a client resuming from any resourceVersion it holds must re-list. Returns how many watches were ended.
   */
  expireWatches(): number {
    this.window.length = 0;
    this.windowStart = this.resourceVersion + 1;
    const ended = this.watchers.size;
    for (const w of [...this.watchers]) this.endWithGone(w, `too old resource version: watch expired by the loopback server`);
    return ended;
  }

  /**
   * End every open watch normally (as kube-apiserver does when a watch's timeoutSeconds runs out): the client
   * resumes from the last resourceVersion it saw, its last event's or its last bookmark's. Returns how many ended.
   */
  closeWatches(): number {
    const ended = this.watchers.size;
    for (const w of [...this.watchers]) {
      this.watchers.delete(w);
      w.res.end();
    }
    return ended;
  }

  /** Query strings of every watch request so far, in order (e.g. to check allowWatchBookmarks). */
  readonly watchQueries: URLSearchParams[] = [];

  /** uid → resourceVersion of every stored object: the state a client in sync must end with. */
  currentVersions(): Map<string, number> {
    const result = new Map<string, number>();
    for (const objects of this.store.values()) for (const o of objects.values()) result.set(o.uid, o.rv);
    return result;
  }

  /** Bytes waiting in the socket buffers of open watches (the client is behind by this much). */
  get pendingWatchBytes(): number {
    let bytes = 0;
    for (const w of this.watchers) bytes += w.res.writableLength;
    return bytes;
  }

  /** Open watch streams. */
  get openWatches(): number {
    return this.watchers.size;
  }

  /** Close every watch and stop listening. */
  async close(): Promise<void> {
    clearInterval(this.bookmarkTimer);
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private emit(event: WindowEvent): void {
    this.changedResources[event.rv - 1001] = event.resource;
    this.window.push(event);
    if (this.window.length > this.windowEvents) {
      const dropped = this.window.splice(0, this.window.length - this.windowEvents);
      this.windowStart = dropped[dropped.length - 1].rv + 1;
    }
    for (const w of this.watchers) {
      if (this.matches(w, event)) {
        w.res.write(event.line);
        w.sent += 1;
      }
    }
  }

  private matches(w: Watcher, e: { resource: string; namespace: string; name: string }): boolean {
    return w.resource === e.resource && (w.namespace === null || w.namespace === e.namespace) && (w.name === null || w.name === e.name);
  }

  private sendBookmarks(): void {
    for (const w of this.watchers) {
      if (!w.bookmarks) continue;
      const resource = [...Object.values(RESOURCES)].find((r) => `${r.prefix}/${r.plural}` === w.resource);
      const object = { kind: resource?.listKind.replace(/List$/, '') ?? 'Object', apiVersion: resource?.apiVersion ?? 'v1', metadata: { resourceVersion: String(this.resourceVersion) } };
      w.res.write(`{"type":"BOOKMARK","object":${JSON.stringify(object)}}\n`);
    }
  }

  private endWithGone(w: Watcher, message: string): void {
    this.requests.gone += 1;
    w.res.end(`${JSON.stringify({ type: 'ERROR', object: statusObject(410, 'Expired', message) })}\n`);
    this.watchers.delete(w);
  }

  private collection(pathname: string): Collection | null {
    const m = PATH.exec(pathname);
    if (!m) return null;
    return { resource: `${m[1]}/${m[3]}`, namespace: m[2] ?? null };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const collection = this.collection(url.pathname);
    const selector = parseFieldSelector(url.searchParams.get('fieldSelector'));
    res.setHeader('content-type', 'application/json');
    if (req.method !== 'GET' || collection === null || selector instanceof Error) {
      res.statusCode = collection === null ? 404 : 400;
      res.end(JSON.stringify(statusObject(res.statusCode, 'BadRequest', selector instanceof Error ? selector.message : `${req.method} ${url.pathname} not served`)));
      return;
    }
    const namespace = collection.namespace ?? selector.namespace;
    if (url.searchParams.get('watch') === 'true') this.watch(res, collection.resource, namespace, selector.name, url.searchParams);
    else this.list(res, collection.resource, namespace, selector.name, url.searchParams);
  }

  private list(res: ServerResponse, resource: string, namespace: string | null, name: string | null, params: URLSearchParams): void {
    this.requests.list += 1;
    const listKind = Object.values(RESOURCES).find((r) => `${r.prefix}/${r.plural}` === resource)?.listKind ?? 'List';
    const limit = Number(params.get('limit') ?? '0');
    let token = params.get('continue');
    let items: string[];
    let listRv: number;
    if (token) {
      const snapshot = this.snapshots.get(token);
      if (!snapshot) {
        res.statusCode = 410;
        res.end(JSON.stringify(statusObject(410, 'Expired', 'continue token expired')));
        return;
      }
      this.snapshots.delete(token);
      listRv = Number(token.split(':')[0]);
      items = snapshot;
    } else {
      listRv = this.resourceVersion;
      items = [];
      for (const o of this.store.get(resource)?.values() ?? []) {
        if ((namespace === null || o.namespace === namespace) && (name === null || o.name === name)) items.push(o.json);
      }
    }
    let next: string | undefined;
    if (limit > 0 && items.length > limit) {
      next = `${listRv}:${Math.random().toString(36).slice(2)}`;
      this.snapshots.set(next, items.slice(limit));
      items = items.slice(0, limit);
    }
    token = next ?? null;
    const metadata = JSON.stringify({ resourceVersion: String(listRv), ...(token ? { continue: token } : {}) });
    res.end(`{"kind":"${listKind}","apiVersion":"v1","metadata":${metadata},"items":[${items.join(',')}]}`);
  }

  private watch(res: ServerResponse, resource: string, namespace: string | null, name: string | null, params: URLSearchParams): void {
    this.requests.watch += 1;
    this.watchQueries.push(params);
    const from = params.get('resourceVersion') ?? '';
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const w: Watcher = { resource, namespace, name, res, bookmarks: params.get('allowWatchBookmarks') === 'true', sent: 0 };
    res.on('close', () => this.watchers.delete(w));
    if (from === '' || from === '0') {
      // "Any" resourceVersion: synthetic ADDED events for the current state, then changes.
      for (const o of this.store.get(resource)?.values() ?? []) {
        if (this.matches(w, { resource, ...o })) res.write(`{"type":"ADDED","object":${o.json}}\n`);
      }
    } else {
      const rv = Number(from);
      if (!(rv + 1 >= this.windowStart)) {
        this.endWithGone(w, `too old resource version: ${rv} (${this.windowStart - 1})`);
        return;
      }
      for (const e of this.window) {
        if (e.rv > rv && this.matches(w, e)) {
          res.write(e.line);
          w.sent += 1;
        }
      }
    }
    this.watchers.add(w);
  }
}
