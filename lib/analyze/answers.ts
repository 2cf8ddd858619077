// The plain-words answer per workload: one sentence of what happened to its pods and why, decided here from the
// analysis (pod and node timelines, DisruptionTarget conditions, steps, the data probe), so reports only render it.
import type { DataProbeRead } from './context.js';
import type { ProbeSummary } from './probe-types.js';
import type { EventRecord, FaultInstant, NodeAnswer, NodeTimeline, PodTimeline, StepInstant, WorkloadAnswer, WorkloadTimeline } from './types.js';
import type { WorkloadRef } from './types.js';

export type { NodeAnswer, WorkloadAnswer } from './types.js';

/** What {@link answerWorkloads} reads: parts of the analysis. */
export interface AnswerInput {
  faults: readonly FaultInstant[];
  steps: readonly StepInstant[];
  nodes: readonly NodeTimeline[];
  pods: readonly PodTimeline[];
  workloads: readonly WorkloadTimeline[];
  /** Events and DisruptionTarget conditions (lib/analyze/events.ts): who removed a pod. */
  events: readonly EventRecord[];
  /** The experiment's workloads (volume type). */
  refs: readonly WorkloadRef[];
  /** Each workload's data probe with its per-pod reads. */
  dataProbes: ReadonlyMap<string, DataProbeRead>;
  /** Last journal record, seconds since time zero. */
  endAfterSeconds: number;
  /** The traffic probers' summaries (lib/analyze/probe-timeline.ts); absent or empty when the run probed nothing. */
  probes?: readonly ProbeSummary[];
  /**
   * The run stopped before its end (lib/analyze/measurement.ts runInterrupted): a sentence then says for how long it
   * was observed, and a node nothing happened to did not "stay Ready throughout". Absent: false.
   */
  interrupted?: boolean;
}

/** How a fault type is named in a sentence; node actions of scripts and unknown types read "the fault". */
const FAULT_NOUNS: Readonly<Record<string, string>> = {
  reboot: 'the reboot', 'power-off': 'the power-off', freeze: 'the freeze', 'kubelet-stop': 'the kubelet stop',
  'kubelet-restart': 'the kubelet restart', 'runtime-stop': 'the runtime stop', 'network-partition': 'the network partition',
  'node-delete': 'the node deletion', shutdown: 'the shutdown', 'control-plane-partition': 'the partition from the API server',
};

/**
 * Fault types (and script node actions) after which the node's kubelet starts again: it has no local copy of the pods
 * the API server gave it (only static pods come from its manifest directory), so it lists them from the API server
 * again (pkg/kubelet/config/apiserver.go NewSourceApiserver, v1.34).
 */
const KUBELET_RESTARTING = new Set(['reboot', 'power-off', 'kubelet-stop', 'kubelet-restart', 'node-delete', 'shutdown', 'restart', 'stop', 'stop-kubelet', 'restart-kubelet']);

const s1 = (seconds: number): string => `${seconds.toFixed(1)} s`;

/** `; observed for 3.5 s only: the run was interrupted` for an interrupted run, else empty. */
const interruptedTail = (input: AnswerInput): string => (input.interrupted ? `; observed for ${s1(input.endAfterSeconds)} only: the run was interrupted` : '');

/** `52.3 s`, or `52.3–58.0 s` when the instants spread by 0.1 s or more; null when none happened. */
function span(values: readonly (number | null)[]): string | null {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return null;
  const min = Math.min(...known);
  const max = Math.max(...known);
  return max - min < 0.1 ? s1(min) : `${min.toFixed(1)}–${s1(max)}`;
}

