// Tests for lib/observe/watcher.ts with a fake informer: list/watch records, echo suppression, restart with gap.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal, readJournal, type Journal } from '../../../lib/observe/journal.js';
import type { RawList, RawObject } from '../../../lib/observe/raw-types.js';
import type { WatchSource } from '../../../lib/observe/sources.js';
import type { GapObservation, ObjectObservation } from '../../../lib/observe/types.js';
import { RESTART_BASE_DELAY_MS, watchSource, type InformerLike } from '../../../lib/observe/watcher.js';

/** A stand-in for client-node's ListWatch: start() lists, then tests drive events by hand. */
class FakeInformer implements InformerLike {
  handlers: Record<string, ((x: never) => void)[]> = { add: [], update: [], delete: [], error: [] };
  cache = new Map<string, RawObject>();
  stopped = false;
  constructor(private readonly list: () => Promise<RawList>) {}
  on(verb: string, cb: (x: never) => void): void {
    this.handlers[verb].push(cb);
  }
  emit(verb: 'add' | 'update' | 'delete', obj: RawObject): void {
    for (const cb of this.handlers[verb]) (cb as (o: RawObject) => void)(obj);
  }
  fail(err: Error): void {
    for (const cb of this.handlers.error) (cb as (e: Error) => void)(err);
  }
  async start(): Promise<void> {
    const result = await this.list();
    for (const item of result.items) this.emit('add', item); // as ListWatch does after a list
  }
  async stop(): Promise<void> {
    this.stopped = true;
  }
}

const pod = (name: string, rv: string, extra: Record<string, unknown> = {}): RawObject => ({
  metadata: { name, namespace: 'rebootlab', uid: `uid-${name}`, resourceVersion: rv, managedFields: [{ manager: 'kubelet' }] },
  ...extra,
});

describe('observe/watcher', () => {
  let dir: string;
  let journal: Journal;
  let listed: RawObject[];
  let informers: FakeInformer[];
  let delays: number[];
  let releaseDelay: () => void;
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const source: WatchSource = { kind: 'Pod', path: '/api/v1/pods', label: 'Pod (all namespaces)', list: async () => ({ items: listed }) };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-watch-'));
    journal = openJournal(join(dir, 'observations.jsonl'), { nowMs: () => 5_000 });
    informers = [];
    delays = [];
    listed = [pod('web-a', '10'), pod('web-b', '11')];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const start = () =>
    watchSource(source, {
      journal,
      log: () => {},
      nowMs: () => 5_000,
      makeInformer: (_s, list) => {
        const inf = new FakeInformer(list);
        informers.push(inf);
        return inf;
      },
      delayFn: (ms) => {
        delays.push(ms);
        return new Promise<void>((resolve) => (releaseDelay = resolve));
      },
    });

  it('journals list entries as LISTED once (not again as the cache echo), then watch events, without managedFields', async () => {
    const watch = start();
    await watch.synced;
    informers[0].emit('update', pod('web-a', '12', { status: { phase: 'Running' } }));
    informers[0].emit('delete', pod('web-b', '13'));
    const records = readJournal(journal.path) as ObjectObservation[];
    expect(records.map((r) => `${r.verb} ${r.name} ${r.resourceVersion}`)).to.deep.equal(['LISTED web-a 10', 'LISTED web-b 11', 'MODIFIED web-a 12', 'DELETED web-b 13']);
    expect((records[0].object.metadata as Record<string, unknown>).managedFields).to.equal(undefined);
  });

  it('drops events the watch stream still delivers after stop(): the journal may be closed by then (a catalog run crashed with "journal is closed" on a late Lease update)', async () => {
    const watch = start();
    await watch.synced;
    await watch.stop();
    journal.close();
    expect(() => informers[0].emit('update', pod('web-a', '12'))).to.not.throw();
    const records = readJournal(journal.path) as ObjectObservation[];
    expect(records.map((r) => `${r.verb} ${r.name} ${r.resourceVersion}`)).to.deep.equal(['LISTED web-a 10', 'LISTED web-b 11']);
  });

  it('after an informer error restarts after 1 s with a fresh list, records vanished objects DELETED and a gap', async () => {
    const watch = start();
    await watch.synced;
    informers[0].fail(new Error('connect ECONNREFUSED'));
    expect(delays).to.deep.equal([RESTART_BASE_DELAY_MS]);
    expect(informers[0].stopped).to.equal(true);
    listed = [pod('web-a', '20')]; // web-b was deleted while the watch was down
    releaseDelay();
    await tick();
    await tick();
    expect(informers).to.have.length(2);
    const records = readJournal(journal.path);
    const tail = records.slice(2).map((r) => (r.type === 'object' ? `${r.verb} ${r.name}` : r.type));
    expect(tail).to.deep.equal(['LISTED web-a', 'DELETED web-b', 'gap']);
    const gap = records.at(-1) as GapObservation;
    expect(gap.reason).to.equal('Pod (all namespaces): watch failed (connect ECONNREFUSED), restarted');
  });

  it('doubles the restart delay while failures repeat', async () => {
    const watch = start();
    await watch.synced;
    informers[0].fail(new Error('first'));
    releaseDelay();
    await tick();
    informers[1].fail(new Error('second'));
    expect(delays).to.deep.equal([1_000, 2_000]);
    await watch.stop();
  });
});
