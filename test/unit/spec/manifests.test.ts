// The user's manifests: each controller becomes a workload of its name; the objects go into namespace rebootlab
// with the workload label on the pods; cluster-scoped objects are refused with one line.
import { expect } from 'chai';
import { execaSync } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../../lib/common/errors.js';
import { loadExperimentText } from '../../../lib/spec/load.js';
import { renderWorkload } from '../../../lib/workloads/render.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const file = join(REPO_ROOT, 'test/fixtures/manifests/e.yaml');
const load = (manifest: string) => loadExperimentText(file, ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}',
  `workloads: [{name: shop, manifest: ${manifest}}]`, 'fault: {type: reboot}', 'expect: ["pods[workload=web].outcome == restarted-in-place"]'].join('\n'));

describe('spec/manifests: workloads from the user\'s own YAML', () => {
  it('a Deployment + Service file: one workload named after the Deployment, with both objects', () => {
    const [web, ...rest] = load('shop.yaml').experiment.workloads;
    expect(rest).to.deep.equal([]);
    expect(web).to.include({ name: 'web', kind: 'Deployment', replicas: 2 });
    expect(web!.manifest!.objects.map((o) => o.kind)).to.deep.equal(['Deployment', 'Service']);
    const rendered = renderWorkload(web!, { targetNodes: [] });
    for (const object of rendered) {
      expect(object.metadata.namespace).to.equal('rebootlab');
      expect(object.metadata.labels['app.kubernetes.io/managed-by']).to.equal('rebootlab');
    }
    const template = (rendered[0] as unknown as { spec: { template: { metadata: { labels: Record<string, string> } }; selector: unknown } }).spec;
    expect(template.template.metadata.labels).to.deep.equal({ app: 'shop', 'rebootlab.dev/workload': 'web' });
    expect(template.selector).to.deep.equal({ matchLabels: { app: 'shop' } });
  });

  it('a kustomize directory through kubectl kustomize', function () {
    if (execaSync('sh', ['-c', 'command -v kubectl'], { reject: false }).exitCode !== 0) this.skip();
    const names = load('kustomize').experiment.workloads.map((w) => `${w.kind} ${w.name}`);
    expect(names).to.deep.equal(['Deployment k-web']);
  });

  it('refuses a controller whose name is no DNS-1123 label (it becomes the workload name and a label value) before any cluster exists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-manifest-name-'));
    try {
      for (const name of ['../A|b', 'Web', 'web.v2', 'x'.repeat(64)]) {
        writeFileSync(join(dir, 'm.yaml'), `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: "${name}"}\nspec: {replicas: 1}\n`);
        const e = join(dir, 'e.yaml');
        expect(() => loadExperimentText(e, `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\nworkloads: [{name: shop, manifest: m.yaml}]\nfault: {type: reboot}\n`), name)
          .to.throw(InputError, `${e}: workloads[0].manifest: ${join(dir, 'm.yaml')}: Deployment ${JSON.stringify(name)}: metadata.name must be a DNS-1123 label`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a cluster-scoped object and a missing file with one line naming the field', () => {
    expect(() => load('cluster-scoped.yaml')).to.throw(InputError, /^\S+e\.yaml: workloads\[0\]\.manifest: \S+cluster-scoped\.yaml: Namespace shop is not one of the namespaced kinds rebootlab applies \(.*\); everything goes into namespace rebootlab and is removed at the end$/);
    expect(() => load('nope.yaml')).to.throw(InputError, /workloads\[0\]\.manifest: cannot read \S+nope\.yaml: no such file$/);
  });
});
