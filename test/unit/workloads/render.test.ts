import { expect } from 'chai';
import { renderWorkload } from '../../../lib/workloads/render.js';
import type { RenderedObject } from '../../../lib/workloads/types.js';
import { ATTACHABLE_DRIVER, renderAttachableDriver, usesAttachableVolumes } from '../../../lib/workloads/csi-driver.js';
import { isWorkloadReady } from '../../../lib/workloads/readiness.js';
import type { WorkloadSpec } from '../../../lib/spec/types.js';

function workload(overrides: Partial<WorkloadSpec> = {}): WorkloadSpec {
  return {
    name: 'web', kind: 'Deployment', replicas: 3, placement: 'any', image: 'rebootlab/workload:v1',
    tolerations: null, requiredNodeLabels: {}, volume: null, dataProbe: false, podDisruptionBudget: null,
    service: null, readinessProbe: null, livenessProbe: null, failReadiness: null, failLiveness: null, terminationGracePeriodSeconds: 30, manifest: null, job: null, selected: null, ...overrides,
  };
}
const TARGET = { targetNodes: ['kind-worker2'] };
const find = (objects: RenderedObject[], kind: string) => objects.find((o) => o.kind === kind) as any;
const podSpec = (objects: RenderedObject[], kind: string) => (kind === 'Pod' ? find(objects, 'Pod').spec : find(objects, kind).spec.template.spec);

