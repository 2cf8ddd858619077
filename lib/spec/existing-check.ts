// Checks of provider `existing` and of fault backends: a cluster rebootlab does not own is read, never
// reconfigured, and reached only through a backend the experiment names (agent or the user's commands).
import type { FieldPath } from './source.js';
import type { FaultType } from './types.js';

type Obj = Record<string, unknown>;
type Report = (path: FieldPath, message: string, atKey?: boolean) => void;

/** Cluster fields that configure a cluster rebootlab creates; meaningless (and never applied) on an existing one. */
const CREATE_ONLY_FIELDS = ['name', 'kubernetesVersion', 'nodeImage', 'workers', 'nodes', 'zones', 'controllerManager', 'apiServer', 'kubelet', 'scheduler'] as const;

/**
 * Fault types each backend can express. `command` powers a machine off and on (node-delete adds the Node
 * deletion through the API); `agent` acts inside the node: systemd units, iptables, reboot. A freeze (cgroup
 * freezer of a whole node) has no equivalent on a machine rebootlab does not run.
 */
export const BACKEND_FAULT_TYPES: Readonly<Record<'agent' | 'command', readonly FaultType[]>> = {
  command: ['power-off', 'node-delete'],
  agent: ['reboot', 'kubelet-stop', 'kubelet-restart', 'runtime-stop', 'network-partition'],
};

/** Placeholders a backend command may contain, filled per target node (lib/cluster/existing/command-backend.ts). */
export const COMMAND_PLACEHOLDERS = ['node', 'providerID', 'zone', 'internalIP'] as const;

/** Reports every issue of `cluster.provider: existing` and of `fault.backend`. */
export function checkExistingCluster(cluster: Obj, fault: Obj, report: Report): void {
  const existing = cluster.provider === 'existing';
  if (existing) {
    for (const field of ['kubeconfig', 'context'] as const) {
      if (typeof cluster[field] !== 'string' || cluster[field] === '') {
        report(['cluster'], `cluster.${field} is required with provider existing (${field === 'kubeconfig' ? 'the kubeconfig file of your cluster' : 'the context in it to use'})`);
      }
    }
    for (const field of CREATE_ONLY_FIELDS) {
      if (cluster[field] !== undefined) {
        report(['cluster', field], `provider existing never creates or reconfigures the cluster; remove it${['controllerManager', 'apiServer', 'kubelet'].includes(field) ? ` and write what the cluster runs under cluster.assume.${field}` : ''}`, true);
      }
    }
  } else {
    for (const field of ['kubeconfig', 'context', 'assume'] as const) {
      if (cluster[field] !== undefined) report(['cluster', field], `is for provider existing; provider ${String(cluster.provider ?? 'kind')} creates its own cluster`, true);
    }
  }
  const backend = fault.backend;
  const type = fault.type as FaultType;
  if (backend === undefined) {
    if (existing) report(['fault'], `fault.backend is required with provider existing: agent (a privileged pod on the node) or {command: {off, on}} (your power commands)`);
    return;
  }
  if (!existing) {
    report(['fault', 'backend'], `is for provider existing; provider ${String(cluster.provider ?? 'kind')} acts on its nodes itself`, true);
    return;
  }
  const kind = backend === 'agent' || (isObj(backend) && 'agent' in backend) ? 'agent' : isObj(backend) && 'command' in backend ? 'command' : null;
  if (kind === null) return; // the schema check names the shape
  if (typeof type === 'string' && !BACKEND_FAULT_TYPES[kind].includes(type)) {
    const other = kind === 'agent' ? 'command' : 'agent';
    const hint = BACKEND_FAULT_TYPES[other].includes(type) ? `; use backend ${other}` : '';
    report(['fault', 'type'], `${type} cannot be done by backend ${kind} (it does ${BACKEND_FAULT_TYPES[kind].join(', ')})${hint}`);
  }
  if (kind === 'command') {
    const command = (backend as { command?: unknown }).command;
    if (!isObj(command)) return;
    if (typeof command.on !== 'string' || command.on.trim() === '') {
      report(['fault', 'backend', 'command'], 'on is required: the command that brings the node back, registered as the undo before off runs', true);
    }
    for (const field of ['off', 'on'] as const) {
      const text = command[field];
      if (typeof text !== 'string') continue;
      for (const match of text.matchAll(/\{([^{}]*)\}/g)) {
        if (!(COMMAND_PLACEHOLDERS as readonly string[]).includes(match[1]!)) {
          report(['fault', 'backend', 'command', field], `unknown placeholder {${match[1]}}; use ${COMMAND_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`);
        }
      }
    }
  }
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fields of a built-in workload; a manifest workload takes its pods' shape from the manifest. */
const BUILTIN_WORKLOAD_FIELDS = ['kind', 'replicas', 'placement', 'image', 'tolerations', 'volume', 'dataProbe', 'podDisruptionBudget', 'service', 'readinessProbe', 'livenessProbe', 'terminationGracePeriodSeconds'];

/** Each workload is either built in (`kind`) or the user's (`manifest`), never both. */
export function checkManifestWorkloads(workloads: unknown, report: Report): void {
  if (!Array.isArray(workloads)) return;
  workloads.forEach((w, index) => {
    if (!isObj(w)) return;
    if (w.manifest === undefined) {
      if (w.kind === undefined) report(['workloads', index], 'give kind (a built-in workload) or manifest (your own YAML file or kustomize directory)');
      return;
    }
    for (const field of BUILTIN_WORKLOAD_FIELDS) {
      if (w[field] !== undefined) report(['workloads', index, field], 'is for built-in workloads; with manifest, write it in your manifest', true);
    }
  });
}
