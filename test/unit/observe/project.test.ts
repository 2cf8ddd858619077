// The projection the observer applies before journaling (lib/observe/project.ts) keeps every field analysis and
// reports read: every recorded journal in test/fixtures/runs and reports/examples, re-projected, gives the same
// result.json figures as the full objects.
import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '../../../lib/analyze/analyze.js';
import { readJournal } from '../../../lib/observe/journal.js';
import { projectObject } from '../../../lib/observe/project.js';
import type { ObjectObservation, Observation } from '../../../lib/observe/types.js';
import { buildResult } from '../../../lib/report/result.js';
import { readRunInfo } from '../../../lib/report/write-reports.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Every directory under `dir` (any depth) holding observations.jsonl and run.json. */
function runDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const sub = join(dir, entry.name);
    if (existsSync(join(sub, 'observations.jsonl')) && existsSync(join(sub, 'run.json'))) found.push(sub);
    else found.push(...runDirs(sub));
  }
  return found;
}

function reproject(records: readonly Observation[]): Observation[] {
  return records.map((r) => (r.type === 'object' ? { ...r, object: projectObject(r.kind, r.object) as ObjectObservation['object'] } : r));
}

function result(dir: string, records: readonly Observation[]) {
  const info = readRunInfo(dir);
  const analysis = analyze(records, { settings: info.settings, workloads: info.workloads });
  const startedAtMs = records.reduce((min, o) => Math.min(min, o.receivedAtMs), analysis.faultInjectedAtMs);
  return buildResult(analysis, info, startedAtMs);
}

