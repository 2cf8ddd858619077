// Builds a large run directory from a recorded one: every worker Node (with its Lease) is copied `copies` times,
// every workload Pod (with its Events) `copies × podsPerCopy` times, keeping each record's time and order, so the
// journal has the event sequences of a real outage (NotReady, taints, evictions, replacements) at the scale of a
// 1000-node / 10,000-pod run. Objects are written projected, as the observer journals them now.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openJournal } from '../lib/observe/journal.js';
import { projectObject } from '../lib/observe/project.js';
import type { ObjectObservation, Observation } from '../lib/observe/types.js';
import type { RunInfo } from '../lib/report/result-types.js';

/** The recorded kind run that is scaled: outage-tuned, 2 workers (one powered off), a Deployment and a bare Pod. */
export const SOURCE_RUN = fileURLToPath(new URL('../../test/fixtures/runs/kind-outage-tuned-recorded', import.meta.url));

/** Sizes of the scaled run. */
export interface ScaleOptions {
  /** Copies of each worker (the recorded run has 2 workers: 500 copies give 1000 nodes). */
  copies: number;
  /** Copies of each workload Pod per worker copy (the recorded run has 5 workload pods: 4 per copy give 10,000). */
  podsPerCopy: number;
}

/** What was written. */
export interface ScaledRun {
  dir: string;
  records: number;
  nodes: number;
  pods: number;
}

type Obj = Record<string, any>;

/**
 * Writes `<dir>/observations.jsonl` and `<dir>/run.json` scaled from SOURCE_RUN and returns their sizes.
 * @throws Error when the recorded run cannot be read.
 */
export function writeScaledRun(dir: string, o: ScaleOptions): ScaledRun {
  mkdirSync(dir, { recursive: true });
  const records = readFileSync(join(SOURCE_RUN, 'observations.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Observation);
  const info = JSON.parse(readFileSync(join(SOURCE_RUN, 'run.json'), 'utf8')) as RunInfo;
  const workers = [...new Set(records.filter((r) => r.type === 'object' && r.kind === 'Node' && !r.name.includes('control-plane')).map((r) => (r as ObjectObservation).name))];
  const workloadNamespace = 'rebootlab';
  const nodeName = (name: string, k: number) => (workers.includes(name) ? `${name}-c${k}` : name);
  const podName = (name: string, k: number, j: number) => `${name}-c${k}-${j}`;
  const isWorkloadPodRef = (ref: Obj | undefined) => ref?.kind === 'Pod' && ref?.namespace === workloadNamespace;

  const copiesOf = (r: Observation): Observation[] => {
    if (r.type === 'phase') return [r.nodes ? { ...r, nodes: r.nodes.flatMap((n) => (workers.includes(n) ? Array.from({ length: o.copies }, (_, k) => nodeName(n, k)) : [n])) } : r];
    if (r.type !== 'object') return [r];
    const obj = r.object as Obj;
    if ((r.kind === 'Node' || (r.kind === 'Lease' && r.namespace === 'kube-node-lease')) && workers.includes(r.name)) {
      return Array.from({ length: o.copies }, (_, k) => {
        const name = nodeName(r.name, k);
        const object: Obj = { ...obj, metadata: { ...obj.metadata, name, uid: `${r.uid}-c${k}`, labels: obj.metadata.labels && { ...obj.metadata.labels, 'kubernetes.io/hostname': name } } };
        if (r.kind === 'Lease') object.spec = { ...obj.spec, holderIdentity: name };
        return { ...r, name, uid: `${r.uid}-c${k}`, object };
      });
    }
    if (r.kind === 'Pod' && r.namespace === workloadNamespace) {
      const result: Observation[] = [];
      for (let k = 0; k < o.copies; k++) {
        for (let j = 0; j < o.podsPerCopy; j++) {
          const name = podName(r.name, k, j);
          const spec = obj.spec && { ...obj.spec, ...(obj.spec.nodeName ? { nodeName: nodeName(obj.spec.nodeName, k) } : {}) };
          result.push({ ...r, name, uid: `${r.uid}-c${k}-${j}`, object: { ...obj, metadata: { ...obj.metadata, name, uid: `${r.uid}-c${k}-${j}` }, ...(spec ? { spec } : {}) } });
        }
      }
      return result;
    }
    if (r.kind === 'Event' && (workers.includes(obj.involvedObject?.name) || isWorkloadPodRef(obj.involvedObject))) {
      const result: Observation[] = [];
      for (let k = 0; k < o.copies; k++) {
        for (let j = 0; j < (isWorkloadPodRef(obj.involvedObject) ? o.podsPerCopy : 1); j++) {
          const involved = obj.involvedObject.kind === 'Pod' ? podName(obj.involvedObject.name, k, j) : nodeName(obj.involvedObject.name, k);
          const uid = `${r.uid}-c${k}-${j}`;
          result.push({ ...r, name: `${r.name}-c${k}-${j}`, uid, object: { ...obj, metadata: { ...obj.metadata, name: `${r.name}-c${k}-${j}`, uid }, involvedObject: { ...obj.involvedObject, name: involved } } });
        }
      }
      return result;
    }
    return [r];
  };

  const journal = openJournal(join(dir, 'observations.jsonl'));
  for (const r of records) {
    for (const copy of copiesOf(r)) {
      if (copy.type === 'object') {
        const { seq: _seq, type: _type, ...rest } = copy;
        journal.appendObject({ ...rest, object: projectObject(copy.kind, copy.object) as ObjectObservation['object'] });
      } else if (copy.type === 'phase') {
        journal.mark(copy.phase, { ...(copy.nodes ? { nodes: copy.nodes } : {}), ...(copy.detail ? { detail: copy.detail } : {}), atMs: copy.receivedAtMs });
      } else if (copy.type === 'gap') {
        const { seq: _seq, type: _type, ...rest } = copy;
        journal.appendGap(rest);
      } else if (copy.type === 'forecast') {
        const { seq: _seq, type: _type, ...rest } = copy;
        journal.appendForecast(rest);
      } else {
        const { seq: _seq, type: _type, ...rest } = copy;
        journal.appendProbe(rest);
      }
    }
  }
  const count = journal.count;
  journal.close();
  const podUids = new Set(records.filter((r) => r.type === 'object' && r.kind === 'Pod' && r.namespace === workloadNamespace).map((r) => (r as ObjectObservation).uid));
  const pods = podUids.size * o.copies * o.podsPerCopy;
  const scaled: RunInfo = { ...info, workloads: info.workloads.map((w) => ({ ...w, desiredReplicas: (w.desiredReplicas ?? 1) * o.copies * o.podsPerCopy })) };
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify(scaled, null, 2)}\n`);
  return { dir, records: count, nodes: workers.length * o.copies + 1, pods };
}
