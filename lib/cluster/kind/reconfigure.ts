// Changes a running kind cluster's timeout flags in place: rewrites the control-plane static pod manifests
// (the kubelet restarts a static pod whose manifest changed) and each node's kubelet config file, then
// restarts the kubelets. A matrix over control-plane flags then needs no new cluster (≈ 100 s each here).
import { parse, parseDocument, stringify } from 'yaml';
import { InfraError } from '../../common/errors.js';
import { KUBELET_FIELDS, type ClusterSpec } from '../../spec/types.js';
import type { ReconfiguredComponent, Reconfiguration } from '../provider.js';
import { docker, listNodeContainers, writeInNode } from './docker.js';
import { apiServerFlags, controllerManagerFlags, kubeletConfigurationPatch } from './kubeadm-patches.js';
import { ensureLogind, kubeletNeedsLogind } from './logind.js';

const MANIFESTS = '/etc/kubernetes/manifests';
/** Written by kubeadm join/init from the kubelet-config ConfigMap; read by the kubelet at start. */
const KUBELET_CONFIG = '/var/lib/kubelet/config.yaml';

/**
 * A static pod manifest with flags set and removed in its first container's `command`. A flag already
 * present is replaced where it stands; a new one is appended. Resolves to null when nothing changes (the
 * kubelet would not restart the pod, and rewriting it anyway would).
 * @param set flag name without `--` → value.
 * @param remove flag names without `--` to drop (extraArgs of the previous spec no longer wanted).
 * @throws Error when the text is not a Pod manifest with a command.
 */
export function rewriteStaticPodFlags(manifestYaml: string, set: Record<string, string>, remove: readonly string[] = []): string | null {
  const doc = parseDocument(manifestYaml);
  const items = (doc.toJS() as { spec?: { containers?: { command?: unknown[] }[] } } | null)?.spec?.containers?.[0]?.command;
  if (!Array.isArray(items)) throw new Error('not a static Pod manifest: spec.containers[0].command missing');
  const args = items.map(String);
  const pending = new Map(Object.entries(set));
  const next: string[] = [];
  for (const arg of args) {
    const name = /^--([^=]+)/.exec(arg)?.[1];
    if (name !== undefined && remove.includes(name) && !pending.has(name)) continue;
    if (name !== undefined && pending.has(name)) {
      next.push(`--${name}=${pending.get(name)!}`);
      pending.delete(name);
      continue;
    }
    next.push(arg);
  }
  for (const [name, value] of pending) next.push(`--${name}=${value}`);
  if (next.length === args.length && next.every((a, i) => a === args[i])) return null;
  doc.setIn(['spec', 'containers', 0, 'command'], doc.createNode(next));
  return doc.toString();
}

/**
 * A KubeletConfiguration file with `patch` merged in at the top level (the fields rebootlab sets are all
 * top-level), and each of `unset` that `patch` does not set removed, so the kubelet defaults it again (a field a
 * previous experiment set and this one does not). Resolves to null when nothing changes.
 * @throws Error when the text is not a YAML mapping.
 */
export function mergeKubeletConfig(configYaml: string, patch: Record<string, unknown>, unset: readonly string[] = []): string | null {
  const config = parse(configYaml) as Record<string, unknown> | null;
  if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('not a KubeletConfiguration mapping');
  let changed = false;
  for (const key of unset) {
    // kubeadm writes unset durations as 0s, which the kubelet defaults like an absent field: nothing to remove.
    if (key in patch || !(key in config) || config[key] === '0s' || config[key] === 0) continue;
    delete config[key];
    changed = true;
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'apiVersion' || key === 'kind') continue;
    if (JSON.stringify(config[key]) === JSON.stringify(value)) continue;
    config[key] = value;
    changed = true;
  }
  return changed ? stringify(config) : null;
}


/**
 * Puts `spec`'s control-plane flags and kubelet settings into effect on the running kind cluster `name`:
 * rewrites kube-controller-manager, kube-apiserver (and kube-scheduler when it has extraArgs) static pod
 * manifests on the control-plane node, and `/var/lib/kubelet/config.yaml` on every node followed by
 * `systemctl restart kubelet` (with shutdownGracePeriod > 0, dbus and systemd-logind started first: ./logind.ts).
 * Only files whose content changes are written. It does not wait for the
 * components to come back: the caller watches for that (lib/run), since the API server may be restarting.
 * @param previous the spec the cluster was last configured with, so extraArgs it had and `spec` lacks are
 *   removed; null when unknown (an attached cluster): then flags are only set, never removed.
 * @returns the components restarted and the client clock when the last file was written (Unix epoch, milliseconds).
 * @throws InfraError when a node is not running or a file cannot be read or written.
 */
export async function reconfigureKindCluster(name: string, spec: ClusterSpec, previous: ClusterSpec | null): Promise<Reconfiguration> {
  const nodes = await listNodeContainers(name);
  const down = nodes.filter((n) => n.state !== 'running');
  if (down.length > 0) {
    throw new InfraError(`cannot reconfigure kind cluster ${name}: node ${down.map((n) => `${n.name} is ${n.state}`).join(', ')}`, 'Run: rebootlab doctor --restore');
  }
  const cp = nodes.find((n) => n.role === 'control-plane');
  if (!cp) throw new InfraError(`kind cluster ${name} has no control-plane container`, 'Run: rebootlab doctor');
  const removed = (component: keyof ClusterSpec['extraArgs']) =>
    Object.keys(previous?.extraArgs[component] ?? {}).filter((flag) => !(flag in spec.extraArgs[component]));
  const manifests: [ReconfiguredComponent, Record<string, string>, string[]][] = [
    ['kube-apiserver', apiServerFlags(spec), removed('apiServer')],
    ['kube-controller-manager', controllerManagerFlags(spec), removed('controllerManager')],
    ['kube-scheduler', spec.extraArgs.scheduler, removed('scheduler')],
  ];
  const restarted: ReconfiguredComponent[] = [];
  for (const [component, set, remove] of manifests) {
    const path = `${MANIFESTS}/${component}.yaml`;
    const current = await docker(['exec', cp.name, 'cat', path]);
    let next: string | null;
    try {
      next = rewriteStaticPodFlags(current, set, remove);
    } catch (error) {
      throw new InfraError(`${path} in node ${cp.name}: ${(error as Error).message}`, 'Run: rebootlab doctor', { cause: error });
    }
    if (next === null) continue;
    await writeInNode(cp.name, path, next);
    restarted.push(component);
  }
  const patch = kubeletConfigurationPatch(spec);
  await Promise.all(nodes.map(async (node) => {
    const current = await docker(['exec', node.name, 'cat', KUBELET_CONFIG]);
    let next: string | null;
    try {
      next = mergeKubeletConfig(current, patch, KUBELET_FIELDS);
    } catch (error) {
      throw new InfraError(`${KUBELET_CONFIG} in node ${node.name}: ${(error as Error).message}`, 'Run: rebootlab doctor', { cause: error });
    }
    // Graceful node shutdown: logind must run before the kubelet starts (./logind.ts); a kubelet that started
    // without it is restarted even when its config is unchanged.
    const logindAdded = kubeletNeedsLogind(spec) ? await ensureLogind(node.name) : false;
    if (next === null && !logindAdded) return;
    if (next !== null) await writeInNode(node.name, KUBELET_CONFIG, next);
    await docker(['exec', node.name, 'systemctl', 'restart', 'kubelet']);
    if (!restarted.includes('kubelet')) restarted.push('kubelet');
  }));
  return { restarted, writtenAtMs: Date.now() };
}
