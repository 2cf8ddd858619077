import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import { renderKwokConfig, statusHeartbeatWindowMs } from '../../../../lib/cluster/kwok/stages.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../../lib/spec/settings.js';
import { kwokSpec } from './fixtures.js';

describe('kwok node stages', () => {
  it('reports status every nodeStatusReportFrequency, within one nodeStatusUpdateFrequency tick', () => {
    expect(statusHeartbeatWindowMs(DEFAULT_TIMEOUT_SETTINGS.kubelet)).to.deep.equal({ minMs: 300_000, maxMs: 310_000 });
  });

  it('renders node-initialize and node-heartbeat with the tuned delay', () => {
    const docs = parseAllDocuments(renderKwokConfig(kwokSpec().settings)).map((d) => d.toJS());
    expect(docs.map((d) => d.metadata.name)).to.deep.equal(['node-initialize', 'node-heartbeat']);
    expect(docs.every((d) => d.kind === 'Stage' && d.spec.resourceRef.kind === 'Node')).to.equal(true);
    expect(docs[1].spec.delay).to.deep.equal({ durationMilliseconds: 60_000, jitterDurationMilliseconds: 70_000 });
    expect(docs[0].spec.delay).to.equal(undefined);
  });

  it('keeps lastTransitionTime on a heartbeat and sets it on initialization', () => {
    const [init, heartbeat] = parseAllDocuments(renderKwokConfig(kwokSpec().settings)).map((d) => d.toJS());
    expect(heartbeat.spec.next.statusTemplate).to.contain('lastTransitionTime: {{ .lastTransitionTime | Quote }}');
    expect(init.spec.next.statusTemplate).to.contain('lastTransitionTime: {{ $now | Quote }}');
  });
});
