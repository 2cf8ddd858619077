// Reads back what an existing cluster runs: kube-controller-manager and kube-apiserver flags from the mirror pods of
// their static pods in kube-system (kubeadm, kind, k3s-less VMs), each kubelet's configz through the API server's
// node proxy. A managed control plane (GKE, EKS) has no such pods: what cannot be read is listed, and the value
// comes from `cluster.assume` (or the Kubernetes default).
import type { CoreV1Api, V1Node, V1Pod } from '@kubernetes/client-node';
import { apiError, apiErrorCode } from '../kube-client.js';
import { parseConfigz, parseStaticPodFlags, toEffectiveSettings } from '../effective-settings.js';
import type { EffectiveSettings } from '../provider.js';
import type { TimeoutSettings } from '../../spec/settings.js';

/**
 * The annotation the kubelet puts on the mirror pod of a static pod
 * (https://kubernetes.io/docs/tasks/configure-pod-container/static-pod/).
 */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** Effective settings of an existing cluster, plus what could not be read, one phrase each. */
export interface ExistingSettings extends EffectiveSettings {
  /** Sources that could not be read, e.g. `kube-controller-manager flags (no static pod in kube-system)`. */
  unread: string[];
}

/**
 * Reads the settings in effect. `assumed` (the resolved `cluster.assume`, defaults filled in) fills every setting
 * listed in `missing`. Nodes that are not Ready are not asked for configz.
 * @throws InfraError when kube-system pods or Nodes cannot be listed (the API server itself is unreachable).
 */
export async function readExistingSettings(core: CoreV1Api, assumed: TimeoutSettings): Promise<ExistingSettings> {
  const unread: string[] = [];
  let pods: V1Pod[];
  let nodes: V1Node[];
  try {
    [pods, nodes] = await Promise.all([
      core.listNamespacedPod({ namespace: 'kube-system', labelSelector: 'component in (kube-controller-manager,kube-apiserver)' }).then((l) => l.items),
      core.listNode().then((l) => l.items),
    ]);
  } catch (error) {
    throw apiError('read kube-system pods and Nodes', error);
  }
  const flagsOf = (component: string): Record<string, string> => {
    const mirror = pods
      .filter((p) => p.metadata?.labels?.component === component && p.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined)
      .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))[0];
    if (!mirror) {
      unread.push(`${component} flags (no static pod in kube-system)`);
      return {};
    }
    return parseStaticPodFlags(JSON.stringify(mirror));
  };
  const controllerManager = flagsOf('kube-controller-manager');
  const apiServer = flagsOf('kube-apiserver');
  const kubeletConfigs: Record<string, Record<string, unknown>> = {};
  await Promise.all(nodes.map(async (node) => {
    const name = node.metadata?.name ?? '';
    if (!node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) {
      unread.push(`kubelet configz of ${name} (node not Ready)`);
      return;
    }
    try {
      const body = await core.connectGetNodeProxyWithPath({ name, path: 'configz' });
      kubeletConfigs[name] = parseConfigz(typeof body === 'string' ? body : JSON.stringify(body));
    } catch (error) {
      const code = apiErrorCode(error);
      unread.push(`kubelet configz of ${name} (${code !== undefined ? `HTTP ${code}` : ((error as Error).message ?? String(error)).split('\n')[0]})`);
    }
  }));
  const read = toEffectiveSettings(controllerManager, apiServer, kubeletConfigs);
  for (const path of read.missing) {
    const [group, key] = path.split('.') as [keyof TimeoutSettings, string];
    (read.settings[group] as Record<string, number>)[key] = (assumed[group] as Record<string, number>)[key]!;
  }
  return { ...read, unread: unread.sort() };
}