describe('observe/project', () => {
  const dirs = [...runDirs(join(ROOT, 'test/fixtures/runs')), ...runDirs(join(ROOT, 'reports/examples'))];

  it('finds the recorded journals (fixtures and examples)', () => {
    expect(dirs.length).to.be.at.least(15);
  });

  for (const dir of dirs) {
    it(`${dir.slice(ROOT.length)}: re-projected journal gives the same result.json`, () => {
      const records = readJournal(join(dir, 'observations.jsonl'));
      const projected = reproject(records);
      // The projection must actually drop something, or this test would compare a journal with itself.
      const bytes = (rs: readonly Observation[]) => rs.reduce((sum, r) => sum + (r.type === 'object' && (r.kind === 'Pod' || r.kind === 'Node') ? JSON.stringify(r.object).length : 0), 0);
      // A journal recorded by an observer that already projects (the newer fixtures) must come out unchanged.
      if (bytes(projected) === bytes(records)) {
        expect(projected).to.deep.equal(records);
        return;
      }
      if (records.some((r) => r.type === 'object' && r.kind === 'Pod')) expect(bytes(projected)).to.be.below(bytes(records) * 0.8);
      expect(result(dir, projected)).to.deep.equal(result(dir, records));
    });
  }

  it('keeps what the analyzers read from a Pod, a Node (Ready lastHeartbeatTime included) and a Job, and drops the rest', () => {
    const pod = {
      metadata: { name: 'web-1', namespace: 'ns', uid: 'u', resourceVersion: '7', labels: { 'rebootlab.dev/workload': 'web' }, annotations: { big: 'x' }, deletionTimestamp: '2026-01-01T00:00:00Z', managedFields: [{}], ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'rs', controller: true, blockOwnerDeletion: true }] },
      spec: { nodeName: 'w1', tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }], containers: [{ name: 'c', image: 'i' }], volumes: [] },
      status: { phase: 'Running', podIP: '10.0.0.1', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }], containerStatuses: [{ name: 'c', image: 'i', imageID: 'sha', restartCount: 2, ready: false, state: { waiting: { reason: 'CrashLoopBackOff' } } }], hostIP: '172.18.0.2', qosClass: 'BestEffort' },
    };
    expect(projectObject('Pod', pod)).to.deep.equal({
      metadata: { name: 'web-1', namespace: 'ns', uid: 'u', resourceVersion: '7', labels: { 'rebootlab.dev/workload': 'web' }, deletionTimestamp: '2026-01-01T00:00:00Z', ownerReferences: [{ kind: 'ReplicaSet', name: 'web-abc', uid: 'rs', controller: true }] },
      spec: { nodeName: 'w1', tolerations: pod.spec.tolerations },
      status: { phase: 'Running', podIP: '10.0.0.1', conditions: pod.status.conditions, containerStatuses: [{ name: 'c', restartCount: 2, ready: false, state: { waiting: { reason: 'CrashLoopBackOff' } } }] },
    });
    // The Ready condition's lastHeartbeatTime stays: a changed one is a status post, a heartbeat (lib/analyze/heartbeats.ts).
    const node = { metadata: { name: 'w1', uid: 'n', resourceVersion: '8', labels: { 'topology.kubernetes.io/zone': 'a' } }, spec: { taints: [{ key: 'k', effect: 'NoExecute' }], podCIDR: '10.244.1.0/24' }, status: { conditions: [{ type: 'Ready', status: 'Unknown', lastHeartbeatTime: '2026-01-01T00:00:00Z' }], addresses: [{ type: 'InternalIP', address: '172.18.0.3' }], images: [{ names: ['x'] }], nodeInfo: {} } };
    expect(projectObject('Node', node)).to.deep.equal({ metadata: node.metadata, spec: { taints: node.spec.taints }, status: { conditions: node.status.conditions, addresses: node.status.addresses } });
    // The kubelet's version chooses its mechanisms (lib/analyze/mechanisms.ts): kept, and nothing else of nodeInfo.
    const versioned = { ...node, status: { ...node.status, nodeInfo: { kubeletVersion: 'v1.35.4', osImage: 'Debian', machineID: 'm' } } };
    expect(projectObject('Node', versioned).status).to.deep.equal({ conditions: node.status.conditions, addresses: node.status.addresses, nodeInfo: { kubeletVersion: 'v1.35.4' } });
    const job = { metadata: { name: 'j', uid: 'u', labels: { 'rebootlab.dev/workload': 'j' } }, spec: { parallelism: 3, completions: 3, backoffLimit: 2, podReplacementPolicy: 'Failed', podFailurePolicy: { rules: [] }, template: { spec: {} }, selector: {} }, status: { active: 3, failed: 0, conditions: [] } };
    expect(projectObject('Job', job)).to.deep.equal({ metadata: job.metadata, spec: { parallelism: 3, completions: 3, backoffLimit: 2, podReplacementPolicy: 'Failed', podFailurePolicy: { rules: [] } }, status: job.status });
    // An Indexed Job: its per-index fields and failed indexes; its pods' index and failure-count annotations, no other annotation.
    const indexedJob = { ...job, spec: { ...job.spec, completionMode: 'Indexed', backoffLimitPerIndex: 1, maxFailedIndexes: 2 }, status: { ...job.status, failedIndexes: '0,2' } };
    expect(projectObject('Job', indexedJob)).to.deep.include({ spec: { parallelism: 3, completions: 3, backoffLimit: 2, podReplacementPolicy: 'Failed', podFailurePolicy: { rules: [] }, completionMode: 'Indexed', backoffLimitPerIndex: 1, maxFailedIndexes: 2 }, status: indexedJob.status });
    const indexAnnotations = { 'batch.kubernetes.io/job-completion-index': '2', 'batch.kubernetes.io/job-index-failure-count': '1', 'batch.kubernetes.io/job-index-ignored-failure-count': '3' };
    const indexedPod = { ...pod, metadata: { ...pod.metadata, annotations: { ...indexAnnotations, big: 'x' } } };
    expect((projectObject('Pod', indexedPod).metadata as Record<string, unknown>).annotations).to.deep.equal(indexAnnotations);
    // Attachable volumes: a pod's claims (the join to its PersistentVolume) and the volumes a node's kubelet reports in use.
    const claimed = { ...pod, spec: { ...pod.spec, volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }] } };
    expect((projectObject('Pod', claimed).spec as Record<string, unknown>).volumes).to.deep.equal([{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }]);
    const inUse = ['kubernetes.io/csi/attachable.csi.rebootlab.dev^pvc-1'];
    const mounting = { ...node, status: { ...node.status, volumesInUse: inUse, volumesAttached: [{ name: inUse[0], devicePath: '' }] } };
    expect(projectObject('Node', mounting).status).to.deep.equal({ conditions: node.status.conditions, addresses: node.status.addresses, volumesInUse: inUse, volumesAttached: mounting.status.volumesAttached });
    const lease = { metadata: { name: 'w1', managedFields: [{}] }, spec: { renewTime: 't', holderIdentity: 'w1' } };
    expect(projectObject('Lease', lease)).to.deep.equal({ metadata: { name: 'w1' }, spec: lease.spec });
  });
});
