// Fills a LoopbackApiServer with a cluster's objects (shaped like recorded kind objects) and changes them at a
// set rate: Lease renewals, Node status updates, Pod condition flips, Pod replacements and new Events.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RESOURCES, type LoopbackApiServer, type LoopbackObject } from './apiserver.js';

/** The recorded run whose Node, Lease, Pod and Event objects give the synthetic objects their shape. */
export const TEMPLATE_JOURNAL = fileURLToPath(new URL('../../../test/fixtures/runs/kind-outage-tuned-recorded/observations.jsonl', import.meta.url));

/** Namespace of the synthetic workload's Pods and Events. */
export const LOAD_NAMESPACE = 'bench';

interface Templates {
  node: LoopbackObject;
  lease: LoopbackObject;
  pod: LoopbackObject;
  event: LoopbackObject;
}

/** One Node, node Lease, workload Pod and Event from the recorded journal (full objects, managedFields already dropped). */
export function loadTemplates(path = TEMPLATE_JOURNAL): Templates {
  const records = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; kind?: string; name?: string; namespace?: string; object?: LoopbackObject });
  const find = (test: (r: (typeof records)[number]) => boolean, what: string): LoopbackObject => {
    const found = records.find((r) => r.type === 'object' && test(r));
    if (!found?.object) throw new Error(`${path}: no ${what} to use as a template`);
    return structuredClone(found.object);
  };
  return {
    node: find((r) => r.kind === 'Node' && (r.name ?? '').includes('worker'), 'worker Node'),
    lease: find((r) => r.kind === 'Lease' && r.namespace === 'kube-node-lease', 'node Lease'),
    pod: find(
      (r) => r.kind === 'Pod' && typeof (r.object?.metadata as { labels?: Record<string, string> })?.labels?.['rebootlab.dev/workload'] === 'string' && (r.object?.status as { phase?: string })?.phase === 'Running',
      'Running workload Pod',
    ),
    event: find((r) => r.kind === 'Event', 'Event'),
  };
}

/** Sizes of the synthetic cluster. */
export interface ClusterShape {
  nodes: number;
  pods: number;
  zones: number;
}

type Conditions = { type: string; status: string; lastTransitionTime?: string }[];

/** A synthetic cluster on a loopback server: initial objects, then `step(n)` makes n changes. */
export class SyntheticCluster {
  private readonly t: Templates;
  private podSerial = 0;
  private eventSerial = 0;
  private changes = 0;
  /** Current pods, by slot: name and uid. */
  private readonly pods: { name: string; uid: string; ready: boolean; restarts: number }[] = [];

  constructor(
    private readonly server: LoopbackApiServer,
    private readonly shape: ClusterShape,
    templates = loadTemplates(),
  ) {
    this.t = templates;
  }

  /** Create every Node, its Lease, the controller-manager Lease and every Pod. */
  populate(): void {
    for (let i = 0; i < this.shape.nodes; i++) {
      this.server.put(RESOURCES.Node, this.node(i, true));
      this.server.put(RESOURCES.Lease, this.lease(i, Date.now()));
    }
    this.server.put(RESOURCES.Lease, { ...structuredClone(this.t.lease), metadata: { name: 'kube-controller-manager', namespace: 'kube-system', uid: 'kcm-lease' }, spec: { holderIdentity: 'kcm_1', leaseDurationSeconds: 15, renewTime: new Date().toISOString() } });
    for (let i = 0; i < this.shape.pods; i++) {
      this.pods.push({ name: '', uid: '', ready: true, restarts: 0 });
      this.newPod(i);
    }
  }

  /**
   * Make `count` changes, in a fixed mix per 100: 4 Lease renewals, 2 Node status updates, 4 new Events,
   * 2 Pod replacements (DELETED + ADDED) and 88 Pod status changes (Ready flips, restarts).
   */
  step(count: number): void {
    for (let k = 0; k < count; k++) {
      const slot = this.changes++ % 100;
      const n = this.changes;
      if (slot < 4) this.server.put(RESOURCES.Lease, this.lease(n % this.shape.nodes, Date.now()));
      else if (slot < 6) this.server.put(RESOURCES.Node, this.node(n % this.shape.nodes, n % 7 !== 0));
      else if (slot < 10) this.server.put(RESOURCES.Event, this.event(n));
      else if (slot < 11) {
        const i = n % this.shape.pods;
        this.server.remove(RESOURCES.Pod, LOAD_NAMESPACE, this.pods[i].name);
        k += 1; // the deletion and the creation are two events
        this.newPod(i);
      } else if (slot < 12) continue;
      else {
        const p = this.pods[n % this.shape.pods];
        p.ready = !p.ready;
        if (!p.ready) p.restarts += 1;
        this.putPod(p);
      }
    }
  }

