// Labels rebootlab reads on nodes it does not own.

/** The kubeadm role label of control-plane nodes (also set by kind, k3s and most installers). */
export const CONTROL_PLANE_NODE_LABEL = 'node-role.kubernetes.io/control-plane';

/**
 * The one namespace rebootlab creates on a cluster (lib/workloads WORKLOAD_NAMESPACE; lib/cluster may not import
 * lib/workloads, test/unit/cluster/existing.test.ts keeps the two equal), labelled {@link MANAGED_BY}.
 */
export const REBOOTLAB_NAMESPACE = 'rebootlab';
/** The label rebootlab puts on everything it creates: `app.kubernetes.io/managed-by=rebootlab`. */
export const MANAGED_BY = { key: 'app.kubernetes.io/managed-by', value: 'rebootlab' } as const;
