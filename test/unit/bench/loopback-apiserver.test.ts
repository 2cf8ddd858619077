// The loopback API server of the observer capacity benchmark (bench/loopback/apiserver.ts): the kube-apiserver
// behaviour the benchmark relies on (paged lists consistent at one resourceVersion, watch resume, 410 Gone, bookmarks),
// checked with plain HTTP and then with rebootlab's real observer (client-node ListWatch) driven by it.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoopbackApiServer, RESOURCES, type LoopbackObject } from '../../../bench/loopback/apiserver.js';
import { openJournal, readJournal } from '../../../lib/observe/journal.js';
import type { GapObservation, ObjectObservation } from '../../../lib/observe/types.js';

const node = (name: string, ready = 'True'): LoopbackObject => ({ metadata: { name, uid: `uid-${name}` }, status: { conditions: [{ type: 'Ready', status: ready }] } });
const pod = (name: string, phase = 'Running'): LoopbackObject => ({ metadata: { name, namespace: 'bench', uid: `uid-${name}` }, spec: { nodeName: 'n0', containers: [{ name: 'c', image: 'fake' }] }, status: { phase } });

async function getJson(url: string): Promise<any> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(JSON.parse(body)));
    }).on('error', reject);
  });
}

/** Reads watch lines until `count` arrived or the stream ended; resolves with the parsed events. */
async function watchLines(url: string, count: number, timeoutMs = 3000): Promise<{ type: string; object: any }[]> {
  return new Promise((resolve, reject) => {
    const events: { type: string; object: any }[] = [];
    const req = get(url, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      const finish = () => {
        clearTimeout(timer);
        req.destroy();
        resolve(events);
      };
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let i;
        while ((i = buffer.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buffer.slice(0, i)));
          buffer = buffer.slice(i + 1);
          if (events.length >= count) return finish();
        }
      });
      res.on('end', finish);
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    const timer = setTimeout(() => {
      req.destroy();
      resolve(events);
    }, timeoutMs);
  });
}

