// Restarting a control-plane component as a cluster operation: on kind, the component's static pod
// container is stopped inside the control-plane node and the kubelet starts it again.
import { InputError } from '../common/errors.js';
import { docker } from './kind/docker.js';
import { loadKubeConfig } from './kube-client.js';
import type { Cluster, ControlPlaneComponent } from './provider.js';

export type { ControlPlaneComponent } from './provider.js';
import { collectionOf, isPodReady, watchList } from './watch-list.js';

/** What a restart did; instants are the client clock, Unix epoch milliseconds. */
export interface ComponentRestart {
  component: ControlPlaneComponent;
  /** Control-plane node whose static pod was restarted. */
  node: string;
  /** When the stop command returned. */
  stoppedAtMs: number;
  /** When the mirror pod was seen Ready again with a higher restartCount. */
  readyAtMs: number;
  restartCountBefore: number;
  restartCountAfter: number;
}

/** Options of {@link restartControlPlaneComponent}. */
export interface RestartComponentOptions {
  /** How long the component may take to be Ready again, milliseconds; default 120000. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Restarts `component` on the (first) control-plane node the way a crash would: SIGTERM to its process
 * (`docker exec <cp> pkill -TERM -f '^<component> '`); the kubelet restarts the static pod's container
 * (restartPolicy Always). Resolves once its mirror pod `kube-system/<component>-<node>` is Ready with a higher
 * restartCount (list+watch). kube-controller-manager then waits for its leader-election lease to expire
 * (`--leader-election-lease-duration`, default 15 s,
 * https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/) before it acts.
 * @throws InputError on a provider other than kind; InfraError when Docker fails or the pod is not Ready in time.
 */
export async function restartControlPlaneComponent(cluster: Cluster, component: ControlPlaneComponent, options: RestartComponentOptions = {}): Promise<ComponentRestart> {
  if (cluster.provider !== 'kind') {
    throw new InputError(`restarting ${component} is supported on kind clusters only, not ${cluster.provider}`);
  }
  const node = (await cluster.nodes()).find((n) => n.role === 'control-plane')?.name;
  if (!node) throw new InputError(`cluster ${cluster.name} has no control-plane node`);
  const kc = loadKubeConfig(cluster.kubeconfigPath);
  const pods = collectionOf(kc, 'Pod', { namespace: 'kube-system', fieldSelector: `metadata.name=${component}-${node}` });
  const restarts = (pod: { status?: { containerStatuses?: { restartCount: number }[] } } | undefined) =>
    (pod?.status?.containerStatuses ?? []).reduce((sum, c) => sum + c.restartCount, 0);
  const before = await watchList(kc, pods, (all) => all.size === 1, { timeoutMs: 30_000, what: `mirror pod ${component}-${node}`, signal: options.signal });
  const restartCountBefore = restarts([...before.values()][0]);
  await docker(['exec', node, 'pkill', '-TERM', '-f', `^${component} `]);
  const stoppedAtMs = Date.now();
  const after = await watchList(kc, pods, (all) => {
    const pod = [...all.values()][0];
    return pod !== undefined && restarts(pod) > restartCountBefore && isPodReady(pod);
  }, { timeoutMs: options.timeoutMs ?? 120_000, what: `${component} restarted and Ready on ${node}`, signal: options.signal });
  return { component, node, stoppedAtMs, readyAtMs: Date.now(), restartCountBefore, restartCountAfter: restarts([...after.values()][0]) };
}