const unique = (values: readonly (string | null)[]): string[] => [...new Set(values.filter((v): v is string => v !== null))];
const list = (values: readonly string[]): string => (values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} and ${values.at(-1)}`);
const shortTaint = (key: string): string => key.replace(/^node\.kubernetes\.io\//, '');

/** Instants as words write one decimal (`22.1 s`); integers (`30 s` of a toleration) are settings, not instants. */
const INSTANT = /\d+\.\d s/g;

/**
 * One text for the texts of a group that differ only in their instants: each instant becomes the span of that
 * instant over the group (`taint at 22.1–52.1 s + 30 s toleration`). The texts must share INSTANT's template.
 */
function collapse(texts: readonly string[]): string {
  const [first] = texts;
  if (texts.every((t) => t === first)) return first;
  const columns = texts.map((t) => (t.match(INSTANT) ?? []).map((m) => Number.parseFloat(m)));
  let i = 0;
  return first.replace(INSTANT, () => {
    const column = i++;
    return span(columns.map((c) => c[column] ?? null)) ?? '';
  });
}

/** A scheduler or kubelet reason cut at its first sentence (`Unschedulable: 0/4 nodes are available: …`). */
const firstSentence = (text: string): string => text.split('. ')[0].replace(/\.$/, '');

/** The subject of a clause: the pod's name alone, `both pods`, `all 3 pods` or `2 of 3 pods`. */
function subject(group: readonly PodTimeline[], total: number): string {
  if (group.length === 1) return total === 1 && group[0].ownerKind === null ? 'the pod' : group[0].name;
  if (group.length === total) return group.length === 2 ? 'both pods' : `all ${group.length} pods`;
  return `${group.length} of ${total} pods`;
}

/** Seconds a pod tolerates NoExecute taint `key`: null = forever, 0 = not tolerated. */
function tolerationFor(pod: PodTimeline, key: string): number | null {
  if (key === 'node.kubernetes.io/unreachable') return pod.tolerations.unreachableTolerationSeconds;
  if (key === 'node.kubernetes.io/not-ready') return pod.tolerations.notReadyTolerationSeconds;
  if (key === 'node.kubernetes.io/out-of-service') return pod.tolerations.outOfServiceTolerationSeconds;
  return 0;
}

/** The NoExecute taint of the pod's node whose added time + the pod's toleration lies nearest its eviction, as words. */
function taintReason(pod: PodTimeline, node: NodeTimeline | undefined, at: number): string | null {
  let best: { text: string; distance: number } | null = null;
  for (const t of node?.taints ?? []) {
    if (t.effect !== 'NoExecute' || t.addedAfterSeconds === null || t.addedAfterSeconds > at + 1) continue;
    const tolerated = tolerationFor(pod, t.key);
    if (tolerated === null) continue;
    const distance = Math.abs(t.addedAfterSeconds + tolerated - at);
    const text = tolerated === 0
      ? `${shortTaint(t.key)} taint at ${s1(t.addedAfterSeconds)}, not tolerated`
      : `${shortTaint(t.key)} taint at ${s1(t.addedAfterSeconds)} + ${tolerated} s toleration`;
    if (!best || distance < best.distance) best = { text, distance };
  }
  return best?.text ?? null;
}

/**
 * When a pod was removed: its deletionTimestamp's receipt, or, for a pod its kubelet ended before that (outcome
 * terminated-*: a graceful node shutdown's TerminationByKubelet), when it turned Failed/Succeeded.
 */
function removedAt(pod: PodTimeline): number | null {
  return pod.outcome.startsWith('terminated-') && pod.terminatedAfterSeconds != null ? pod.terminatedAfterSeconds : pod.evictedAfterSeconds;
}

/** Who removed an evicted pod and why, from its DisruptionTarget condition, the steps and its node's taints. */
function removal(pod: PodTimeline, input: AnswerInput, node: NodeTimeline | undefined): { verb: string; why: string | null } {
  const at = pod.evictedAfterSeconds ?? pod.deletedAfterSeconds ?? 0;
  const disruption = input.events.find((e) => e.recordedAs === 'DisruptionTarget' && e.object === `Pod/${pod.namespace}/${pod.name}`);
  const nodeDeleted = node?.deletedAfterSeconds != null ? `its Node was deleted at ${s1(node.deletedAfterSeconds)}` : null;
  const outOfService = node?.outOfServiceTaintAfterSeconds != null ? `out-of-service taint at ${s1(node.outOfServiceTaintAfterSeconds)} on a NotReady node` : null;
  switch (disruption?.reason) {
    case 'EvictionByEvictionAPI':
      return { verb: 'evicted', why: 'Eviction API, PodDisruptionBudgets honoured: a drain or an evict-pods step' };
    case 'DeletionByTaintManager':
      return { verb: 'evicted', why: taintReason(pod, node, at) ?? 'by the taint eviction controller' };
    case 'DeletionByPodGC':
      return { verb: 'deleted by pod garbage collection', why: nodeDeleted ?? outOfService };
    case 'TerminationByKubelet':
      return { verb: 'terminated by the kubelet', why: disruption.message || null };
    case 'PreemptionByScheduler':
      return { verb: 'preempted by the scheduler', why: null };
  }
  const forceDelete = input.steps.find((s) => s.action === 'force-delete-pods' && s.node === pod.nodeBefore && s.startedAfterSeconds <= at + 1);
  if (forceDelete) return { verb: 'force-deleted', why: `force-delete-pods step at ${s1(forceDelete.startedAfterSeconds)}` };
  const taint = taintReason(pod, node, at);
  if (taint) return { verb: 'evicted', why: taint };
  return { verb: 'deleted', why: nodeDeleted };
}

/** What stayed and what changed for pods that kept their pod object (restarted in place, or resumed). */
function identity(group: readonly PodTimeline[], kubeletRestarted: boolean): string {
  const parts: string[] = [];
  const many = group.length > 1;
  if (group.every((p) => p.ownerKind === 'Node')) parts.push(`static pod${many ? 's' : ''} from the node's manifest directory (the kubelet's local files)`);
  else parts.push(`same pod object${many ? 's' : ''} (UID${many ? 's' : ''} unchanged)${kubeletRestarted ? ' re-read from the API server' : ''}`);
  const ipChanged = group.filter((p) => p.podIPAfter !== null && p.podIPBefore !== null && p.podIPAfter !== p.podIPBefore).length;
  if (ipChanged === group.length) parts.push(`new sandbox${many ? 'es' : ''} (new pod IP${many ? 's' : ''})`);
  else if (ipChanged === 0) parts.push(`same pod IP${many ? 's' : ''}`);
  else parts.push(`new pod IPs for ${ipChanged} of ${group.length}`);
  const deltas = unique(group.map((p) => `+${p.restartCountDelta}`));
  const restarts = `restartCount ${deltas.length === 1 ? deltas[0] : deltas.join('/')}`;
  const before = (p: PodTimeline) => p.containerIDsBefore ?? [];
  const after = (p: PodTimeline) => p.containerIDsAfter ?? [];
  const idsKnown = group.every((p) => before(p).length > 0 && after(p).length > 0);
  const idsChanged = group.filter((p) => after(p).some((id) => !before(p).includes(id))).length;
  const restarted = group.filter((p) => p.restartCountDelta > 0).length;
  if (idsKnown && idsChanged === 0 && restarted === 0) parts.push(`same container${many ? 's' : ''} (restartCount unchanged): the runtime kept ${many ? 'them' : 'it'} running`);
  else if (idsKnown && idsChanged === group.length) parts.push(`new container${many ? 's' : ''} (${restarts})`);
  else if (restarted === 0) parts.push('restartCount unchanged');
  else parts.push(`containers started again (${restarts})`);
  return parts.join(', ');
}

/** Ready=False from when, in which phase, and whether Ready again; null when the API never showed it not Ready. */
function readiness(group: readonly PodTimeline[]): string | null {
  const notReady = span(group.map((p) => p.notReadyAfterSeconds));
  if (notReady === null) return null;
  const phases = unique(group.map((p) => p.phaseWhenNotReady));
  const again = span(group.map((p) => p.readyAgainAfterSeconds));
  const allAgain = group.every((p) => p.readyAgainAfterSeconds !== null);
  return `Ready=False from ${notReady}${phases.length === 1 ? ` (phase ${phases[0]})` : ''}, ${allAgain && again ? `Ready again at ${again}` : 'not Ready again by the end'}`;
}

/**
 * Why a kubelet ended a pod without its deletion, from its reason (status.reason or the kubelet's rejection Event):
 * the kubelet rejects a pod at admission (pkg/kubelet/lifecycle/predicate.go, v1.34), also when it re-admits its
 * pods after a restart and one no longer fits its node (NodeAffinity after the node lost a required label).
 */
function terminatedWhy(reason: string | null): string {
  if (reason === 'NodeAffinity') return 'NodeAffinity: its kubelet re-admitted it and the node no longer carries a label its required node affinity names';
  return reason ?? 'no reason given';
}

/** Why pods on a node were not evicted: no NoExecute taint, a toleration without end, or one that outlasts the run. */
function notEvictedWhy(group: readonly PodTimeline[], node: NodeTimeline | undefined, endSeconds: number): string {
  const noExecute = (node?.taints ?? []).filter((t) => t.effect === 'NoExecute' && t.addedAfterSeconds !== null);
  if (noExecute.length === 0) return 'no NoExecute taint on the node';
  const reasons = unique(noExecute.flatMap((t) => group.map((p) => {
    const tolerated = tolerationFor(p, t.key);
    if (tolerated === null) return `tolerates the ${shortTaint(t.key)} taint forever`;
    const ends = t.addedAfterSeconds! + tolerated;
    return ends > endSeconds ? `${shortTaint(t.key)} taint at ${s1(t.addedAfterSeconds!)} + ${tolerated} s toleration ends after the observation (${s1(endSeconds)})` : null;
  })));
  return reasons.length > 0 ? reasons.join('; ') : 'not evicted by the end';
}

/** The data probe as words: which volume, kept / lost / unreadable, and from which pods. */
function dataWords(read: DataProbeRead | undefined, volumeType: string | undefined): string | null {
  if (!read) return null;
  const volume = volumeType ?? 'volume';
  const from = list(read.pods.filter((p) => p.outcome !== 'unreadable').map((p) => `${p.pod} on ${p.node}`));
  switch (read.outcome) {
    case 'kept':
      return `${volume} data kept (the marker written before the fault read back${from ? ` from ${from}` : ''})`;
    case 'lost':
      return `${volume} data lost (the marker written before the fault was missing${from ? ` on ${from}` : ''})`;
    case 'unreadable':
      return `${volume} data unreadable (no running pod could be asked)`;
  }
}

/**
 * What the clients of the workload's Service saw, from each http prober of it (`service` = the workload's name): "lost
 * nothing" or how many requests failed and from when to when (send times, seconds since time zero, warm-up apart);
 * null when nothing probed it. A pod can keep running and still be lost to clients: its endpoint turns not ready
 * once the pod is marked Ready=False (the kubelet, or the node lifecycle controller's MarkPodsNotReady).
 */
function clientWords(probes: readonly ProbeSummary[], workload: string): string | null {
  const mine = probes.filter((p) => p.type === 'http' && (p.service ?? p.name) === workload);
  if (mine.length === 0) return null;
  return mine.map((p) => {
    if (p.errors === 0 || p.firstErrorAfterSeconds === null || p.lastErrorAfterSeconds === null) {
      return `its Service's clients lost nothing (prober ${p.name}: ${p.errors} of ${p.sent} requests failed)`;
    }
    const when = p.lastErrorAfterSeconds - p.firstErrorAfterSeconds < 0.05 ? `at ${at(p.firstErrorAfterSeconds)}` : `from ${at(p.firstErrorAfterSeconds)} to ${at(p.lastErrorAfterSeconds)}`;
    return `its Service's clients failed ${p.errors} of ${p.sent} requests ${when} (prober ${p.name})`;
  }).join('; ');
}