describe('renderWorkload', () => {
  it('renders a Deployment with labels, namespace, the workload server and readiness probe', () => {
    const objects = renderWorkload(workload(), TARGET);
    const d = find(objects, 'Deployment');
    expect(d.metadata).to.deep.equal({ name: 'web', namespace: 'rebootlab', labels: { 'rebootlab.dev/workload': 'web', 'app.kubernetes.io/managed-by': 'rebootlab' } });
    expect(d.spec.replicas).to.equal(3);
    expect(d.spec.selector).to.deep.equal({ matchLabels: { 'rebootlab.dev/workload': 'web' } });
    const spec = d.spec.template.spec;
    expect(spec.terminationGracePeriodSeconds).to.equal(30);
    expect(spec.containers[0]).to.deep.include({ image: 'rebootlab/workload:v1', imagePullPolicy: 'IfNotPresent', command: ['/rebootlab-workload'] });
    expect(spec.containers[0].readinessProbe).to.deep.equal({ httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 1, failureThreshold: 1 });
    expect(spec.containers[0].livenessProbe).to.equal(undefined);
    expect(objects.filter((o) => o.kind === 'Service')).to.deep.equal([]);
    expect(spec.affinity).to.equal(undefined);
    expect(spec.tolerations).to.equal(undefined);
  });

  it('target placement prefers the target node (weight 100) so replacements can go elsewhere', () => {
    const spec = podSpec(renderWorkload(workload({ placement: 'target' }), TARGET), 'Deployment');
    expect(spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution).to.equal(undefined);
    expect(spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).to.deep.equal([
      { weight: 100, preference: { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['kind-worker2'] }] } },
    ]);
  });

  it('target placement of a standalone Pod requires the node', () => {
    const spec = podSpec(renderWorkload(workload({ kind: 'Pod', replicas: 1, placement: 'target' }), TARGET), 'Pod');
    expect(spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values).to.deep.equal(['kind-worker2']);
    expect(spec.nodeName).to.equal(undefined);
  });

  it('spread placement adds a hostname topology spread constraint', () => {
    const spec = podSpec(renderWorkload(workload({ placement: 'spread' }), TARGET), 'Deployment');
    expect(spec.topologySpreadConstraints).to.have.length(1);
    expect(spec.topologySpreadConstraints[0]).to.deep.include({ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule' });
  });

  it('tolerations replace the defaults when given', () => {
    const tolerations = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' as const, effect: 'NoExecute' as const, tolerationSeconds: 30 }];
    expect(podSpec(renderWorkload(workload({ tolerations }), TARGET), 'Deployment').tolerations).to.deep.equal(tolerations);
  });

  it('StatefulSet with a pvc volume gets a volumeClaimTemplate on storage class standard and a headless Service', () => {
    const objects = renderWorkload(workload({ kind: 'StatefulSet', replicas: 2, volume: { type: 'pvc', size: '64Mi' } }), TARGET);
    expect(objects.map((o) => o.kind)).to.deep.equal(['Service', 'StatefulSet']);
    const sts = find(objects, 'StatefulSet');
    expect(sts.spec.volumeClaimTemplates[0].metadata.name).to.equal('data');
    expect(sts.spec.volumeClaimTemplates[0].spec).to.deep.equal({ accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '64Mi' } } });
    expect(sts.spec.template.spec.volumes).to.equal(undefined);
    expect(sts.spec.template.spec.containers[0].volumeMounts).to.deep.equal([{ name: 'data', mountPath: '/data' }]);
  });

  it('renders each volume type', () => {
    const vol = (type: 'emptyDir' | 'emptyDir-memory' | 'hostPath' | 'pvc') => podSpec(renderWorkload(workload({ volume: { type, size: '64Mi' } }), TARGET), 'Deployment').volumes[0];
    expect(vol('emptyDir')).to.deep.equal({ name: 'data', emptyDir: { sizeLimit: '64Mi' } });
    expect(vol('emptyDir-memory')).to.deep.equal({ name: 'data', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } });
    expect(vol('hostPath')).to.deep.equal({ name: 'data', hostPath: { path: '/var/local/rebootlab/web', type: 'DirectoryOrCreate' } });
    expect(vol('pvc')).to.deep.equal({ name: 'data', persistentVolumeClaim: { claimName: 'web-data' } });
  });

  it('local-pv binds one volume per pod to the target node', () => {
    const objects = renderWorkload(workload({ kind: 'StatefulSet', replicas: 1, volume: { type: 'local-pv', size: '64Mi' } }), TARGET);
    expect(objects.map((o) => o.kind)).to.deep.equal(['StorageClass', 'PersistentVolume', 'Service', 'StatefulSet']);
    const pv = find(objects, 'PersistentVolume');
    expect(pv.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values).to.deep.equal(['kind-worker2']);
    expect(find(objects, 'StatefulSet').spec.volumeClaimTemplates[0].spec.storageClassName).to.equal('rebootlab-local');
  });

  it('attachable: a claim of rebootlab\'s CSI driver (a volumeClaimTemplate, or <name>-data for a Deployment), no node-bound volume', () => {
    const objects = renderWorkload(workload({ kind: 'StatefulSet', replicas: 1, volume: { type: 'attachable', size: '64Mi' } }), TARGET);
    expect(objects.map((o) => o.kind)).to.deep.equal(['Service', 'StatefulSet']);
    expect(find(objects, 'StatefulSet').spec.volumeClaimTemplates[0].spec).to.deep.equal({ accessModes: ['ReadWriteOnce'], storageClassName: 'rebootlab-attachable', resources: { requests: { storage: '64Mi' } } });
    const deployment = renderWorkload(workload({ volume: { type: 'attachable', size: '64Mi' } }), TARGET);
    expect(find(deployment, 'PersistentVolumeClaim').spec.storageClassName).to.equal('rebootlab-attachable');
    expect(podSpec(deployment, 'Deployment').volumes[0]).to.deep.equal({ name: 'data', persistentVolumeClaim: { claimName: 'web-data' } });
    expect(usesAttachableVolumes([workload(), workload({ volume: { type: 'attachable', size: '1Gi' } })])).to.equal(true);
    expect(usesAttachableVolumes([workload({ volume: { type: 'pvc', size: '1Gi' } })])).to.equal(false);
  });

  it('the attachable driver: CSIDriver with attachRequired, its StorageClass, a node plugin on every node and the controller on the control plane', () => {
    const objects = renderAttachableDriver();
    expect(objects.map((o) => o.kind)).to.deep.equal(['Namespace', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'CSIDriver', 'StorageClass', 'DaemonSet', 'Deployment']);
    expect(find(objects, 'CSIDriver').metadata.name).to.equal(ATTACHABLE_DRIVER);
    expect(find(objects, 'CSIDriver').spec.attachRequired).to.equal(true);
    expect(find(objects, 'StorageClass')).to.deep.include({ provisioner: ATTACHABLE_DRIVER, volumeBindingMode: 'WaitForFirstConsumer' });
    const node = find(objects, 'DaemonSet').spec.template.spec;
    expect(node.tolerations).to.deep.equal([{ operator: 'Exists' }]);
    expect(node.containers[0].securityContext.privileged).to.equal(true);
    expect(node.containers[0].volumeMounts[0]).to.deep.equal({ name: 'kubelet', mountPath: '/var/lib/kubelet', mountPropagation: 'Bidirectional' });
    const controller = find(objects, 'Deployment').spec.template.spec;
    expect(controller.nodeSelector).to.deep.equal({ 'node-role.kubernetes.io/control-plane': '' });
    const rules = find(objects, 'ClusterRole').rules as { resources: string[]; verbs: string[] }[];
    expect(rules.find((r) => r.resources.includes('volumeattachments/status'))!.verbs).to.include('update');
  });

  it('local-pv without a target node is bad input', () => {
    expect(() => renderWorkload(workload({ volume: { type: 'local-pv', size: '1Gi' } }), { targetNodes: [] })).to.throw('workloads.web.volume: local-pv needs a target node');
  });

  it('renders DaemonSet, Job and Pod', () => {
    expect(find(renderWorkload(workload({ kind: 'DaemonSet', replicas: null, placement: 'target' }), TARGET), 'DaemonSet').spec.template.spec.affinity).to.equal(undefined);
    const job = find(renderWorkload(workload({ kind: 'Job', replicas: 2 }), TARGET), 'Job');
    expect(job.spec).to.deep.include({ parallelism: 2, completions: 2 });
    expect(job.spec.template.spec.restartPolicy).to.equal('OnFailure');
    const pod = find(renderWorkload(workload({ kind: 'Pod', replicas: 1 }), TARGET), 'Pod');
    expect(pod.metadata.labels['rebootlab.dev/workload']).to.equal('web');
  });

  it('renders a Job\'s own fields: completions, backoffLimit, podReplacementPolicy, podFailurePolicy (with restartPolicy Never, the only one the API allows with it)', () => {
    const rules = [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }];
    const job = find(renderWorkload(workload({ kind: 'Job', replicas: 2, job: { completions: 4, backoffLimit: 1, podReplacementPolicy: 'Failed', podFailurePolicy: { rules } } }), TARGET), 'Job');
    expect(job.spec).to.deep.include({ parallelism: 2, completions: 4, backoffLimit: 1, podReplacementPolicy: 'Failed', podFailurePolicy: { rules } });
    expect(job.spec.template.spec.restartPolicy).to.equal('Never');
    const plain = find(renderWorkload(workload({ kind: 'Job', replicas: 1, job: { completions: 1, backoffLimit: 6, podReplacementPolicy: null, podFailurePolicy: null } }), TARGET), 'Job');
    expect(plain.spec).to.not.have.property('podReplacementPolicy');
    expect(plain.spec).to.not.have.property('podFailurePolicy');
  });

  it('renders an Indexed Job\'s completionMode, backoffLimitPerIndex and maxFailedIndexes; a NonIndexed Job gets none of them', () => {
    const job = find(renderWorkload(workload({ kind: 'Job', replicas: 3, job: { completions: 3, backoffLimit: 2147483647, podReplacementPolicy: null, podFailurePolicy: null, completionMode: 'Indexed', backoffLimitPerIndex: 1, maxFailedIndexes: 2 } }), TARGET), 'Job');
    expect(job.spec).to.deep.include({ parallelism: 3, completions: 3, backoffLimit: 2147483647, completionMode: 'Indexed', backoffLimitPerIndex: 1, maxFailedIndexes: 2 });
    const zero = find(renderWorkload(workload({ kind: 'Job', replicas: 3, job: { completions: 3, backoffLimit: 6, podReplacementPolicy: null, podFailurePolicy: null, completionMode: 'Indexed', backoffLimitPerIndex: 0, maxFailedIndexes: null } }), TARGET), 'Job');
    expect(zero.spec).to.deep.include({ completionMode: 'Indexed', backoffLimitPerIndex: 0 });
    expect(zero.spec).to.not.have.property('maxFailedIndexes');
    const plain = find(renderWorkload(workload({ kind: 'Job', replicas: 3, job: { completions: 3, backoffLimit: 6, podReplacementPolicy: null, podFailurePolicy: null, completionMode: 'NonIndexed', backoffLimitPerIndex: null, maxFailedIndexes: null } }), TARGET), 'Job');
    for (const key of ['completionMode', 'backoffLimitPerIndex', 'maxFailedIndexes']) expect(plain.spec).to.not.have.property(key);
  });

  it('adds a PodDisruptionBudget', () => {
    const pdb = find(renderWorkload(workload({ podDisruptionBudget: { minAvailable: 2, maxUnavailable: null } }), TARGET), 'PodDisruptionBudget');
    expect(pdb.apiVersion).to.equal('policy/v1');
    expect(pdb.spec).to.deep.equal({ selector: { matchLabels: { 'rebootlab.dev/workload': 'web' } }, minAvailable: 2 });
  });
});

