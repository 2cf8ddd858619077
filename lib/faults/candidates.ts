// Reads the target candidates from the cluster: Nodes with their labels and roles, and workload pods.
import type { Cluster } from '../cluster/provider.js';
import { apiError, coreApiFor } from '../cluster/kube-client.js';
import type { TargetNode, TargetPod } from './targets.js';
import { CONTROL_PLANE_LABEL } from './targets.js';
import { WORKLOAD_NAMESPACE } from '../workloads/pod-template.js';
import { listSelectedPods } from '../workloads/selected.js';
import type { SelectedPods } from '../spec/types.js';
import { loadKubeConfig } from '../cluster/kube-client.js';


/**
 * The cluster's Nodes (labels from the API server; role from the provider, or the control-plane label)
 * and the workload pods with their node: those of namespace `rebootlab`, and the pods already running that
 * `selected` workloads follow (worker-with-most-pods counts them too).
 * @throws InfraError when the API server or Docker cannot be reached.
 */
export async function loadTargetCandidates(cluster: Cluster, selected: readonly SelectedPods[] = []): Promise<{ nodes: TargetNode[]; pods: TargetPod[] }> {
  const namespace = WORKLOAD_NAMESPACE;
  const core = coreApiFor(cluster.kubeconfigPath);
  const providerNodes = new Map((await cluster.nodes()).map((n) => [n.name, n.role] as const));
  try {
    const [nodeList, podList] = await Promise.all([core.listNode(), core.listNamespacedPod({ namespace })]);
    const nodes: TargetNode[] = nodeList.items.map((n) => {
      const labels = n.metadata?.labels ?? {};
      const name = n.metadata?.name ?? '';
      const role = providerNodes.get(name) ?? (CONTROL_PLANE_LABEL in labels ? 'control-plane' : 'worker');
      const created = n.metadata?.creationTimestamp;
      return { name, role, labels, ...(created ? { createdAtMs: new Date(created).getTime() } : {}) };
    });
    const kc = selected.length > 0 ? loadKubeConfig(cluster.kubeconfigPath) : null;
    const others = (await Promise.all(selected.map((s) => listSelectedPods(kc!, s)))).flat();
    const pods: TargetPod[] = [...podList.items, ...others].map((p) => ({
      nodeName: p.spec?.nodeName ?? '',
      terminating: Boolean(p.metadata?.deletionTimestamp),
    }));
    return { nodes, pods };
  } catch (error) {
    throw apiError('list Nodes and Pods for fault targets', error);
  }
}