/** At most three names listed, else their count (`12 replacements`). */
function names(values: readonly string[], noun: string): string {
  return values.length <= 3 ? list(values) : `${values.length} ${noun}`;
}

/** A pod's fate: the key of its group (texts with instants as `#`) and its own why (instants kept). */
interface Fate {
  key: string;
  why: string;
  pod: PodTimeline;
}

/**
 * What the Eviction API answered the group's pods (an evict-pods or drain step), when it refused them: how many
 * refusals (HTTP 429: a PodDisruptionBudget allowed no disruption), when, and the server's message; null otherwise.
 */
function refusals(pods: readonly PodTimeline[]): string | null {
  const asked = pods.map((p) => p.evictionApi).filter((e) => e !== undefined && e.refusals > 0);
  if (asked.length === 0) return null;
  const count = asked.reduce((n, e) => n + e!.refusals, 0);
  const when = span(asked.flatMap((e) => [e!.firstAttemptAfterSeconds, e!.lastAttemptAfterSeconds]));
  const messages = unique(asked.map((e) => e!.message)).map(firstSentence);
  const kept = asked.every((e) => e!.outcome === 'refused') ? ', never accepted' : '';
  return `the Eviction API refused ${count} request${count > 1 ? 's' : ''} for ${pods.length > 1 ? 'them' : 'it'} at ${when}${kept} (HTTP 429${messages.length > 0 ? `: ${messages.join('; ')}` : ''})`;
}

