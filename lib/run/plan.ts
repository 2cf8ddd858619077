// `rebootlab plan <file>`: every action a run would take, each with its undo, without touching a cluster. Nodes
// are named by the target rule (`{node}`), since choosing them needs the cluster.
import type { NodeAction } from '../cluster/provider.js';
import { FAULT_PRIMITIVES, SIMULATED_FAULT_PRIMITIVES } from '../faults/inject.js';
import type { Experiment, FaultBackend, LoadedExperiment } from '../spec/types.js';
import { describeTarget } from './run-info.js';

/** An action and its undo, as a person would read them; `undo` null when there is nothing to undo. */
interface PlannedAction {
  act: string;
  undo: string | null;
}

/** What each node primitive does through the kind provider (Docker) and on simulated nodes (kwok). */
const PROVIDER_ACTIONS: Readonly<Record<NodeAction, PlannedAction>> = {
  pause: { act: 'docker pause {node}', undo: 'docker unpause {node}' },
  stop: { act: 'docker stop {node}', undo: 'docker start {node}' },
  restart: { act: 'docker restart {node}', undo: null },
  disconnect: { act: 'docker network disconnect kind {node}', undo: 'docker network connect kind {node}' },
  'stop-kubelet': { act: 'docker exec {node} systemctl stop kubelet', undo: 'docker exec {node} systemctl start kubelet' },
  'restart-kubelet': { act: 'docker exec {node} systemctl restart kubelet', undo: null },
  'stop-runtime': { act: 'docker exec {node} systemctl stop containerd', undo: 'docker exec {node} systemctl start containerd' },
  'stop-heartbeat': { act: 'stop the Lease and status heartbeats of simulated node {node}', undo: 'resume them' },
  'delete-node-object': { act: 'delete the Node object {node}', undo: null },
  'taint-out-of-service': { act: 'taint {node} node.kubernetes.io/out-of-service=nodeshutdown:NoExecute', undo: 'remove that taint' },
  'force-delete-pods': { act: 'force-delete (grace 0) every pod bound to {node}', undo: null },
  cordon: { act: 'cordon {node}', undo: 'uncordon {node}' },
};

/** What the agent backend does for each primitive (lib/cluster/existing/agent-backend.ts). */
export const AGENT_ACTIONS: Readonly<Partial<Record<NodeAction, PlannedAction>>> = {
  'stop-kubelet': { act: 'agent pod on {node}: systemctl stop kubelet', undo: 'systemctl start kubelet (also scheduled on the node itself with systemd-run, fires after the duration)' },
  'restart-kubelet': { act: 'agent pod on {node}: systemctl restart kubelet', undo: null },
  'stop-runtime': { act: 'agent pod on {node}: systemctl stop containerd', undo: 'systemctl start containerd (also scheduled on the node with systemd-run)' },
  disconnect: { act: 'agent pod on {node}: iptables rules dropping traffic to and from the API server and the other nodes', undo: 'delete those rules (also scheduled on the node with systemd-run)' },
  restart: { act: 'agent pod on {node}: systemctl reboot', undo: null },
};

/** The lines of the plan of every variant of `loaded`. */
export function renderPlan(loaded: Pick<LoadedExperiment, 'file' | 'variants'>): string[] {
  const lines = [`plan of ${loaded.file}: ${loaded.variants.length} run(s); nothing below has been done`];
  let previous: string | null = null;
  for (const variant of loaded.variants) {
    const text = planExperiment(variant.experiment);
    const label = `${variant.variantName} (repeat ${variant.repeatIndex})`;
    if (text.join('\n') === previous) {
      lines.push('', `${label}: as above`);
      continue;
    }
    previous = text.join('\n');
    lines.push('', `${label}:`, ...text.map((l) => `  ${l}`));
  }
  return lines;
}

/** The actions of one resolved experiment, in the order a run takes them; undos indented with `undo:`. */
export function planExperiment(experiment: Experiment): string[] {
  const { cluster, fault } = experiment;
  const lines: string[] = [];
  const step = (act: string, undo: string | null) => lines.push(undo === null ? act : `${act}\n    undo: ${undo}`);
  if (cluster.existing) {
    step(`use context ${cluster.existing.context} of ${cluster.existing.kubeconfig} as it is (never created, reconfigured or deleted)`, null);
    step('read kube-controller-manager and kube-apiserver flags (kube-system mirror pods) and each kubelet\'s configz (node proxy)', null);
  } else {
    step(`create ${cluster.provider} cluster ${cluster.name} (${cluster.workers} workers, Kubernetes ${cluster.kubernetesVersion})`, 'delete it at the end (unless --keep-cluster)');
  }
  step('create namespace rebootlab (app.kubernetes.io/managed-by=rebootlab)', 'delete namespace rebootlab and everything in it at the end');
  for (const w of experiment.workloads.filter((w) => w.manifest)) {
    const objects = w.manifest!.objects.map((o) => `${String(o.kind)} ${String((o.metadata as { name?: unknown } | undefined)?.name)}`);
    step(`apply ${objects.join(', ')} from ${w.manifest!.file} in namespace rebootlab (pods labelled rebootlab.dev/workload=${w.name})`, 'deleted with the namespace');
  }
  for (const w of experiment.workloads.filter((w) => w.selected)) {
    const labels = Object.entries(w.selected!.matchLabels).map(([k, v]) => `${k}=${v}`).join(',');
    step(`read pods of namespace ${w.selected!.namespace} with labels ${labels} and their controllers as workload ${w.name} (never created, changed or deleted)`, null);
  }
  for (const w of experiment.workloads.filter((w) => !w.manifest && !w.selected)) step(`deploy ${w.kind} ${w.name}${w.replicas !== null ? ` (${w.replicas} replica${w.replicas === 1 ? '' : 's'})` : ''} in namespace rebootlab`, 'deleted with the namespace');
  const primitives = cluster.provider === 'kwok' ? SIMULATED_FAULT_PRIMITIVES[fault.type] ?? [] : FAULT_PRIMITIVES[fault.type];
  const where = `${describeTarget(fault.target)}${fault.count > 1 ? ` × ${fault.count}` : ''}${fault.allowControlPlane ? ', control plane allowed' : ''}`;
  lines.push(`fault ${fault.type} on ${where}${fault.durationMs !== null ? `, undone after ${fault.durationMs / 1000} s` : ''}; each undo is registered before its action:`);
  for (const action of primitives) {
    const planned = plannedAction(action, fault.backend);
    lines.push(`  ${planned.act}`, `      undo: ${planned.undo ?? 'none (over when the command returns)'}`);
  }
  for (const s of experiment.steps) {
    const planned = PROVIDER_ACTIONS[s.action as NodeAction] as PlannedAction | undefined;
    const node = s.node ?? '{node}';
    const act = planned ? planned.act.replaceAll('{node}', node) : `${s.action} ${node}`;
    step(`at ${s.afterMs / 1000} s: ${act}`, planned?.undo ? `${planned.undo.replaceAll('{node}', node)} at the end, if still in place` : null);
  }
  return lines;
}

function plannedAction(action: NodeAction, backend: FaultBackend): PlannedAction {
  if (backend.kind === 'command' && action === 'stop') return { act: `sh -c '${backend.off}'`, undo: `sh -c '${backend.on}'` };
  if (backend.kind === 'agent') return AGENT_ACTIONS[action] ?? PROVIDER_ACTIONS[action];
  return PROVIDER_ACTIONS[action];
}
