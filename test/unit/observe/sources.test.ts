// The collections the observer watches: VolumeAttachments and PersistentVolumes only for runs with attachable volumes.
import { expect } from 'chai';
import { KubeConfig } from '@kubernetes/client-node';
import { makeSources } from '../../../lib/observe/sources.js';
import { recordProblem } from '../../../lib/observe/journal.js';

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

describe('observe/sources', () => {
  it('watches VolumeAttachments and PersistentVolumes only when asked (attachable volumes)', () => {
    const paths = (volumes: boolean) => makeSources(kubeConfig(), ['rebootlab'], { volumes }).map((s) => s.path);
    expect(paths(false).filter((p) => p.includes('volume'))).to.deep.equal([]);
    expect(paths(true)).to.include.members(['/apis/storage.k8s.io/v1/volumeattachments', '/api/v1/persistentvolumes']);
    expect(makeSources(kubeConfig(), ['rebootlab'])).to.have.length(paths(false).length);
  });

  it('the journal reader accepts records of the new kinds', () => {
    const record = { seq: 1, receivedAtMs: 1, type: 'object', verb: 'ADDED', name: 'csi-1', uid: 'u', resourceVersion: '1', object: {} };
    expect(recordProblem({ ...record, kind: 'VolumeAttachment' })).to.equal(null);
    expect(recordProblem({ ...record, kind: 'PersistentVolume' })).to.equal(null);
    expect(recordProblem({ ...record, kind: 'Secret' })).to.equal('kind is not a watched kind');
  });
});