async function until(test: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!test()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('bench/loopback API server', function () {
  let server: LoopbackApiServer;
  afterEach(async () => server?.close());

  it('serves a paged list consistent at the first page’s resourceVersion while objects change between pages', async () => {
    server = new LoopbackApiServer();
    const url = await server.listen();
    for (let i = 0; i < 5; i++) server.put(RESOURCES.Node, node(`n${i}`));
    const first = await getJson(`${url}/api/v1/nodes?limit=2`);
    expect(first.items.map((o: any) => o.metadata.name)).to.deep.equal(['n0', 'n1']);
    expect(first.metadata.continue).to.be.a('string');
    server.put(RESOURCES.Node, node('n4', 'Unknown'));
    server.put(RESOURCES.Node, node('n5'));
    const second = await getJson(`${url}/api/v1/nodes?limit=2&continue=${encodeURIComponent(first.metadata.continue)}`);
    const third = await getJson(`${url}/api/v1/nodes?limit=2&continue=${encodeURIComponent(second.metadata.continue)}`);
    expect(third.metadata.continue).to.equal(undefined);
    const names = [...second.items, ...third.items].map((o: any) => o.metadata.name);
    expect(names).to.deep.equal(['n2', 'n3', 'n4']); // n5 came after the snapshot
    expect(third.items[0].status.conditions[0].status).to.equal('True'); // n4 as of the first page
    expect(second.metadata.resourceVersion).to.equal(first.metadata.resourceVersion);
  });

  it('resumes a watch after a resourceVersion, filters by namespace and field selector, and sends no bookmark unless asked', async () => {
    server = new LoopbackApiServer({ bookmarkIntervalMs: 50 });
    const url = await server.listen();
    server.put(RESOURCES.Pod, pod('a'));
    const from = server.resourceVersion;
    server.put(RESOURCES.Pod, pod('a', 'Failed'));
    server.put(RESOURCES.Pod, { ...pod('b'), metadata: { name: 'b', namespace: 'other', uid: 'uid-b' } });
    server.put(RESOURCES.Pod, pod('c'));
    const events = await watchLines(`${url}/api/v1/namespaces/bench/pods?watch=true&resourceVersion=${from}`, 3, 300);
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).to.deep.equal(['MODIFIED a', 'ADDED c']);
    const selected = await watchLines(`${url}/api/v1/pods?watch=true&resourceVersion=${from}&fieldSelector=metadata.name%3Db`, 2, 300);
    expect(selected.map((e) => `${e.type} ${e.object.metadata.name}`)).to.deep.equal(['ADDED b']);
  });

  it('sends BOOKMARK events with the current resourceVersion when allowWatchBookmarks=true', async () => {
    server = new LoopbackApiServer({ bookmarkIntervalMs: 50 });
    const url = await server.listen();
    server.put(RESOURCES.Node, node('n0'));
    const from = server.resourceVersion;
    server.put(RESOURCES.Pod, pod('a')); // a change elsewhere moves the resourceVersion, not the Node watch
    const events = await watchLines(`${url}/api/v1/nodes?watch=true&resourceVersion=${from}&allowWatchBookmarks=true`, 1);
    expect(events).to.have.length(1);
    expect(events[0].type).to.equal('BOOKMARK');
    expect(events[0].object.metadata.resourceVersion).to.equal(String(server.resourceVersion));
  });

  it('answers 410 Gone (an ERROR event with a Status of code 410) to a resourceVersion older than its window, and to open watches it expires', async () => {
    server = new LoopbackApiServer({ windowEvents: 2 });
    const url = await server.listen();
    server.put(RESOURCES.Node, node('n0'));
    const old = server.resourceVersion;
    for (let i = 0; i < 3; i++) server.put(RESOURCES.Node, node(`n${i + 1}`));
    const gone = await watchLines(`${url}/api/v1/nodes?watch=true&resourceVersion=${old}`, 1);
    expect(gone).to.have.length(1);
    expect(gone[0]).to.deep.include({ type: 'ERROR' });
    expect(gone[0].object).to.include({ kind: 'Status', code: 410, reason: 'Expired' });

    const open = watchLines(`${url}/api/v1/nodes?watch=true&resourceVersion=${server.resourceVersion}`, 5);
    await until(() => server.openWatches === 1, 'the watch to open');
    expect(server.expireWatches()).to.equal(1);
    const events = await open;
    expect(events.map((e) => e.type)).to.deep.equal(['ERROR']);
    expect(events[0].object.code).to.equal(410);
  });

  describe('driving the observer', function () {
    this.timeout(30_000); // the first import of @kubernetes/client-node takes seconds
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rebootlab-loopback-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    async function observe(s: LoopbackApiServer) {
      const { startObserver } = await import('../../../lib/observe/observer.js');
      s.writeKubeconfig(join(dir, 'kubeconfig'));
      const journal = openJournal(join(dir, 'observations.jsonl'));
      const observer = await startObserver({ kubeconfigPath: join(dir, 'kubeconfig'), journal, namespaces: ['bench'] });
      await observer.synced;
      return { journal, observer, records: () => readJournal(journal.path) };
    }

    it('after a 410 Gone re-lists: records the change made while expired, a deletion it missed, and a gap for the blind span', async () => {
      server = new LoopbackApiServer({ bookmarkIntervalMs: 60_000 });
      await server.listen();
      server.put(RESOURCES.Pod, pod('a'));
      server.put(RESOURCES.Pod, pod('b'));
      const { journal, observer, records } = await observe(server);
      await until(() => server.openWatches >= 7, 'every watch to open');
      const podWatchesBefore = server.watchQueries.filter((q) => q.get('resourceVersion') !== null).length;
      expect(podWatchesBefore).to.be.greaterThan(0);
      server.expireWatches();
      // Changes while the observer re-lists; the window was dropped, so they can only reach it through the list.
      server.put(RESOURCES.Pod, pod('a', 'Failed'));
      server.remove(RESOURCES.Pod, 'bench', 'b');
      await until(() => records().some((r) => r.type === 'gap' && r.kind === 'Pod') && records().some((r) => r.type === 'object' && r.name === 'b' && r.verb === 'DELETED'), 'the re-list');
      await observer.stop();
      journal.close();
      const pods = records().filter((r): r is ObjectObservation => r.type === 'object' && r.kind === 'Pod');
      const lastA = pods.filter((r) => r.name === 'a').at(-1)!;
      expect((lastA.object.status as { phase: string }).phase).to.equal('Failed');
      const gap = records().find((r): r is GapObservation => r.type === 'gap' && r.kind === 'Pod')!;
      expect(gap.reason).to.match(/410 Gone/);
      expect(gap.toMs).to.be.at.least(gap.fromMs);
      expect(server.requests.gone).to.be.greaterThan(0);
    });

    it('asks for bookmarks, so a quiet watch closed by the server resumes from its bookmark without a 410, re-list or gap', async () => {
      server = new LoopbackApiServer({ bookmarkIntervalMs: 100, windowEvents: 5 });
      await server.listen();
      server.put(RESOURCES.Node, node('n0'));
      const { journal, observer, records } = await observe(server);
      await until(() => server.openWatches >= 7, 'every watch to open');
      expect(server.watchQueries.every((q) => q.get('allowWatchBookmarks') === 'true')).to.equal(true);
      // Pod changes push the Node watch's resourceVersion out of the 5-event window; only a bookmark keeps it current.
      for (let i = 0; i < 20; i++) server.put(RESOURCES.Pod, pod(`p${i}`));
      await new Promise((resolve) => setTimeout(resolve, 400)); // a few bookmark intervals
      const listsBefore = server.requests.list;
      server.closeWatches();
      await until(() => server.openWatches >= 7, 'every watch to reopen');
      server.put(RESOURCES.Node, node('n0', 'Unknown'));
      await until(() => records().some((r) => r.type === 'object' && r.kind === 'Node' && r.verb === 'MODIFIED'), 'the Node change');
      await observer.stop();
      journal.close();
      expect(server.requests.gone).to.equal(0);
      expect(server.requests.list).to.equal(listsBefore);
      expect(records().filter((r) => r.type === 'gap')).to.deep.equal([]);
    });
  });
});
