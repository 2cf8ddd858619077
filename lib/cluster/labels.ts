// Well-known labels every provider reads or writes on Nodes.

/** The well-known zone label (https://kubernetes.io/docs/reference/labels-annotations-taints/#topologykubernetesiozone). */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
