// `rebootlab cluster create` settings: defaults, --set, --name, or an experiment's cluster section.
import { expect } from 'chai';
import { InputError } from '../../../lib/common/errors.js';
import { loadClusterSpec } from '../../../lib/cli/cluster-spec.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';

describe('cli/cluster-spec', () => {
  it('uses the defaults without a file', async () => {
    const cluster = await loadClusterSpec(null, [], undefined);
    expect(cluster).to.deep.include({ provider: 'kind', name: 'rebootlab', workers: 2, kubernetesVersion: 'v1.37.2' });
    expect(cluster.settings).to.deep.equal(DEFAULT_TIMEOUT_SETTINGS);
  });

  it('applies --set and --name', async () => {
    const cluster = await loadClusterSpec(null, ['cluster.workers=3', 'cluster.controllerManager.nodeMonitorGracePeriod=20s'], 'lab');
    expect(cluster.name).to.equal('lab');
    expect(cluster.workers).to.equal(3);
    expect(cluster.settings.controllerManager.nodeMonitorGracePeriodMs).to.equal(20_000);
  });

  it('takes the cluster section of an experiment', async () => {
    const cluster = await loadClusterSpec('experiments/outage-tuned.yaml', [], undefined);
    expect(cluster.settings.kubelet.nodeLeaseDurationSeconds).to.equal(20);
    expect(cluster.settings.apiServer.defaultUnreachableTolerationSeconds).to.equal(30);
  });

  it('rejects a name that is not a DNS label, naming --name', async () => {
    const error = await loadClusterSpec(null, [], 'Bad_Name').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(InputError);
    expect((error as InputError).message).to.equal(
      '(defaults) (--set cluster.name=Bad_Name): cluster.name: "Bad_Name" is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)',
    );
  });
});
