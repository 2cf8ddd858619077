// Deploys rebootlab's attachable CSI driver (lib/workloads/csi-driver.ts) and waits until it serves.
import type { KubeConfig, V1CSINode, V1Node, V1Pod } from '@kubernetes/client-node';
import { collectionOf, isPodReady, watchList } from '../cluster/watch-list.js';
import { applyObjects } from './apply.js';
import { ATTACHABLE_DRIVER, CSI_CONTROLLER_APP, CSI_NAMESPACE, CSI_NODE_APP, renderAttachableDriver } from './csi-driver.js';

/** How long the driver may take to register on every node and start its controller, milliseconds. */
const DRIVER_READY_TIMEOUT_MS = 120_000;

/**
 * Applies the driver's objects (renderAttachableDriver) and waits until it serves: every Node's CSINode lists the
 * driver (its node plugin registered with that kubelet, which can then stage and publish) and the controller's pod is
 * Ready (it provisions and attaches). Idempotent: a driver already deployed is re-applied unchanged.
 * @throws InfraError when the API refuses an object, or the driver is not ready within 120 s (naming the nodes left).
 */
export async function deployAttachableDriver(kc: KubeConfig, options: { signal?: AbortSignal } = {}): Promise<void> {
  await applyObjects(kc, renderAttachableDriver());
  const nodes = await watchList(kc, collectionOf(kc, 'Node'), (n) => n.size > 0, { timeoutMs: DRIVER_READY_TIMEOUT_MS, what: 'the node list', signal: options.signal });
  const names = [...nodes.values()].map((n: V1Node) => n.metadata?.name ?? '').filter((n) => n !== '');
  const registered = (csiNodes: ReadonlyMap<string, V1CSINode>) => names.filter((name) => csiNodes.get(name)?.spec?.drivers?.some((d) => d.name === ATTACHABLE_DRIVER));
  await watchList(kc, collectionOf(kc, 'CSINode'), (csiNodes) => registered(csiNodes).length === names.length, {
    timeoutMs: DRIVER_READY_TIMEOUT_MS, what: `CSI driver ${ATTACHABLE_DRIVER} registered on every node`, signal: options.signal,
    describe: (csiNodes) => `not on ${names.filter((n) => !registered(csiNodes).includes(n)).join(', ')} (kubectl -n ${CSI_NAMESPACE} logs ds/${CSI_NODE_APP})`,
  });
  await watchList(kc, collectionOf(kc, 'Pod', { namespace: CSI_NAMESPACE, labelSelector: `app=${CSI_CONTROLLER_APP}` }), (pods) => [...pods.values()].some((p: V1Pod) => isPodReady(p) && !p.metadata?.deletionTimestamp), {
    timeoutMs: DRIVER_READY_TIMEOUT_MS, what: `the ${CSI_CONTROLLER_APP} pod Ready`, signal: options.signal,
  });
}
