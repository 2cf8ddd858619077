// A running kind cluster: its nodes (Docker containers), the settings in effect, and node actions.
import type { CoreV1Api } from '@kubernetes/client-node';
import { InfraError } from '../../common/errors.js';
import { run } from '../../common/exec.js';
import type { ClusterSpec } from '../../spec/types.js';
import type { ActHooks, Cluster, ClusterNode, EffectiveSettings, NodeAction, NodeActionArgs, Reconfiguration, Undo } from '../provider.js';
import { apiError, apiErrorCode, coreApiFor } from '../kube-client.js';
import { actOnNodeContainer, DOCKER_NODE_ACTIONS } from './actions.js';
import { docker, KIND_NETWORK, listNodeContainers } from './docker.js';
import { parseConfigz, parseStaticPodFlags, toEffectiveSettings } from '../effective-settings.js';
import { reconfigureKindCluster } from './reconfigure.js';
import { imageExists, kindBinary, TOOLCHAIN_HINT } from './tools.js';

const MANIFESTS = '/etc/kubernetes/manifests';

/** A kind cluster rebootlab created or attached to; node names equal container names. */
export class KindCluster implements Cluster {
  readonly provider = 'kind' as const;
  readonly supportedActions: ReadonlySet<NodeAction> = DOCKER_NODE_ACTIONS;
  #core: CoreV1Api | undefined;

  /**
   * @param name kind cluster name (the `io.x-k8s.kind.cluster` label of its containers).
   * @param kubeconfigPath this cluster's own kubeconfig file.
   * @param network Docker network of the nodes, default `kind`.
   */
  constructor(readonly name: string, readonly kubeconfigPath: string, readonly network: string = KIND_NETWORK) {}

  get #api(): CoreV1Api {
    this.#core ??= coreApiFor(this.kubeconfigPath);
    return this.#core;
  }

  /** Node containers, control plane first, from `docker ps` by kind's cluster label. @throws InfraError. */
  nodes(): Promise<ClusterNode[]> {
    return listNodeContainers(this.name, this.network);
  }

  /**
   * Flags from the control plane's kube-controller-manager and kube-apiserver static pod manifests
   * (`docker exec <cp> cat /etc/kubernetes/manifests/...`) and each running node's kubelet `/configz`
   * through the API server's node proxy. A kubelet that cannot be reached is left out (its fields may then be `missing`).
   * @throws InfraError when there is no control-plane container or a manifest cannot be read.
   */
  async effectiveSettings(): Promise<EffectiveSettings> {
    const nodes = await this.nodes();
    const cp = nodes.find((n) => n.role === 'control-plane');
    if (!cp) throw new InfraError(`kind cluster ${this.name} has no control-plane container`, 'Run: rebootlab doctor');
    const readFlags = async (component: string) =>
      parseStaticPodFlags(await docker(['exec', cp.name, 'cat', `${MANIFESTS}/${component}.yaml`]));
    const [controllerManager, apiServer] = await Promise.all([readFlags('kube-controller-manager'), readFlags('kube-apiserver')]);
    const kubeletConfigs: Record<string, Record<string, unknown>> = {};
    await Promise.all(
      nodes.filter((n) => n.state === 'running').map(async (n) => {
        try {
          const body = await this.#api.connectGetNodeProxyWithPath({ name: n.name, path: 'configz' });
          kubeletConfigs[n.name] = parseConfigz(typeof body === 'string' ? body : JSON.stringify(body));
        } catch {
          /* an unreachable kubelet: reported through `missing` when no node answers */
        }
      }),
    );
    return toEffectiveSettings(controllerManager, apiServer, kubeletConfigs);
  }

  /** See {@link Cluster.act}; Docker primitives in ./actions.ts. */
  act(node: string, action: NodeAction, hooks?: ActHooks, args?: NodeActionArgs): Promise<Undo> {
    return actOnNodeContainer(
      {
        cluster: this.name, network: this.network, deleteNodeObject: (n) => this.#deleteNode(n),
        nodeApi: { core: () => this.#api, kubeconfigPath: this.kubeconfigPath },
      },
      node,
      action,
      hooks,
      args,
    );
  }

  /** See {@link Cluster.reconfigure}: static pod manifests and kubelet config files rewritten in place (./reconfigure.ts). */
  /**
   * `kind load docker-image` of each image into every node's containerd (kind skips a node whose runtime has the
   * image's ID already, so a reused cluster costs a check). Takes a few seconds for rebootlab/csi:v1 (43 MB).
   * @throws InfraError naming an image missing from the local Docker engine (hint: npm run toolchain), or kind's error.
   */
  async loadImages(images: readonly string[]): Promise<void> {
    for (const image of images) {
      if (!(await imageExists(image))) throw new InfraError(`image ${image} is not built here, so it cannot be loaded into kind cluster ${this.name}`, TOOLCHAIN_HINT);
      await run(kindBinary(), ['load', 'docker-image', image, '--name', this.name], { timeoutMs: 300_000, hint: TOOLCHAIN_HINT });
    }
  }

  reconfigure(spec: ClusterSpec, previous: ClusterSpec | null): Promise<Reconfiguration> {
    return reconfigureKindCluster(this.name, spec, previous);
  }

  async #deleteNode(node: string): Promise<void> {
    try {
      await this.#api.deleteNode({ name: node });
    } catch (error) {
      if (apiErrorCode(error) === 404) return; // already gone: the goal of the action
      throw apiError(`delete Node ${node}`, error);
    }
  }
}
