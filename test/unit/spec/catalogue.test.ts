// The catalogues (lib/spec/faults.ts, steps.ts, providers.ts): injection's choice of primitives on each provider
// and backend, the fault types each can run (what validation promises), and own-key lookups.
import { expect } from 'chai';
import { clientImpactOf, FAULT_TYPES, FAULT_TYPES_WITH_DURATION, INSTANT_FAULT_TYPES, injectableFaultTypes, isFaultType, primitivesAmong, SCOPED_FAULT_TYPES, takesScope } from '../../../lib/spec/faults.js';
import { providerActions } from '../../../lib/spec/providers.js';
import { actionsTaking, STEP_ACTIONS, stepApplying, stepArgsRule, stepRecord, stepUndoing } from '../../../lib/spec/steps.js';

describe('spec catalogues', () => {
  it('injection takes the first alternative a provider supports: Docker on kind, heartbeat loss on kwok, a backend on existing', () => {
    const on = (provider: 'kind' | 'kwok' | 'existing', backend?: 'agent' | 'command') => providerActions(provider, backend);
    expect(primitivesAmong('power-off', on('kind'))).to.deep.equal(['stop']);
    expect(primitivesAmong('power-off', on('kwok'))).to.deep.equal(['stop-heartbeat']);
    expect(primitivesAmong('node-delete', on('kind'))).to.deep.equal(['stop', 'delete-node-object']);
    expect(primitivesAmong('node-delete', on('kwok'))).to.deep.equal(['stop-heartbeat', 'delete-node-object']);
    expect(primitivesAmong('node-delete', on('existing', 'command'))).to.deep.equal(['stop', 'delete-node-object']);
    expect(primitivesAmong('network-partition', on('existing', 'agent'))).to.deep.equal(['disconnect']);
    expect(primitivesAmong('reboot', on('kwok'))).to.equal(null);
    expect(primitivesAmong('freeze', on('existing', 'command'))).to.equal(null);
    expect(primitivesAmong('power-off', on('existing'))).to.equal(null); // no backend: API actions only
  });

  it('a network-partition of scope control-plane: only the API server traffic where the provider can, heartbeat loss on kwok; clients keep being served', () => {
    const on = (provider: 'kind' | 'kwok' | 'existing', backend?: 'agent' | 'command') => providerActions(provider, backend);
    expect(primitivesAmong('network-partition', on('kind'), 'control-plane')).to.deep.equal(['partition-api-server']);
    expect(primitivesAmong('network-partition', on('existing', 'agent'), 'control-plane')).to.deep.equal(['partition-api-server']);
    expect(primitivesAmong('network-partition', on('kwok'), 'control-plane')).to.deep.equal(['stop-heartbeat']);
    expect(primitivesAmong('network-partition', on('existing', 'command'), 'control-plane')).to.equal(null);
    expect(SCOPED_FAULT_TYPES).to.deep.equal(['network-partition']);
    expect(takesScope('power-off', 'control-plane')).to.equal(false);
    expect(takesScope('power-off', 'node')).to.equal(true);
    expect(clientImpactOf('network-partition', null)).to.equal('paused');
    expect(clientImpactOf('network-partition', 'control-plane')).to.equal('serving');
    expect(clientImpactOf('power-off', 'control-plane')).to.equal('stopped'); // a scope the type has no record of changes nothing
    expect(clientImpactOf('cordon', null)).to.equal('serving'); // a script's node action: no fault record
  });

  it('the fault types each provider and backend can run are those validation names', () => {
    expect(injectableFaultTypes('kind')).to.deep.equal(FAULT_TYPES);
    expect(injectableFaultTypes('kwok')).to.deep.equal(['power-off', 'freeze', 'kubelet-stop', 'network-partition', 'node-delete']);
    expect(injectableFaultTypes('existing', 'agent')).to.deep.equal(['reboot', 'kubelet-stop', 'kubelet-restart', 'runtime-stop', 'network-partition']);
    expect(injectableFaultTypes('existing', 'command')).to.deep.equal(['power-off', 'node-delete']);
  });

  it('duration rules: which types need a duration and which are over at once', () => {
    expect(FAULT_TYPES_WITH_DURATION).to.deep.equal(['power-off', 'freeze', 'kubelet-stop', 'runtime-stop', 'network-partition', 'shutdown']);
    expect(INSTANT_FAULT_TYPES).to.deep.equal(['reboot', 'kubelet-restart']);
  });

  it('steps: the node action each applies or undoes, by action or by node action', () => {
    expect(STEP_ACTIONS).to.deep.equal([
      'delete-node-object', 'taint-out-of-service', 'untaint-out-of-service', 'force-delete-pods', 'cordon', 'uncordon', 'restore',
      'label-node', 'unlabel-node', 'evict-pods', 'drain', 'restart-kubelet',
    ]);
    expect(stepApplying('restart-kubelet')).to.equal('restart-kubelet');
    expect(stepApplying('drain')).to.equal('drain');
    expect(stepUndoing('drain')).to.equal(undefined); // a drain's cordon is undone at the end, not by an uncordon step
    expect(stepRecord('uncordon')).to.deep.equal({ undoes: 'cordon' });
    expect(stepApplying('force-delete-pods')).to.equal('force-delete-pods');
    expect(stepApplying('stop')).to.equal(undefined);
    expect(stepUndoing('taint-out-of-service')).to.equal('untaint-out-of-service');
    expect(stepUndoing('force-delete-pods')).to.equal(undefined);
  });

  it('steps: the fields each takes and their defaults come from its record', () => {
    expect(stepArgsRule('label-node')).to.deep.equal({ label: 'set' });
    expect(stepArgsRule('unlabel-node')).to.deep.equal({ label: 'remove' });
    expect(stepArgsRule('evict-pods')).to.deep.equal({ pods: { defaultRetryMs: 0 } });
    expect(stepArgsRule('drain')).to.deep.equal({ pods: { defaultRetryMs: 60_000 } });
    expect(stepArgsRule('cordon')).to.equal(undefined);
    expect(stepArgsRule('restore')).to.equal(undefined);
    expect(actionsTaking('label')).to.deep.equal(['label-node', 'unlabel-node']);
    expect(actionsTaking('timeout')).to.deep.equal(['evict-pods', 'drain']);
  });

  it('names are own keys: Object.prototype members are neither fault types nor step actions', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(isFaultType(name), name).to.equal(false);
      expect(stepRecord(name), name).to.equal(undefined);
    }
  });
});
