// The label of rebootlab's fault agent pods (provider existing), read by every provider's evictions to leave them alone.

/** Label of agent pods (they are not workloads, and a drain must not evict the pod that undoes a fault); value: the target node. */
export const AGENT_LABEL = 'rebootlab.dev/agent';
