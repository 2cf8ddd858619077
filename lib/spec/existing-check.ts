// Checks of provider `existing` and of fault backends: a cluster rebootlab does not own is read, never
// reconfigured, and reached only through a backend the experiment names (agent or the user's commands).
import { hiddenCharacterInScript } from '../common/errors.js';
import { injectableFaultTypes, type FaultType } from './faults.js';
import type { FieldPath } from './source.js';

type Obj = Record<string, unknown>;
type Report = (path: FieldPath, message: string, atKey?: boolean) => void;

/** Cluster fields that configure a cluster rebootlab creates; meaningless (and never applied) on an existing one. */
const CREATE_ONLY_FIELDS = ['name', 'kubernetesVersion', 'nodeImage', 'workers', 'nodes', 'zones', 'workerLabels', 'controllerManager', 'apiServer', 'kubelet', 'scheduler'] as const;

/**
 * Fault types each backend can express, from the fault catalogue and the backends' node actions
 * (lib/spec/providers.ts). `command` powers a machine off and on (node-delete adds the Node deletion through the
 * API): power-off, node-delete; `agent` acts inside the node (systemd units, iptables, reboot): reboot, kubelet-stop,
 * kubelet-restart, runtime-stop, network-partition. A freeze (cgroup freezer of a whole node) has no equivalent on a
 * machine rebootlab does not run.
 */
export const BACKEND_FAULT_TYPES: Readonly<Record<'agent' | 'command', readonly FaultType[]>> = {
  command: injectableFaultTypes('existing', 'command'),
  agent: injectableFaultTypes('existing', 'agent'),
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
  if (typeof type === 'string' && !BACKEND_FAULT_TYPES[kind].includes(type as FaultType)) {
    const other = kind === 'agent' ? 'command' : 'agent';
    const hint = BACKEND_FAULT_TYPES[other].includes(type as FaultType) ? `; use backend ${other}` : '';
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
      const hidden = hiddenCharacterInScript(text);
      if (hidden !== null) {
        report(['fault', 'backend', 'command', field], `holds ${hidden}; remove it (line breaks and tabs are fine)`);
      }
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

/** Fields of a built-in workload; a manifest workload takes its pods' shape from the manifest, selected pods from their controllers. */
const BUILTIN_WORKLOAD_FIELDS = ['kind', 'replicas', 'placement', 'image', 'tolerations', 'requiredNodeLabels', 'volume', 'dataProbe', 'podDisruptionBudget', 'service', 'readinessProbe', 'livenessProbe', 'failReadiness', 'failLiveness', 'terminationGracePeriodSeconds'];

/** One part of an equality-based label selector: `key=value` or `key==value` (value may be empty). */
const SELECTOR_PART = /^\s*[A-Za-z0-9._/-]+\s*(=|==)\s*[A-Za-z0-9._-]*\s*$/;

/**
 * Each workload is built in (`kind`), the user's (`manifest`), or pods already running (`namespace` + `selector`):
 * exactly one of the three, and with a selector only the name besides. The namespace `rebootlab` is refused for
 * selected pods: rebootlab deletes it at the start and at the end of a run, and must never delete pods it did not create.
 */
export function checkManifestWorkloads(workloads: unknown, report: Report): void {
  if (!Array.isArray(workloads)) return;
  workloads.forEach((w, index) => {
    if (!isObj(w)) return;
    const selected = w.selector !== undefined || w.namespace !== undefined;
    if (w.manifest === undefined && !selected) {
      if (w.kind === undefined) report(['workloads', index], 'give kind (a built-in workload), manifest (your own YAML file or kustomize directory) or namespace and selector (pods already running)');
      return;
    }
    if (selected) {
      if (w.manifest !== undefined) report(['workloads', index, 'manifest'], 'is for your own manifest; with namespace and selector, rebootlab follows pods already running', true);
      if (w.selector === undefined) report(['workloads', index], 'namespace needs selector: the labels of the pods to follow, e.g. selector: "app=web"');
      if (w.namespace === undefined) report(['workloads', index], 'selector needs namespace: the namespace the pods run in');
      if (typeof w.selector === 'string') {
        const bad = w.selector.split(',').find((part) => !SELECTOR_PART.test(part));
        if (bad !== undefined) report(['workloads', index, 'selector'], `"${bad}" is not key=value; write e.g. "app=web" or "app=web,tier=front"`);
      }
      if (w.namespace === 'rebootlab') {
        report(['workloads', index, 'namespace'], 'rebootlab is the namespace rebootlab creates and deletes with everything in it; follow pods of another namespace');
      }
    }
    for (const field of BUILTIN_WORKLOAD_FIELDS) {
      if (w[field] !== undefined) {
        report(['workloads', index, field], selected
          ? 'is for built-in workloads; pods already running take their shape from their controller'
          : 'is for built-in workloads; with manifest, write it in your manifest', true);
      }
    }
  });
}