/** The clause of one group of pods with the same fate, and what the Eviction API refused them; see {@link answerWorkloads}. */
function clauseWithRefusals(group: readonly Fate[], total: number, input: AnswerInput, context: { faultNoun: string; kubeletRestarted: boolean }): string {
  const text = clause(group, total, input, context);
  const refused = refusals(group.map((f) => f.pod));
  return refused ? `${text}; ${refused}` : text;
}

/** The clause of one group of pods with the same fate; see {@link answerWorkloads}. */
function clause(group: readonly Fate[], total: number, input: AnswerInput, context: { faultNoun: string; kubeletRestarted: boolean }): string {
  const pods = group.map((f) => f.pod);
  const first = pods[0];
  const who = subject(pods, total);
  const on = names(unique(pods.map((p) => p.nodeBefore)), 'nodes');
  const why = collapse(group.map((f) => f.why));
  const plural = pods.length > 1;
  if (first.outcome === 'unaffected' && group[0].key === 'unaffected') return `${who} on ${on} unaffected (not a fault target)`;
  if (first.outcome === 'unaffected' && input.interrupted) {
    // What the API had not yet shown is not known: a powered-off node's pods look as before until it is detected.
    const ready = readiness(pods);
    return `${who} on ${on}: no change the API showed${ready ? `, ${ready}` : ''}`;
  }
  if (first.outcome === 'unaffected') {
    const ready = readiness(pods);
    return `${who} kept running on ${on} through ${context.faultNoun}${ready ? `, ${ready}` : ''} — ${identity(pods, context.kubeletRestarted)}`;
  }
  if (first.outcome === 'restarted-in-place') {
    const again = span(pods.map((p) => p.readyAgainAfterSeconds));
    const ready = again && pods.every((p) => p.readyAgainAfterSeconds !== null)
      ? `, Ready again ${again} after ${context.faultNoun}`
      : pods.every((p) => p.notReadyAfterSeconds === null) ? ', Ready throughout as the API showed it' : ', not Ready again by the end';
    return `${who} restarted in place on ${on}${ready} — ${identity(pods, context.kubeletRestarted)}`;
  }
  if (first.outcome === 'not-evicted') {
    const ready = readiness(pods);
    return `${who} on ${on} not evicted (${why})${ready ? `; ${ready}` : ''}`;
  }
  const failed = first.evictedAfterSeconds === null && first.terminatedAfterSeconds != null;
  if (first.evictedAfterSeconds === null && !failed) return `${who} on ${on} Pending at the end`;
  const verb = failed ? `on ${on} ended by its kubelet (phase ${list(unique(pods.map((p) => p.terminatedPhase ?? null)))})` : group[0].key.split('\u0000')[1];
  const head = `${who} ${verb} ${span(pods.map((p) => (failed ? (p.terminatedAfterSeconds ?? null) : removedAt(p))))} after ${context.faultNoun}${why ? ` (${why})` : ''}`;
  const replacements = pods.map((p) => p.replacement).filter((x) => x !== null);
  switch (first.outcome) {
    case 'terminated-replaced':
    case 'evicted-replaced': {
      const where = names(unique(replacements.map((x) => x.node)), 'nodes');
      const ready = span(replacements.map((x) => x.readyAfterSeconds));
      const readyText = ready && replacements.every((x) => x.readyAfterSeconds !== null)
        ? `, Ready at ${ready}`
        : `, created at ${span(replacements.map((x) => x.createdAfterSeconds))}, not all Ready by the end`;
      return pods.every((p) => p.replacement?.name === p.name)
        ? `${head}, recreated under the same name${plural ? 's' : ''} (new UID${plural ? 's' : ''}) on ${where}${readyText}`
        : `${head}, replaced by ${plural ? 'new pods' : 'a new pod'} on ${where}${readyText}`;
    }
    case 'pending-unschedulable': {
      const reasons = unique(replacements.map((x) => x.pendingReason)).map(firstSentence).filter((r) => r !== 'Pending');
      const pending = replacements.length <= 3 ? `replacement${replacements.length > 1 ? 's' : ''} ${list(replacements.map((x) => x.name))}` : `${replacements.length} replacements`;
      return `${head}; ${pending} Pending at the end${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`;
    }
    case 'stuck-terminating':
      return `${head}, still Terminating at the end (${s1(input.endAfterSeconds)}): the kubelet of ${on} never confirmed the deletion` +
        (first.ownerKind === 'StatefulSet' ? ', and a StatefulSet creates the pod of the same name only once the old one is gone' : '');
    case 'terminated-lost':
      return `${head}, not replaced${first.ownerKind === null ? ': a bare Pod has no controller to recreate it' : ' before the end'}`;
    default:
      return `${head}, not replaced: ${first.ownerKind === null ? 'a bare Pod has no controller to recreate it' : first.ownerKind === 'DaemonSet' ? 'a DaemonSet runs its pod only on its own node' : 'no replacement appeared before the end'}`;
  }
}

