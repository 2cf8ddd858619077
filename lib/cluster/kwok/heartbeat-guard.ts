// A simulated node whose heartbeats were stopped must post none. kwok v0.7 can still post one, minutes later, from a
// stage job it failed to cancel; a ValidatingAdmissionPolicy in the kwok tier's own API server refuses that post.
import { AdmissionregistrationV1Api, type KubeConfig, type V1ValidatingAdmissionPolicy, type V1ValidatingAdmissionPolicyBinding } from '@kubernetes/client-node';
import { apiError, apiErrorCode } from '../kube-client.js';
import { KWOK_MANAGED_LABEL, KWOK_STOPPED_VALUE } from './flags.js';

/** Name of the ValidatingAdmissionPolicy (and of its binding) that keeps a stopped simulated node silent. */
export const STOPPED_NODE_POLICY = 'rebootlab-stopped-node-posts-no-heartbeat';

/**
 * CEL: a Node status write is allowed unless the Node carries `KWOK_MANAGED_LABEL=off` (the `stop-heartbeat` fault)
 * and the write moves its Ready condition's `lastHeartbeatTime` forward. The node lifecycle controller's writes keep
 * that time (tryUpdateNodeHealth marks Ready Unknown with the last heartbeat unchanged, and a Ready condition it adds
 * to a node that never reported gets the creation time: pkg/controller/nodelifecycle/node_lifecycle_controller.go,
 * v1.35.4 to v1.37.2), so only a heartbeat is refused.
 */
export const STOPPED_NODE_RULE = [
  `!(has(object.metadata.labels) && '${KWOK_MANAGED_LABEL}' in object.metadata.labels && object.metadata.labels['${KWOK_MANAGED_LABEL}'] == '${KWOK_STOPPED_VALUE}')`,
  '!has(object.status) || !has(object.status.conditions) || !has(oldObject.status) || !has(oldObject.status.conditions)',
  "object.status.conditions.all(c, c.type != 'Ready' || !has(c.lastHeartbeatTime) || oldObject.status.conditions.all(o, o.type != 'Ready' || !has(o.lastHeartbeatTime) || c.lastHeartbeatTime <= o.lastHeartbeatTime))",
].join(' || ');

/**
 * The policy and its binding. Why it is needed (kwok v0.7.0, pkg/kwok/controllers/node_controller.go): a node's stage
 * jobs are cancelled through `delayQueueMapping`, which holds one job per node, and `playStageWorker` deletes that
 * entry after popping a job, also when a newer job was put there in between; the newer job stays queued but can no
 * longer be cancelled. So when the node leaves kwok's label selector (the fault), a `node-heartbeat` job queued when
 * it last became Ready still runs `nodeStatusReportFrequency` (+ jitter) later and posts the stale Ready=True status
 * it was made from. Seen in eviction-rate-large-zone repeats (5 Dec 2026, v1.37.2): 3 and 5 stopped nodes Ready
 * again 82 to 97 s into the fault, 5 min after their previous Ready transition; the controller untainted them and
 * re-tainted them one grace period later. A stopped node is a powered-off kubelet: it posts nothing.
 */
export function stoppedNodePolicy(): { policy: V1ValidatingAdmissionPolicy; binding: V1ValidatingAdmissionPolicyBinding } {
  return {
    policy: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: STOPPED_NODE_POLICY },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['nodes/status'] }] },
        validations: [{
          expression: STOPPED_NODE_RULE,
          message: `a node stopped by rebootlab (label ${KWOK_MANAGED_LABEL}=${KWOK_STOPPED_VALUE}) posts no heartbeat`,
        }],
      },
    },
    binding: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: STOPPED_NODE_POLICY },
      spec: { policyName: STOPPED_NODE_POLICY, validationActions: ['Deny'] },
    },
  };
}

/**
 * Creates {@link stoppedNodePolicy} in the cluster of `kc` (kept when it exists). Call it before the Nodes exist.
 * @throws InfraError when the API server refuses either object.
 */
export async function installStoppedNodePolicy(kc: KubeConfig): Promise<void> {
  const api = kc.makeApiClient(AdmissionregistrationV1Api);
  const { policy, binding } = stoppedNodePolicy();
  const createKept = async (what: string, create: () => Promise<unknown>) => {
    try {
      await create();
    } catch (error) {
      if (apiErrorCode(error) !== 409) throw apiError(`create ${what} ${STOPPED_NODE_POLICY}`, error);
    }
  };
  await createKept('ValidatingAdmissionPolicy', () => api.createValidatingAdmissionPolicy({ body: policy }));
  await createKept('ValidatingAdmissionPolicyBinding', () => api.createValidatingAdmissionPolicyBinding({ body: binding }));
}
