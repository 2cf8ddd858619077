// `rebootlab plan <file>`: every action a run would take, each with its undo, without touching a cluster. Nodes
// are named by the target rule (`{node}`), since choosing them needs the cluster.
import { getProvider, type ClusterProvider } from '../cluster/index.js';
import { KUBELET_LOGIND_DROPIN } from '../cluster/kind/logind.js';
import { InputError } from '../common/errors.js';
import { FAULTS, primitivesAmong } from '../spec/faults.js';
import { providerActions } from '../spec/providers.js';
import { STEPS, type StepRecord } from '../spec/steps.js';
import type { Experiment, LoadedExperiment, StepSpec } from '../spec/types.js';
import { describeTarget } from './run-info.js';

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
    // Graceful node shutdown on kind: logind before the kubelet (lib/cluster/kind/logind.ts).
    if (cluster.provider === 'kind' && cluster.settings.kubelet.shutdownGracePeriodMs > 0) {
      step(`on every node: write ${KUBELET_LOGIND_DROPIN} (dbus and systemd-logind before the kubelet), systemctl start dbus systemd-logind, systemctl restart kubelet`, 'none: deleted with the cluster');
    }
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
  for (const p of experiment.probes) {
    const via = p.node ?? 'the first worker that is not a target';
    if (p.type !== 'dns') {
      step(`probe ${p.name}: GET / through the node port of Service rebootlab/${p.service} on ${via}, ${p.ratePerSecond}/s, timeout ${p.timeoutMs / 1000} s`, null);
      continue;
    }
    if (p.placeReplicaOnTarget) {
      step('cluster DNS: if no Ready replica runs on the (first) fault target, cordon every other node, delete one replica elsewhere, wait for its replacement Ready on the target', 'uncordon those nodes once it is Ready (each cordon registered before acting)');
    }
    step(`probe ${p.name}: UDP DNS query for ${p.query} through the node port of Service kube-system/rebootlab-dns (the kube-dns selector) on ${via}, ${p.ratePerSecond}/s, timeout ${p.timeoutMs / 1000} s`, 'delete Service kube-system/rebootlab-dns when the prober stops');
  }
  // The provider's own action plan: the primitives the catalogue picks for it, in its own command lines.
  const provider: ClusterProvider = getProvider(cluster.provider);
  const describe = (action: Parameters<ClusterProvider['describeAction']>[0]) => provider.describeAction(action, fault.backend, cluster);
  const primitives = primitivesAmong(fault.type, providerActions(cluster.provider, fault.backend.kind), fault.scope);
  if (primitives === null) throw new InputError(`fault.type: ${fault.type} cannot be injected on a ${cluster.provider} cluster${fault.backend.kind === 'provider' ? '' : ` with backend ${fault.backend.kind}`}`);
  const where = `${describeTarget(fault.target)}${fault.count > 1 ? ` × ${fault.count}` : ''}${fault.allowControlPlane ? ', control plane allowed' : ''}`;
  const until = FAULTS[fault.type].duration === 'none' ? ', over when its command returns' : fault.durationMs !== null ? `, undone after ${fault.durationMs / 1000} s` : ', undone at the end of the run';
  lines.push(`fault ${fault.type}${fault.scope === 'control-plane' ? ' (scope control-plane)' : ''} on ${where}${until}; each undo is registered before its action:`);
  for (const action of primitives) {
    const planned = describe(action);
    lines.push(`  ${planned.act}`, `      undo: ${planned.undo ?? 'none (over when the command returns)'}`);
  }
  for (const s of experiment.steps) {
    const node = s.node ?? '{node}';
    const fill = (text: string) => fillStepArgs(text.replaceAll('{node}', node), s);
    const record: StepRecord = STEPS[s.action];
    const at = `at ${s.afterMs / 1000} s: `;
    if ('nodeAction' in record) {
      const planned = describe(record.nodeAction);
      step(`${at}${fill(planned.act)}`, planned.undo ? `${fill(planned.undo)} at the end, if still in place` : null);
    } else if ('undoes' in record) {
      step(`${at}${fill(describe(record.undoes).undo ?? `undo ${record.undoes}`)} (${s.action})`, null);
    } else {
      step(`${at}restore the fault on ${node} now (its undo above)`, null);
    }
  }
  return lines;
}

/** A planned step's text with its arguments (lib/cluster/node-api-actions.ts): `{label}`, `{label.key}`, `{pods}`, `{retry}`. */
function fillStepArgs(text: string, s: StepSpec): string {
  const { label, pods, retryForMs } = s.args;
  const labels = pods ? Object.entries(pods.matchLabels).map(([k, v]) => `${k}=${v}`).join(',') : '';
  const which = pods ? `${labels ? `pods with ${labels}` : 'every pod'}${pods.namespace ? ` of namespace ${pods.namespace}` : ''} (not DaemonSet or mirror pods)` : '';
  return text
    .replaceAll('{label.key}', label?.key ?? '')
    .replaceAll('{label}', label ? `${label.key}=${label.value}` : '')
    .replaceAll('{pods}', which)
    .replaceAll('{retry}', `${(retryForMs ?? 0) / 1000} s`);
}
