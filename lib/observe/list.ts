// Lists one collection as raw JSON, in pages, with the kubeconfig's credentials: the observer's list call. The typed
// clients turned every timestamp into a Date and back (a JSON round trip over the whole list) and held 10,000 full
// Pods at once; this parses one page of PAGE_SIZE objects at a time and projects each as it goes.
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { RawList, RawObject } from './raw-types.js';

/**
 * Objects per list page, as client-go's reflector asks (k8s.io/client-go/tools/pager, defaultPageSize 500):
 * the API server answers with a `continue` token, all pages consistent at the first page's resourceVersion
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks).
 */
export const PAGE_SIZE = 500;

/** An API answer other than 200, with its HTTP status (410: the continue token expired; list again). */
export class ListError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = 'ListError';
  }
}

/**
 * `path` on the kubeconfig's current cluster with `params` as its query (undefined values left out).
 * @throws Error when the kubeconfig has no current cluster.
 */
export function apiUrl(kc: KubeConfig, path: string, params: Record<string, string | number | boolean | undefined> = {}): URL {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const url = new URL(cluster.server.replace(/\/$/, '') + path);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

/**
 * Sends GET `url` with the kubeconfig's credentials (client certificate, token, CA), accepting JSON; `onResponse`
 * gets the response. The caller listens for the request's `error` event.
 */
export async function sendGet(kc: KubeConfig, url: URL, onResponse: (response: IncomingMessage) => void, signal?: AbortSignal): Promise<ClientRequest> {
  const options: RequestOptions = { method: 'GET', headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) };
  await kc.applyToHTTPSOptions(options);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return request(url, options, onResponse);
}

async function getJson(kc: KubeConfig, url: URL): Promise<{ resourceVersion?: string; continue?: string; items?: RawObject[] }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    sendGet(kc, url, resolve).then((req) => {
      req.on('error', reject);
      req.end();
    }, reject);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  if (response.statusCode !== 200) {
    let message = body.slice(0, 200);
    try {
      message = (JSON.parse(body) as { message?: string }).message ?? message;
    } catch {
      // not a Status object: keep the start of the body
    }
    throw new ListError(`GET ${url.pathname}: ${response.statusCode} ${message}`, response.statusCode ?? 0);
  }
  const list = JSON.parse(body) as { metadata?: { resourceVersion?: string; continue?: string }; items?: RawObject[] };
  return { ...list.metadata, items: list.items };
}

/**
 * GET `path` (e.g. `/api/v1/pods`) from the kubeconfig's current cluster in pages of `pageSize`, with
 * `fieldSelector` if given; every item goes through `project` as its page arrives. Returns the items and the first
 * page's resourceVersion (the one a watch resumes from).
 * @throws ListError on an HTTP status other than 200; Error when the cluster cannot be reached.
 */
export async function listCollection(
  kc: KubeConfig,
  path: string,
  options: { fieldSelector?: string; pageSize?: number; project?: (obj: RawObject) => RawObject } = {},
): Promise<RawList> {
  const project = options.project ?? ((obj: RawObject) => obj);
  const items: RawObject[] = [];
  let resourceVersion: string | undefined;
  let token: string | undefined;
  do {
    const url = apiUrl(kc, path, { limit: options.pageSize ?? PAGE_SIZE, fieldSelector: options.fieldSelector || undefined, continue: token });
    const page = await getJson(kc, url);
    resourceVersion ??= page.resourceVersion;
    for (const item of page.items ?? []) items.push(project(item));
    token = page.continue || undefined;
  } while (token);
  return { metadata: { resourceVersion }, items };
}
