// The simulated nodes of a kwok cluster: Node objects named and labelled like kind's nodes, created
// through the API and brought to Ready by kwok's node-initialize stage.
import { CoreV1Api, Watch, type KubeConfig, type V1Node } from '@kubernetes/client-node';
import { InfraError } from '../../common/errors.js';
import type { ClusterSpec } from '../../spec/types.js';
import { ZONE_LABEL } from '../labels.js';
import { clusterNodeNames } from '../node-names.js';
import { apiError, apiErrorCode } from '../kube-client.js';
import { KWOK_MANAGED_LABEL, KWOK_MANAGED_VALUE } from './flags.js';

/** Annotation kwok's documentation puts on fake nodes (https://kwok.sigs.k8s.io/docs/user/kwok-manage-nodes-and-pods/). */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
/** Label of the simulated control-plane node (kubeadm's). */
export const CONTROL_PLANE_LABEL = 'node-role.kubernetes.io/control-plane';

/** Node names as kind gives them: `<cluster>-control-plane`, `<cluster>-worker`, `<cluster>-worker2`, ... */
export const kwokNodeNames = clusterNodeNames;

/** A pod CIDR per node index: 10.(64 + ⌊i/256⌋).(i mod 256).0/24, room for 16k nodes. */
function podCidr(index: number): string {
  return `10.${64 + Math.floor(index / 256)}.${index % 256}.0/24`;
}

/**
 * The Node objects of `spec`: one simulated control-plane node (tainted NoSchedule as kubeadm does, no zone
 * label; it keeps zone sizes and the unhealthy-zone fraction as on kind) and `spec.workers` workers, worker i
 * labelled `topology.kubernetes.io/zone: zones[i % zones.length]` when zones are given. Every node carries the
 * kwok annotation and the label kwok selects on ({@link KWOK_MANAGED_LABEL}).
 */
export function renderNodes(spec: ClusterSpec): V1Node[] {
  const names = kwokNodeNames(spec.name, spec.workers);
  const node = (name: string, index: number, extraLabels: Record<string, string>, controlPlane: boolean): V1Node => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        type: 'kwok',
        [KWOK_MANAGED_LABEL]: KWOK_MANAGED_VALUE,
        ...extraLabels,
      },
      annotations: { [KWOK_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: {
      podCIDR: podCidr(index),
      podCIDRs: [podCidr(index)],
      ...(controlPlane ? { taints: [{ key: CONTROL_PLANE_LABEL, effect: 'NoSchedule' }] } : {}),
    },
    // A simulated kubelet of the control plane's own version: kwok's node stage keeps a nodeInfo it finds
    // (stages.ts), so a reader choosing mechanisms by kubeletVersion sees the cluster's version, as on kind.
    status: {
      nodeInfo: {
        architecture: 'amd64', bootID: '', containerRuntimeVersion: 'kwok', kernelVersion: 'kwok', kubeProxyVersion: spec.kubernetesVersion,
        kubeletVersion: spec.kubernetesVersion, machineID: '', operatingSystem: 'linux', osImage: 'kwok', systemUUID: '',
      },
    },
  });
  const nodes = [node(names.controlPlane, 0, { [CONTROL_PLANE_LABEL]: '' }, true)];
  names.workers.forEach((name, i) => {
    const zone: Record<string, string> = { ...spec.workerLabels, ...(spec.zones.length > 0 ? { [ZONE_LABEL]: spec.zones[i % spec.zones.length]! } : {}) };
    nodes.push(node(name, i + 1, zone, false));
  });
  return nodes;
}

/**
 * Creates `nodes` with up to `parallel` requests in flight (default 50); a node that already exists is kept.
 * @throws InfraError naming the first node that could not be created.
 */
export async function createNodes(kc: KubeConfig, nodes: V1Node[], parallel = 50): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  let next = 0;
  const worker = async () => {
    while (next < nodes.length) {
      const body = nodes[next++]!;
      try {
        await core.createNode({ body });
      } catch (error) {
        if (apiErrorCode(error) !== 409) throw apiError(`create Node ${body.metadata?.name}`, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, nodes.length) }, worker));
}

/** True when the node's Ready condition is True. */
export function isNodeReady(node: V1Node): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/**
 * Watches Nodes until every name in `names` is Ready (list first, then one watch from its resourceVersion).
 * @throws InfraError after `timeoutMs` milliseconds, with how many are Ready.
 */
export async function waitNodesReady(kc: KubeConfig, names: string[], timeoutMs: number): Promise<void> {
  const wanted = new Set(names);
  const ready = new Set<string>();
  const note = (n: V1Node) => {
    const name = n.metadata?.name ?? '';
    if (!wanted.has(name)) return;
    if (isNodeReady(n)) ready.add(name);
    else ready.delete(name);
  };
  const list = await kc.makeApiClient(CoreV1Api).listNode();
  list.items.forEach(note);
  if (ready.size === wanted.size) return;
  await new Promise<void>((resolve, reject) => {
    let controller: AbortController | undefined;
    let finished = false;
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      controller?.abort();
      error ? reject(error) : resolve();
    };
    const timer = setTimeout(
      () => finish(new InfraError(`${ready.size} of ${wanted.size} kwok nodes Ready after ${timeoutMs} ms`, 'See logs/kwok.log in the cluster directory')),
      timeoutMs,
    );
    const start = (resourceVersion?: string) =>
      new Watch(kc)
        .watch('/api/v1/nodes', { resourceVersion }, (_phase: string, obj: V1Node) => {
          note(obj);
          if (ready.size === wanted.size) finish();
        }, () => {
          if (!finished) void start(); // the server closes watches now and then
        })
        .then((c) => {
          controller = c;
          if (finished) c.abort();
        })
        .catch((error: Error) => finish(new InfraError(`watch Nodes failed: ${error.message}`)));
    void start(list.metadata?.resourceVersion);
  });
}
