// Consent for faults on a cluster rebootlab does not own: the context must be named on the command line.
import { expect } from 'chai';
import { InputError } from '../../../lib/common/errors.js';
import { checkFaultConsent } from '../../../lib/run/consent.js';
import { loadExperimentText } from '../../../lib/spec/load.js';

const load = (fault: string, provider = 'cluster: {provider: existing, kubeconfig: /kc, context: prod}') =>
  loadExperimentText('e.yaml', ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}', provider, fault].join('\n'));
const message = (fn: () => void): string => {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(InputError);
    expect((error as InputError).exitCode).to.equal(2);
    return (error as Error).message;
  }
  return 'no error';
};

describe('run/consent', () => {
  const fault = 'fault: {type: kubelet-stop, duration: 10s, backend: agent}';
  it('refuses without --allow-faults-on, naming the flag and the context', () => {
    expect(message(() => checkFaultConsent(load(fault), {}))).to.equal('e.yaml: cluster.context prod is a cluster rebootlab does not own; to inject kubelet-stop there, run again with --allow-faults-on prod');
  });
  it('refuses another context', () => {
    expect(message(() => checkFaultConsent(load(fault), { allowFaultsOn: 'staging' }))).to.equal('e.yaml: --allow-faults-on staging does not match cluster.context prod; nothing was touched');
  });
  it('accepts the matching context', () => {
    expect(message(() => checkFaultConsent(load(fault), { allowFaultsOn: 'prod' }))).to.equal('no error');
  });
  it('a control-plane target needs the experiment and --allow-control-plane', () => {
    const cp = load('fault: {type: kubelet-stop, duration: 10s, backend: agent, allowControlPlane: true, target: cp-1}');
    expect(message(() => checkFaultConsent(cp, { allowFaultsOn: 'prod' }))).to.match(/control-plane nodes of prod are targets only with --allow-control-plane as well$/);
    expect(message(() => checkFaultConsent(cp, { allowFaultsOn: 'prod', allowControlPlane: true }))).to.equal('no error');
  });
  it('kind clusters need no consent', () => {
    expect(message(() => checkFaultConsent(load('fault: {type: reboot}', 'cluster: {workers: 1}'), {}))).to.equal('no error');
  });
});