/** The pods of one workload in groups that shared a fate, one clause each, earliest first and pods off the targets last. */
function clauses(pods: readonly PodTimeline[], input: AnswerInput): string[] {
  const targets = new Set(input.faults.map((f) => f.node));
  const types = unique(input.faults.map((f) => (f.scope === 'control-plane' ? 'control-plane-partition' : f.type)));
  const context = {
    faultNoun: types.length === 1 ? (FAULT_NOUNS[types[0]] ?? 'the fault') : 'the first fault',
    kubeletRestarted: types.some((t) => KUBELET_RESTARTING.has(t)),
  };
  const nodeOf = (name: string | null) => input.nodes.find((n) => n.name === name);
  const groups = new Map<string, Fate[]>();
  for (const pod of pods) {
    const onTarget = pod.nodeBefore !== null && targets.has(pod.nodeBefore);
    let fate: Fate;
    if (pod.outcome === 'unaffected') fate = { key: onTarget ? 'kept running' : 'unaffected', why: '', pod };
    else if (pod.evictedAfterSeconds !== null) {
      const r = removal(pod, input, nodeOf(pod.nodeBefore));
      fate = { key: `${pod.outcome}\u0000${r.verb}\u0000${(r.why ?? '').replace(INSTANT, '#')}`, why: r.why ?? '', pod };
    } else if (pod.terminatedAfterSeconds != null) {
      const why = terminatedWhy(pod.terminatedReason ?? null);
      fate = { key: `${pod.outcome}\u0000failed\u0000${why}`, why, pod };
    } else if (pod.outcome === 'not-evicted') {
      const why = notEvictedWhy([pod], nodeOf(pod.nodeBefore), input.endAfterSeconds);
      fate = { key: `${pod.outcome}\u0000${why.replace(INSTANT, '#')}`, why, pod };
    } else fate = { key: pod.outcome, why: '', pod };
    groups.set(fate.key, [...(groups.get(fate.key) ?? []), fate]);
  }
  const firstInstant = (g: readonly Fate[]) => g[0].key === 'unaffected' ? Infinity : Math.min(...g.map((f) => (f.pod.evictedAfterSeconds === null ? null : removedAt(f.pod)) ?? f.pod.notReadyAfterSeconds ?? 0));
  return [...groups.values()].sort((a, b) => firstInstant(a) - firstInstant(b)).map((g) => clauseWithRefusals(g, pods.length, input, context));
}

