// Docker queries and commands on kind node containers, restricted to the containers of one kind cluster.
import { InputError } from '../../common/errors.js';
import { CommandError, run } from '../../common/exec.js';
import type { ClusterNode } from '../provider.js';

/** Label kind puts on every node container: the kind cluster name. */
export const KIND_CLUSTER_LABEL = 'io.x-k8s.kind.cluster';
/** Label kind puts on every node container: `control-plane` or `worker`. */
export const KIND_ROLE_LABEL = 'io.x-k8s.kind.role';
/** The Docker network kind attaches every node to (overridable in kind by KIND_EXPERIMENTAL_DOCKER_NETWORK). */
export const KIND_NETWORK = 'kind';

const DOCKER_HINT = 'Run: rebootlab doctor';

/** Runs `docker args...` and resolves to stdout. @throws CommandError (InfraError) on failure. */
export function docker(args: readonly string[], timeoutMs = 120_000): Promise<string> {
  return run('docker', args, { timeoutMs, hint: DOCKER_HINT });
}

/** Node containers of a kind cluster, from `docker ps -a --filter label=io.x-k8s.kind.cluster=<name>`. @throws InfraError. */
export async function listNodeContainers(cluster: string, network = KIND_NETWORK): Promise<ClusterNode[]> {
  const out = await docker(['ps', '-a', '--filter', `label=${KIND_CLUSTER_LABEL}=${cluster}`, '--format', '{{.Names}}']);
  const names = out.split('\n').map((n) => n.trim()).filter((n) => n.length > 0);
  if (names.length === 0) return [];
  const inspected = await docker(['inspect', '--format', '{{json .}}', ...names]);
  return inspected
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => toClusterNode(JSON.parse(line) as ContainerInspect, network))
    .sort((a, b) => (a.role === b.role ? a.name.localeCompare(b.name) : a.role === 'control-plane' ? -1 : 1));
}

/** The fields of `docker inspect` rebootlab reads. */
export interface ContainerInspect {
  Name: string;
  State: { Status: string };
  Config: { Labels: Record<string, string> | null };
  NetworkSettings: { Networks: Record<string, { IPAddress: string }> | null };
}

/** Maps `docker inspect` output to a ClusterNode; the address is the one on `network`, or null. */
export function toClusterNode(c: ContainerInspect, network = KIND_NETWORK): ClusterNode {
  const ip = c.NetworkSettings.Networks?.[network]?.IPAddress;
  return {
    name: c.Name.replace(/^\//, ''),
    role: c.Config.Labels?.[KIND_ROLE_LABEL] === 'control-plane' ? 'control-plane' : 'worker',
    internalIP: ip ? ip : null,
    state: c.State.Status,
  };
}

/** `docker inspect` of one container. @throws InfraError when it does not exist or Docker fails. */
export async function inspectContainer(name: string): Promise<ContainerInspect> {
  return JSON.parse(await docker(['inspect', '--type', 'container', '--format', '{{json .}}', name])) as ContainerInspect;
}

/** The container's IP on `network`, or null when it has none (stopped or disconnected). @throws InfraError. */
export async function containerIP(name: string, network = KIND_NETWORK): Promise<string | null> {
  return toClusterNode(await inspectContainer(name), network).internalIP;
}

/**
 * Checks that `container` carries kind's cluster label for `cluster`: rebootlab never acts on a
 * container it does not own. @throws InputError when the label is missing or names another cluster.
 */
export async function assertOwned(container: string, cluster: string): Promise<ContainerInspect> {
  let inspected: ContainerInspect;
  try {
    inspected = await inspectContainer(container);
  } catch (error) {
    throw new InputError(`node ${container} is not a container of kind cluster ${cluster}`, undefined, { cause: error });
  }
  const owner = inspected.Config.Labels?.[KIND_CLUSTER_LABEL];
  if (owner !== cluster) {
    throw new InputError(`container ${container} does not carry ${KIND_CLUSTER_LABEL}=${cluster}; rebootlab acts only on its own cluster's nodes`);
  }
  return inspected;
}

/**
 * Writes `text` to `path` inside a node container atomically: a dot-file beside it, then a rename (the
 * kubelet ignores dot-files in the manifest directory, so it never reads a half-written manifest).
 * @throws InfraError when docker exec fails.
 */
export async function writeInNode(container: string, path: string, text: string): Promise<void> {
  const slash = path.lastIndexOf('/');
  const temp = `${path.slice(0, slash)}/.rebootlab-${path.slice(slash + 1)}`;
  await run('docker', ['exec', '-i', container, 'sh', '-c', `cat > '${temp}' && mv '${temp}' '${path}'`], { input: text, timeoutMs: 60_000, hint: 'Run: rebootlab doctor' });
}

/**
 * Whether a failed `docker inspect` said the container does not exist ("Error: No such container: x", or "No such
 * object: x" from older engines), as opposed to failing to ask (daemon unreachable, binary missing, timeout).
 */
export function isNoSuchContainer(error: unknown): boolean {
  return error instanceof CommandError && error.exitCodeOfCommand !== undefined && /No such (container|object)/i.test(error.stderr);
}
