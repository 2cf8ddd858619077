// Measurement: each node's timeline (heartbeat, NotReady, taints, Ready again, IP, deletion) and the `node...` expectations.
import type { NodeField } from '../../spec/expectation.js';
import type { Measurement, MeasurementTable, MeasuredView } from '../measurement.js';
import { buildNodeTimelines } from '../node-timeline.js';
import type { NodeTimeline } from '../types.js';

const NODE_VALUES: Record<NodeField, (n: NodeTimeline) => string | number | boolean | null> = {
  notReadyAfterSeconds: (n) => n.notReadyAfterSeconds,
  notReadyReceivedAfterSeconds: (n) => n.notReadyReceivedAfterSeconds,
  readyAgainAfterSeconds: (n) => n.readyAgainAfterSeconds,
  noExecuteTaintAfterSeconds: (n) => n.noExecuteTaintAfterSeconds,
  outOfServiceTaintAfterSeconds: (n) => n.outOfServiceTaintAfterSeconds,
  noScheduleTaintAfterSeconds: (n) => n.noScheduleTaintAfterSeconds,
  lastLeaseRenewAfterSeconds: (n) => n.lastLeaseRenewBeforeDetection?.afterSeconds ?? null,
  deletedAfterSeconds: (n) => n.deletedAfterSeconds,
  recreatedAfterSeconds: (n) => n.recreatedAfterSeconds,
  notReadyStatus: (n) => n.notReadyStatus,
  internalIPChanged: (n) => n.internalIPChanged,
  readyAtEnd: (n) => n.readyAtEnd,
};

/** One row per node. */
function nodesTable(v: MeasuredView): MeasurementTable {
  return {
    name: 'nodes',
    title: 'Nodes',
    headers: ['Node', 'Target', 'Last lease renew', 'NotReady (server)', 'NotReady (received)', 'Status', 'NoSchedule taint', 'NoExecute taint (unreachable/not-ready)', 'Out-of-service taint', 'Ready again', 'InternalIP before → after', 'Deleted', 'Recreated'],
    rows: v.nodes.map((n) => [
      n.name, n.faultTarget ? 'yes' : '', { seconds: n.lastLeaseRenewBeforeDetection?.afterSeconds ?? null }, { seconds: n.notReadyAfterSeconds },
      { seconds: n.notReadyReceivedAfterSeconds }, n.notReadyStatus ? `${n.notReadyStatus} (${n.notReadyReason ?? ''})` : '',
      { seconds: n.noScheduleTaintAfterSeconds }, { seconds: n.noExecuteTaintAfterSeconds }, { seconds: n.outOfServiceTaintAfterSeconds }, { seconds: n.readyAgainAfterSeconds },
      `${n.internalIPBefore ?? '—'} → ${n.internalIPAfter ?? '—'}`, { seconds: n.deletedAfterSeconds }, { seconds: n.recreatedAfterSeconds },
    ]),
  };
}

/** Node timelines from Node and Lease records; answers `node.<field>`, `nodes[<name>].<field>`, `nodes[target=…].<field>`. */
export const nodesMeasurement: Measurement = {
  name: 'nodes',
  describes: 'per node: last Lease renewal, NotReady (server and received), taints, Ready again, InternalIP, deletion (Node and Lease records)',
  needs: [],
  provides: ['nodes'],
  measure: ({ ctx, warn }) => {
    const nodes = buildNodeTimelines(ctx);
    for (const t of ctx.targets) if (!nodes.some((n) => n.name === t)) warn(`fault target ${t} never appeared as a Node`);
    return { nodes };
  },
  expectations: {
    scope: 'node',
    values(analysis, s) {
      if (s.scope !== 'node') return 'not a node subject';
      if (s.target !== undefined) {
        const nodes = analysis.nodes.filter((n) => n.faultTarget === s.target && (s.name === null || n.name === s.name));
        return nodes.length > 0 ? nodes.map((n) => ({ label: n.name, value: NODE_VALUES[s.field](n) })) : 'no node matches the selector';
      }
      const name = s.name ?? analysis.targets[0];
      const node = analysis.nodes.find((n) => n.name === name);
      return node ? [{ label: node.name, value: NODE_VALUES[s.field](node) }] : `no node ${name ?? '(no fault target)'} in the journal`;
    },
  },
  tables: (v) => [nodesTable(v)],
};