/**
 * One plain-words sentence per workload of the experiment, in experiment order: for each group of its pods that shared
 * a fate (restarted in place, kept running, evicted and replaced, ...) what happened, when (seconds since time zero)
 * and why (the DisruptionTarget reason and the taint + toleration, the Node deletion or step that caused an eviction;
 * which identifiers stayed: pod UID, pod IP, container IDs), then what its Service's clients saw (http probers) and
 * the data probe. Pure.
 */
export function answerWorkloads(input: AnswerInput): WorkloadAnswer[] {
  return input.workloads.map((w) => {
    const pods = input.pods.filter((p) => p.workload === w.name);
    const volume = input.refs.find((r) => r.name === w.name)?.volumeType;
    const parts = pods.length === 0 ? ['no pod of it existed at the fault'] : clauses(pods, input);
    const extra = [clientWords(input.probes ?? [], w.name), dataWords(input.dataProbes.get(w.name), volume)].filter((x): x is string => x !== null);
    return { workload: w.name, sentence: `${w.name}: ${[...parts, ...extra].join('; ')}${interruptedTail(input)}.` };
  });
}

/** How the end of a fault is named in a node's sentence, by fault type (the control-plane partition: `heal`). */
const RESTORE_NOUNS: Readonly<Record<string, string>> = {
  'power-off': 'the power-on', shutdown: 'the power-on', 'node-delete': 'the power-on', freeze: 'the unfreeze',
  'kubelet-stop': 'the kubelet\'s start', 'runtime-stop': 'the runtime\'s start', 'network-partition': 'the heal', 'control-plane-partition': 'the heal',
};