  private nodeName(i: number): string {
    return `kwok-node-${i}`;
  }

  private node(i: number, ready: boolean): LoopbackObject {
    const o = structuredClone(this.t.node);
    const name = this.nodeName(i);
    const md = o.metadata as Record<string, unknown>;
    o.metadata = { ...md, name, uid: `node-uid-${i}`, labels: { ...(md.labels as object), 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${i % this.shape.zones}` } };
    const status = o.status as { conditions: Conditions };
    for (const c of status.conditions) if (c.type === 'Ready') c.status = ready ? 'True' : 'Unknown';
    return o;
  }

  private lease(i: number, atMs: number): LoopbackObject {
    const name = this.nodeName(i);
    return { ...structuredClone(this.t.lease), metadata: { name, namespace: 'kube-node-lease', uid: `lease-uid-${i}` }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: new Date(atMs).toISOString().replace('Z', '000Z') } };
  }

  private newPod(i: number): void {
    const serial = this.podSerial++;
    this.pods[i] = { name: `web-${serial.toString(36)}`, uid: `pod-uid-${serial}`, ready: true, restarts: 0 };
    this.putPod(this.pods[i]);
  }

  /** The template Pod serialized once with placeholders (see podTemplate); filled per change. */
  private podParts: string[] | undefined;

  /**
   * The template Pod as JSON text split at its placeholders: "@@NAME@@", "@@UID@@", "@@RV@@", "@@NODE@@",
   * "@@READY@@" (condition status), "@@CREADY@@" (container ready) and "@@RESTARTS@@" (restartCount). Even
   * indexes are literal JSON, odd ones placeholder names. Filling it is a few string joins, where parsing,
   * changing and serializing a 3.8 KB Pod per change made the feeder cost as much CPU as the observer it feeds.
   */
  private podTemplate(): string[] {
    const o = structuredClone(this.t.pod);
    const md = o.metadata as Record<string, unknown>;
    const full: Record<string, unknown> = { apiVersion: RESOURCES.Pod.apiVersion, kind: 'Pod', ...o, metadata: { ...md, name: '@@NAME@@', namespace: LOAD_NAMESPACE, uid: '@@UID@@', resourceVersion: '@@RV@@' } };
    (full.spec as { nodeName?: string }).nodeName = '@@NODE@@';
    const status = full.status as { conditions: Conditions; containerStatuses?: { restartCount: unknown; ready: unknown }[] };
    for (const c of status.conditions) if (c.type === 'Ready' || c.type === 'ContainersReady') c.status = '@@READY@@';
    for (const c of status.containerStatuses ?? []) {
      c.restartCount = '@@RESTARTS@@';
      c.ready = '@@CREADY@@';
    }
    return JSON.stringify(full).split(/"@@([A-Z]+)@@"/);
  }

  private putPod(p: { name: string; uid: string; ready: boolean; restarts: number }): void {
    const parts = (this.podParts ??= this.podTemplate());
    const values: Record<string, string> = {
      NAME: JSON.stringify(p.name),
      UID: JSON.stringify(p.uid),
      NODE: JSON.stringify(this.nodeName(Number(p.uid.split('-').pop()) % this.shape.nodes)),
      READY: p.ready ? '"True"' : '"False"',
      CREADY: String(p.ready),
      RESTARTS: String(p.restarts),
    };
    this.server.putJson(RESOURCES.Pod, { namespace: LOAD_NAMESPACE, name: p.name, uid: p.uid }, (rv) => {
      let json = '';
      for (let i = 0; i < parts.length; i++) json += i % 2 === 0 ? parts[i] : parts[i] === 'RV' ? `"${rv}"` : values[parts[i]];
      return json;
    });
  }

  private event(n: number): LoopbackObject {
    const o = structuredClone(this.t.event);
    const serial = this.eventSerial++;
    const node = this.nodeName(n % this.shape.nodes);
    const now = new Date().toISOString();
    o.metadata = { ...(o.metadata as object), name: `${node}.${serial.toString(16)}`, namespace: LOAD_NAMESPACE, uid: `event-uid-${serial}` };
    return { ...o, involvedObject: { kind: 'Node', name: node, uid: node }, reason: serial % 2 ? 'NodeNotReady' : 'TaintManagerEviction', firstTimestamp: now, lastTimestamp: now };
  }
}
