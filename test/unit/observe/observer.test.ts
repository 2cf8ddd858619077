// startObserver against an in-process fake kube-apiserver (HTTP list + watch streams): real client-node ListWatch,
// no cluster. The first Pod watch answers 500, so the restart, re-list and gap record are exercised too.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal, readJournal } from '../../../lib/observe/journal.js';
import type { GapObservation, ObjectObservation } from '../../../lib/observe/types.js';

const NODE = { metadata: { name: 'kind-worker', uid: 'n1', resourceVersion: '5', managedFields: [{ manager: 'kubelet' }] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
const LEASE = { metadata: { name: 'kind-worker', namespace: 'kube-node-lease', uid: 'l1', resourceVersion: '6' }, spec: { holderIdentity: 'kind-worker', renewTime: '2026-11-30T10:00:01.123456Z' } };
const POD = { metadata: { name: 'web-a', namespace: 'rebootlab', uid: 'p1', resourceVersion: '7' }, spec: { nodeName: 'kind-worker' } };
const LISTS: Record<string, unknown[]> = { '/api/v1/nodes': [NODE], '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases': [LEASE], '/api/v1/pods': [POD] };

function fakeApiServer(): Server {
  let podWatches = 0;
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    res.setHeader('content-type', 'application/json');
    if (url.searchParams.get('watch') !== 'true') {
      res.end(JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: LISTS[url.pathname] ?? [] }));
      return;
    }
    if (url.pathname === '/api/v1/pods' && ++podWatches === 1) {
      res.statusCode = 500;
      res.end('boom');
      return;
    }
    res.writeHead(200);
    if (url.pathname === '/api/v1/pods') res.write(JSON.stringify({ type: 'MODIFIED', object: { ...POD, metadata: { ...POD.metadata, resourceVersion: '9' } } }) + '\n');
    // other watches stay open and quiet until the observer stops
  });
}

describe('observe/observer (fake API server)', function () {
  this.timeout(20_000); // the first import of @kubernetes/client-node takes seconds
  let startObserver: typeof import('../../../lib/observe/observer.js').startObserver;
  let server: Server;
  let dir: string;

  before(async function () {
    try {
      ({ startObserver } = await import('../../../lib/observe/observer.js'));
    } catch (err) {
      // @kubernetes/client-node 2.0.1 pulls undici 8, which needs Node >= 22.19; on Node 20 it fails to load
      // until package.json pins undici 7 via "overrides". Skip rather than break the whole unit tier.
      console.warn(`skipped: @kubernetes/client-node does not load here: ${(err as Error).message}`);
      this.skip();
    }
    server = fakeApiServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-observer-'));
    const { port } = server.address() as { port: number };
    writeFileSync(
      join(dir, 'kubeconfig'),
      `apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster:\n    server: http://127.0.0.1:${port}\n    insecure-skip-tls-verify: true\n` +
        `users:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: fake\n  context: {cluster: fake, user: u}\ncurrent-context: fake\n`,
    );
  });
  after(() => {
    server?.closeAllConnections();
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('journals list entries, watch events and a gap after a failed watch, without managedFields', async () => {
    const journal = openJournal(join(dir, 'observations.jsonl'));
    const logs: string[] = [];
    const observer = await startObserver({
      kubeconfigPath: join(dir, 'kubeconfig'),
      journal,
      namespaces: ['rebootlab'],
      log: (_level, message) => logs.push(message),
      delayFn: () => new Promise((resolve) => setTimeout(resolve, 20)),
    });
    await observer.synced;
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && !readJournal(journal.path).some((r) => r.type === 'object' && r.verb === 'MODIFIED')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await observer.stop();
    journal.close();
    const records = readJournal(journal.path);
    const objects = records.filter((r): r is ObjectObservation => r.type === 'object');
    expect(objects.find((r) => r.kind === 'Node')).to.include({ verb: 'LISTED', name: 'kind-worker', resourceVersion: '5' });
    expect((objects.find((r) => r.kind === 'Node')?.object.metadata as Record<string, unknown>).managedFields).to.equal(undefined);
    expect(objects.find((r) => r.kind === 'Lease')).to.include({ verb: 'LISTED', name: 'kind-worker' });
    expect(objects.filter((r) => r.kind === 'Pod').map((r) => `${r.verb} ${r.resourceVersion}`)).to.deep.equal(['LISTED 7', 'LISTED 7', 'MODIFIED 9']);
    const gap = records.find((r): r is GapObservation => r.type === 'gap');
    expect(gap?.reason).to.equal('Pod (all namespaces): watch failed (Internal Server Error), restarted');
    expect(logs).to.deep.equal(['Pod (all namespaces) watch failed: Internal Server Error; restarting in 1000 ms']);
  });

  it('synced rejects with InfraError naming the unlisted collections when the API is unreachable', async () => {
    writeFileSync(join(dir, 'dead-kubeconfig'), `apiVersion: v1\nkind: Config\nclusters:\n- name: d\n  cluster:\n    server: http://127.0.0.1:1\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: d\n  context: {cluster: d, user: u}\ncurrent-context: d\n`);
    const journal = openJournal(join(dir, 'dead.jsonl'));
    const observer = await startObserver({ kubeconfigPath: join(dir, 'dead-kubeconfig'), journal, namespaces: [], syncTimeoutMs: 300, delayFn: () => new Promise((r) => setTimeout(r, 50)) });
    const err = await observer.synced.then(() => null, (e: Error) => e);
    await observer.stop();
    journal.close();
    expect(err?.message).to.match(/^observer could not list Node, Lease \(kube-node-lease\), Lease \(kube-system\/kube-controller-manager\), Pod \(all namespaces\), Event \(default\), EndpointSlice \(default\), Job \(default\) within 300 ms$/);
    expect(err).to.have.property('exitCode', 3);
  });
});