/** `-1.0 s` or `17.9 s`: an instant since time zero, one decimal (never `-0.0 s`). */
const at = (seconds: number): string => s1(Math.abs(seconds) < 0.05 ? 0 : seconds);

/** The NotReady clause: who set it (the kubelet's Ready=False with its reason, or the controller's Unknown) and when. */
function notReadyClause(node: NodeTimeline): string | null {
  if (node.notReadyAfterSeconds === null) return null;
  if (node.notReadyStatus === 'False') {
    return `Ready=False at ${at(node.notReadyAfterSeconds)}, reported by its kubelet${node.notReadyReason ? ` (${node.notReadyReason})` : ''}`;
  }
  const renewal = node.lastLeaseRenewBeforeDetection;
  const heartbeat = renewal !== null && renewal.afterSeconds < node.notReadyAfterSeconds ? ` (its last Lease renewal at ${at(renewal.afterSeconds)})` : '';
  const unknown = node.unknownAfterSeconds !== undefined && node.unknownAfterSeconds !== node.notReadyAfterSeconds ? `, Unknown at ${at(node.unknownAfterSeconds)}` : '';
  return `Ready=${node.notReadyStatus ?? 'Unknown'} at ${at(node.notReadyAfterSeconds)}${heartbeat}${unknown}`;
}

