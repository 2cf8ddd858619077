import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { V1Pod } from '@kubernetes/client-node';
import { summarizePodReadiness } from '../../../lib/workloads/readiness.js';

// The web pods of a recorded kind power-off run, replayed from its journal up to a record: what a readiness timeout
// at that instant would have listed.
const JOURNAL = new URL('../../../../test/fixtures/runs/kind-power-off-blackhole-recorded/observations.jsonl', import.meta.url);
interface PodRecord { seq: number; type: string; kind?: string; verb?: string; namespace?: string; object?: V1Pod }

/** The web pods after the record `stop` is true of, or (`beforeSeq`) just before that journal sequence number. */
function webPodsUntil(stop: (pod: V1Pod, record: PodRecord) => boolean, beforeSeq = Infinity): V1Pod[] {
  const pods = new Map<string, V1Pod>();
  for (const line of readFileSync(JOURNAL, 'utf8').split('\n').filter(Boolean)) {
    const record = JSON.parse(line) as PodRecord;
    if (record.seq >= beforeSeq) break;
    if (record.type !== 'object' || record.kind !== 'Pod' || record.namespace !== 'rebootlab' || !record.object) continue;
    const pod = record.object;
    if (!pod.metadata?.name?.startsWith('web-')) continue;
    if (record.verb === 'DELETED') pods.delete(pod.metadata.name);
    else pods.set(pod.metadata.name, pod);
    if (stop(pod, record)) break;
  }
  return [...pods.values()];
}

describe('summarizePodReadiness (the pods named by a readiness timeout)', () => {
  it('before the fault (journal seq 181): every pod Ready', () => {
    const pods = webPodsUntil(() => false, 181);
    expect(summarizePodReadiness(pods)).to.equal('3 of 3 pods Ready');
  });

  it('at the eviction: the evicted pod is Running on the dead node, terminating, not Ready', () => {
    const pods = webPodsUntil((pod) => Boolean(pod.metadata?.deletionTimestamp));
    expect(summarizePodReadiness(pods)).to.equal('2 of 3 pods Ready; not Ready: 1 Running on a node, terminating (web-6d649457bf-tfr5d on rl-bh-worker)');
  });

  it('its replacement just created: Pending and not scheduled, listed as its own group', () => {
    let evicted = false;
    const pods = webPodsUntil((pod) => {
      evicted ||= Boolean(pod.metadata?.deletionTimestamp);
      return evicted && !pod.metadata?.deletionTimestamp && !pod.spec?.nodeName;
    });
    const replacement = pods.find((p) => !p.spec?.nodeName)!;
    expect(replacement, 'a replacement without a node').to.not.equal(undefined);
    expect(summarizePodReadiness(pods)).to.equal(
      `2 of 4 pods Ready; not Ready: 1 Running on a node, terminating (web-6d649457bf-tfr5d on rl-bh-worker); 1 Pending not scheduled (${replacement.metadata!.name})`,
    );
  });
});
