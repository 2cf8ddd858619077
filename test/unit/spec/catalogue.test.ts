// The catalogues (lib/spec/faults.ts, steps.ts, providers.ts): injection's choice of primitives on each provider
// and backend, the fault types each can run (what validation promises), and own-key lookups.
import { expect } from 'chai';
import { FAULT_TYPES, FAULT_TYPES_WITH_DURATION, INSTANT_FAULT_TYPES, injectableFaultTypes, isFaultType, primitivesAmong } from '../../../lib/spec/faults.js';
import { providerActions } from '../../../lib/spec/providers.js';
import { STEP_ACTIONS, stepApplying, stepRecord, stepUndoing } from '../../../lib/spec/steps.js';

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

  it('the fault types each provider and backend can run are those validation names', () => {
    expect(injectableFaultTypes('kind')).to.deep.equal(FAULT_TYPES);
    expect(injectableFaultTypes('kwok')).to.deep.equal(['power-off', 'freeze', 'kubelet-stop', 'network-partition', 'node-delete']);
    expect(injectableFaultTypes('existing', 'agent')).to.deep.equal(['reboot', 'kubelet-stop', 'kubelet-restart', 'runtime-stop', 'network-partition']);
    expect(injectableFaultTypes('existing', 'command')).to.deep.equal(['power-off', 'node-delete']);
  });

  it('duration rules: which types need a duration and which are over at once', () => {
    expect(FAULT_TYPES_WITH_DURATION).to.deep.equal(['power-off', 'freeze', 'kubelet-stop', 'runtime-stop', 'network-partition']);
    expect(INSTANT_FAULT_TYPES).to.deep.equal(['reboot', 'kubelet-restart']);
  });

  it('steps: the node action each applies or undoes, by action or by node action', () => {
    expect(STEP_ACTIONS).to.deep.equal(['delete-node-object', 'taint-out-of-service', 'untaint-out-of-service', 'force-delete-pods', 'cordon', 'uncordon', 'restore']);
    expect(stepRecord('uncordon')).to.deep.equal({ undoes: 'cordon' });
    expect(stepApplying('force-delete-pods')).to.equal('force-delete-pods');
    expect(stepApplying('stop')).to.equal(undefined);
    expect(stepUndoing('taint-out-of-service')).to.equal('untaint-out-of-service');
    expect(stepUndoing('force-delete-pods')).to.equal(undefined);
  });

  it('names are own keys: Object.prototype members are neither fault types nor step actions', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(isFaultType(name), name).to.equal(false);
      expect(stepRecord(name), name).to.equal(undefined);
    }
  });
});