/** The taints added after time zero, by key in the order first added: `key NoSchedule at 18.0 s, NoExecute at 22.1 s`. */
function taintClause(node: NodeTimeline): string | null {
  const added = node.taints.filter((t) => t.addedAfterSeconds !== null && t.addedAfterSeconds >= -1).sort((a, b) => (a.addedAfterSeconds as number) - (b.addedAfterSeconds as number));
  if (added.length === 0) return null;
  const keys = unique(added.map((t) => t.key));
  return keys.map((key) => `${key} ${added.filter((t) => t.key === key).map((t) => `${t.effect} at ${at(t.addedAfterSeconds as number)}`).join(', ')}`).join('; ');
}

/** The end clause: Ready again (and how long after the fault's end began), deleted, or still not Ready at the end. */
function endClause(node: NodeTimeline, fault: FaultInstant | undefined, endAfterSeconds: number): string | null {
  const parts: string[] = [];
  if (node.deletedAfterSeconds !== null) {
    parts.push(`its Node object deleted at ${at(node.deletedAfterSeconds)}${node.recreatedAfterSeconds !== null ? `, registered again at ${at(node.recreatedAfterSeconds)}` : ''}`);
  }
  if (node.readyAgainAfterSeconds !== null) {
    const type = fault === undefined ? null : fault.scope === 'control-plane' ? 'control-plane-partition' : fault.type;
    const restore = fault?.restoringAfterSeconds ?? fault?.restoredAfterSeconds ?? null;
    const noun = type === null ? undefined : RESTORE_NOUNS[type];
    const after = restore !== null && noun !== undefined && restore <= node.readyAgainAfterSeconds ? `, ${s1(node.readyAgainAfterSeconds - restore)} after ${noun} began` : '';
    parts.push(`Ready again at ${at(node.readyAgainAfterSeconds)}${after}`);
  } else if (node.notReadyAfterSeconds !== null && !node.readyAtEnd && node.deletedAfterSeconds === null) {
    parts.push(`still not Ready when the observation ended (${s1(endAfterSeconds)})`);
  }
  return parts.length === 0 ? null : parts.join('; ');
}

/**
 * One plain-words sentence per node the fault touched, in the analysis' node order: fault targets, and any other node
 * marked NotReady, tainted after time zero or deleted. What the node lifecycle controller (or the kubelet) did and when
 * (seconds since time zero): Ready=False or Unknown (with the last Lease renewal before it), the taints by key and
 * effect, the Node's deletion, Ready again and how long after the fault's end began; a target nothing happened to
 * "stayed Ready throughout" (in an interrupted run: for the seconds observed). Pure.
 */
export function answerNodes(input: AnswerInput): NodeAnswer[] {
  const answers: NodeAnswer[] = [];
  for (const node of input.nodes) {
    const clauses = [notReadyClause(node), taintClause(node), endClause(node, input.faults.find((f) => f.node === node.name), input.endAfterSeconds)].filter((c): c is string => c !== null);
    if (clauses.length === 0 && !node.faultTarget) continue;
    const none = input.interrupted ? `stayed Ready for the ${s1(input.endAfterSeconds)} observed: the run was interrupted` : 'stayed Ready throughout';
    answers.push({ node: node.name, sentence: `${node.name}: ${clauses.length === 0 ? none : `${clauses.join('; ')}${interruptedTail(input)}`}.` });
  }
  return answers;
}