describe('isWorkloadReady', () => {
  it('needs every Deployment replica updated and ready in the observed generation', () => {
    const d = (status: Record<string, unknown>) => ({ metadata: { generation: 2 }, spec: { replicas: 3 }, status });
    expect(isWorkloadReady('Deployment', d({ observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3 }))).to.equal(true);
    expect(isWorkloadReady('Deployment', d({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3 }))).to.equal(false);
    expect(isWorkloadReady('Deployment', d({ observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 2 }))).to.equal(false);
  });

  it('needs a DaemonSet with at least one scheduled pod, all ready', () => {
    expect(isWorkloadReady('DaemonSet', { status: { desiredNumberScheduled: 0, numberReady: 0 } })).to.equal(false);
    expect(isWorkloadReady('DaemonSet', { status: { desiredNumberScheduled: 3, numberReady: 3 } })).to.equal(true);
  });

  it('reads a Pod Ready condition and a Job ready count', () => {
    expect(isWorkloadReady('Pod', { status: { conditions: [{ type: 'Ready', status: 'True' }] } })).to.equal(true);
    expect(isWorkloadReady('Job', { spec: { parallelism: 2 }, status: { ready: 1 } })).to.equal(false);
  });

  it('renders a NodePort Service named after the workload, to the server\'s named port http (probers reach it through a node)', () => {
    const objects = renderWorkload(workload({ service: { port: 80 } }), TARGET);
    expect(objects.map((o) => o.kind)).to.deep.equal(['Service', 'Deployment']);
    const service = find(objects, 'Service');
    expect(service.metadata).to.deep.equal({ name: 'web', namespace: 'rebootlab', labels: { 'rebootlab.dev/workload': 'web', 'app.kubernetes.io/managed-by': 'rebootlab' } });
    expect(service.spec).to.deep.equal({ type: 'NodePort', selector: { 'rebootlab.dev/workload': 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] });
    expect(podSpec(objects, 'Deployment').containers[0].ports).to.deep.equal([{ name: 'http', containerPort: 8080 }]);
  });

  it('a StatefulSet keeps its headless Service without service:, and uses the ClusterIP one as serviceName with it', () => {
    const headless = find(renderWorkload(workload({ kind: 'StatefulSet' }), TARGET), 'Service');
    expect(headless.spec).to.deep.include({ clusterIP: 'None', ports: [{ name: 'http', port: 8080 }] });
    const objects = renderWorkload(workload({ kind: 'StatefulSet', service: { port: 8081 } }), TARGET);
    expect(objects.filter((o) => o.kind === 'Service')).to.have.length(1);
    expect(find(objects, 'Service').spec).to.deep.include({ type: 'NodePort' });
    expect(find(objects, 'StatefulSet').spec.serviceName).to.equal('web');
  });

  it('renders the probes as HTTP GET /healthz (readiness) and /livez (liveness) on 8080 with every timing field, and the grace period', () => {
    const timing = { periodSeconds: 2, timeoutSeconds: 1, failureThreshold: 1, successThreshold: 2, initialDelaySeconds: 0 };
    const liveTiming = { periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3, successThreshold: 1, initialDelaySeconds: 5 };
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'Pod'] as const) {
      const spec = podSpec(renderWorkload(workload({ kind, readinessProbe: { handler: 'httpGet', ...timing }, livenessProbe: { handler: 'httpGet', ...liveTiming }, terminationGracePeriodSeconds: 7 }), TARGET), kind);
      expect(spec.terminationGracePeriodSeconds, kind).to.equal(7);
      expect(spec.containers[0].readinessProbe, kind).to.deep.equal({ httpGet: { path: '/healthz', port: 8080 }, ...timing });
      expect(spec.containers[0].livenessProbe, kind).to.deep.equal({ httpGet: { path: '/livez', port: 8080 }, ...liveTiming });
      expect(spec.containers[0].env, kind).to.equal(undefined);
    }
  });

  it('renders exec probes as the workload client against its own endpoints, and failure schedules as environment variables', () => {
    const timing = { periodSeconds: 2, timeoutSeconds: 1, failureThreshold: 1, successThreshold: 1, initialDelaySeconds: 0 };
    const spec = podSpec(renderWorkload(workload({
      readinessProbe: { handler: 'exec', ...timing }, livenessProbe: { handler: 'exec', ...timing },
      failReadiness: { afterMs: 30_000, forMs: null, everyMs: null }, failLiveness: { afterMs: 0, forMs: 5_000, everyMs: 60_000 },
    }), TARGET), 'Deployment');
    expect(spec.containers[0].readinessProbe).to.deep.equal({ exec: { command: ['/rebootlab-workload', 'get', 'http://127.0.0.1:8080/healthz'] }, ...timing });
    expect(spec.containers[0].livenessProbe).to.deep.equal({ exec: { command: ['/rebootlab-workload', 'get', 'http://127.0.0.1:8080/livez'] }, ...timing });
    expect(spec.containers[0].env).to.deep.equal([
      { name: 'REBOOTLAB_FAIL_READINESS', value: 'after=30000ms' },
      { name: 'REBOOTLAB_FAIL_LIVENESS', value: 'after=0ms,for=5000ms,every=60000ms' },
    ]);
  });
});
