// Issue 28: fault.type shutdown, a graceful node shutdown on kind (`systemctl poweroff` in the node while the kubelet
// holds logind's delay inhibitor lock): its catalogue record, validation's one-line refusals, the plan (logind before
// the kubelet, the poweroff and its undo), the forecast from settings alone (the kubelet's Ready=False, the pods, the
// node side after it: taints, the stop, Ready=Unknown, Ready again).
import { expect } from 'chai';
import { forecast } from '../../../lib/analyze/forecast/index.js';
import { faultEffect } from '../../../lib/analyze/forecast/fault-effects.js';
import { POWEROFF_AFTER_LOCK_SECONDS } from '../../../lib/analyze/forecast/shutdown-node.js';
import type { ForecastItem } from '../../../lib/analyze/forecast/types.js';
import { OBSERVATION_LATENCY_SECONDS } from '../../../lib/analyze/windows.js';
import { describeDockerAction } from '../../../lib/cluster/kind/actions.js';
import { KUBELET_LOGIND_DROPIN, KUBELET_LOGIND_DROPIN_TEXT, kubeletNeedsLogind } from '../../../lib/cluster/kind/logind.js';
import { parseRestoreCommand } from '../../../lib/faults/restore-commands.js';
import { planExperiment } from '../../../lib/run/plan.js';
import { preFaultStateOf } from '../../../lib/run/predict-state.js';
import { clientImpactOf, FAULTS, FAULT_TYPES_WITH_DURATION, injectableFaultTypes, primitivesAmong } from '../../../lib/spec/faults.js';
import { loadExperimentText } from '../../../lib/spec/load.js';
import { providerActions } from '../../../lib/spec/providers.js';
import { inputIssuesOf } from '../../helpers/input-issues.js';

const HEAD = ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}'];
const GRACE = 'cluster: {workers: 2, kubelet: {shutdownGracePeriod: 30s, shutdownGracePeriodCriticalPods: 10s}}';
const find = (items: readonly ForecastItem[], event: ForecastItem['event']) => items.find((i) => i.event === event);
const load = (...yaml: string[]) => loadExperimentText('e.yaml', [...HEAD, ...yaml].join('\n'));

function issuesOf(...yaml: string[]): string[] {
  return inputIssuesOf(() => load(...yaml));
}

describe('fault type shutdown (issue 28)', () => {
  it('is a catalogue record: systemctl poweroff on kind only, a duration required, clients lose the pods', () => {
    expect(FAULTS.shutdown.duration).to.equal('required');
    expect(FAULT_TYPES_WITH_DURATION).to.include('shutdown');
    expect(primitivesAmong('shutdown', providerActions('kind'))).to.deep.equal(['shutdown']);
    expect(primitivesAmong('shutdown', providerActions('kwok'))).to.equal(null);
    expect(primitivesAmong('shutdown', providerActions('existing', 'agent'))).to.equal(null);
    expect(primitivesAmong('shutdown', providerActions('existing', 'command'))).to.equal(null);
    expect(injectableFaultTypes('kind')).to.include('shutdown');
    expect(injectableFaultTypes('kwok')).to.not.include('shutdown');
    expect(clientImpactOf('shutdown')).to.equal('stopped');
  });

  it('validates on kind with the kubelet\'s shutdownGracePeriod set and a duration', () => {
    expect(issuesOf(GRACE, 'fault: {type: shutdown, duration: 60s}')).to.deep.equal([]);
  });

  it('refuses it without shutdownGracePeriod (or with 0s), one line naming the field', () => {
    const line = 'e.yaml:5:15: fault.type: shutdown is graceful only with the kubelet\'s graceful node shutdown; set cluster.kubelet.shutdownGracePeriod (e.g. 30s)';
    expect(issuesOf('cluster: {workers: 2}', 'fault: {type: shutdown, duration: 60s}')).to.deep.equal([line]);
    expect(issuesOf('cluster: {workers: 2, kubelet: {shutdownGracePeriod: 0s}}', 'fault: {type: shutdown, duration: 60s}')).to.deep.equal([line]);
  });

  it('refuses the periods the kubelet itself refuses: critical pods above the grace period, or between 0 and 1 s', () => {
    const fault = 'fault: {type: shutdown, duration: 60s}';
    expect(issuesOf('cluster: {workers: 2, kubelet: {shutdownGracePeriod: 10s, shutdownGracePeriodCriticalPods: 30s}}', fault)).to.deep.equal([
      'e.yaml:4:92: cluster.kubelet.shutdownGracePeriodCriticalPods: (30s) must not exceed shutdownGracePeriod (10s), the part of it reserved for critical pods: the kubelet refuses it (ValidateKubeletConfiguration)',
    ]);
    expect(issuesOf('cluster: {workers: 2, kubelet: {shutdownGracePeriod: 500ms}}', fault)).to.deep.equal([
      'e.yaml:4:54: cluster.kubelet.shutdownGracePeriod: must be 0s or at least 1s: the kubelet refuses it (ValidateKubeletConfiguration)',
    ]);
    // Without a shutdown fault too: the kubelet would refuse its configuration and the node would never join.
    expect(issuesOf('cluster: {workers: 2, kubelet: {shutdownGracePeriodCriticalPods: 5s}}', 'fault: {type: power-off, duration: 60s}')).to.have.length(1);
    expect(issuesOf('cluster: {workers: 2, kubelet: {shutdownGracePeriod: 1s, shutdownGracePeriodCriticalPods: 1s}}', fault)).to.deep.equal([]);
  });

  it('refuses it without a duration, as every timed fault', () => {
    const issues = issuesOf(GRACE, 'fault: {type: shutdown}');
    expect(issues).to.have.length(1);
    expect(issues[0]).to.match(/fault/).and.to.match(/duration/);
  });

  it('refuses it on kwok and on an existing cluster\'s backends, one line each', () => {
    expect(issuesOf('cluster: {provider: kwok, kubelet: {shutdownGracePeriod: 30s}}', 'workloads: [{name: web, kind: Deployment}]', 'fault: {type: shutdown, duration: 60s}'))
      .to.deep.equal(['e.yaml:6:15: fault.type: shutdown cannot be simulated with provider kwok; use power-off, freeze, kubelet-stop, network-partition or node-delete (all become heartbeat loss)']);
    const existing = 'cluster: {provider: existing, kubeconfig: /tmp/kc, context: prod}';
    expect(issuesOf(existing, 'workloads: [{name: web, kind: Deployment}]', 'fault: {type: shutdown, duration: 60s, backend: agent}'))
      .to.deep.equal(['e.yaml:6:15: fault.type: shutdown cannot be done by backend agent (it does reboot, kubelet-stop, kubelet-restart, runtime-stop, network-partition)']);
  });

  it('kind turns the restart policy off, runs systemctl poweroff in the node, and undoes both (policy back, docker start), restore commands doctor --restore replays', () => {
    expect(describeDockerAction('shutdown', '/k')).to.deep.equal({
      act: 'docker update --restart=no {node} (if it has a restart policy, read first as {policy}); docker exec {node} systemctl poweroff; over when the container has stopped',
      undo: 'docker update --restart={policy} {node} (if it had one); docker start {node} (unless it runs)',
    });
    expect(parseRestoreCommand(['docker', 'start', 'rebootlab-worker'])).to.deep.include({ via: 'docker', undo: 'start', container: 'rebootlab-worker' });
  });

  it('the plan starts logind before the kubelet when shutdownGracePeriod is set, and only then', () => {
    const text = planExperiment(load(GRACE, 'fault: {type: shutdown, duration: 60s}').variants[0]!.experiment).join('\n');
    expect(text).to.contain(`on every node: write ${KUBELET_LOGIND_DROPIN} (dbus and systemd-logind before the kubelet), systemctl start dbus systemd-logind, systemctl restart kubelet`);
    expect(text).to.contain('fault shutdown on worker-with-most-pods, undone after 60 s;');
    expect(text).to.contain('\n  docker update --restart=no {node} (if it has a restart policy, read first as {policy}); docker exec {node} systemctl poweroff; over when the container has stopped\n      undo: docker update --restart={policy} {node} (if it had one); docker start {node} (unless it runs)');
    const plain = planExperiment(load('cluster: {workers: 2}', 'fault: {type: power-off, duration: 60s}').variants[0]!.experiment).join('\n');
    expect(plain).to.not.contain('logind');
  });

  it('logind is wanted exactly when shutdownGracePeriod > 0; the kubelet drop-in orders dbus and logind before it', () => {
    expect(kubeletNeedsLogind(load(GRACE, 'fault: {type: shutdown, duration: 60s}').variants[0]!.experiment.cluster)).to.equal(true);
    expect(kubeletNeedsLogind(load('cluster: {workers: 2}', 'fault: {type: power-off, duration: 60s}').variants[0]!.experiment.cluster)).to.equal(false);
    expect(KUBELET_LOGIND_DROPIN_TEXT).to.contain('[Unit]\nWants=dbus.service systemd-logind.service\nAfter=dbus.service systemd-logind.service\n');
    expect(KUBELET_LOGIND_DROPIN).to.match(/^\/etc\/systemd\/system\/kubelet\.service\.d\/[\w-]+\.conf$/);
  });

  it('the forecast: the kubelet\'s Ready=False from the shutdown manager (v1.37), the not-ready taints, the pods ended by their group\'s deadline and a Deployment\'s replaced at once, Ready=Unknown after the node stopped with the swap to the unreachable taints, the terminal pod\'s taint eviction, Ready again after docker start', () => {
    // 90 s: the silence (≥ the duration: a booting kubelet may heartbeat as soon as docker start begins) must outlast
    // the grace period and two monitor passes (50 + 2 × 5 s) for Ready=Unknown to be certain; at 60 s it is not.
    const experiment = load(GRACE, 'workloads: [{name: web, kind: Deployment, replicas: 2, placement: spread}]', 'fault: {type: shutdown, duration: 90s}').variants[0]!.experiment;
    const f = forecast({ experiment, settings: experiment.cluster.settings, kubernetesVersion: 'v1.37.2', preFault: preFaultStateOf(experiment) });
    const cm = experiment.cluster.settings.controllerManager;
    const [G, M] = [cm.nodeMonitorGracePeriodMs / 1000, cm.nodeMonitorPeriodMs / 1000];
    expect([G, M]).to.deep.equal([50, 5]);
    // The node stops by PrepareForShutdown (5 s) + shutdownGracePeriod (30 s) + POWEROFF_AFTER_LOCK_SECONDS (5 s) = 40 s.
    const stopTo = 5 + 30 + POWEROFF_AFTER_LOCK_SECONDS;
    expect(f.items.map((i) => [i.event, i.node, i.happens, i.window, i.mechanism])).to.deep.equal([
      ['node-not-ready-kubelet', 'rebootlab-worker', 'always', { fromSeconds: -1, toSeconds: 5 + OBSERVATION_LATENCY_SECONDS }, 'kubelet-graceful-shutdown'],
      // NoSchedule: the update worker on the Ready=False update, [transition − 0.1, receipt + 1 + 1].
      ['no-schedule-taint', 'rebootlab-worker', 'always', { fromSeconds: -0.1, toSeconds: 8 }, 'no-schedule-taint'],
      // NoExecute: the zone replay, seen at the next monitor pass (≤ 5 s), the zone's token at once.
      ['no-execute-taint', 'rebootlab-worker', 'always', { fromSeconds: -0.1, toSeconds: 12 }, 'no-execute-taint'],
      // Regular group (priority 0): PrepareForShutdown within 5 s + min(30 s grace, 30 − 10 s) + 2 s status write + 1 s observation.
      ['pod-terminated', 'rebootlab-worker', 'always', { fromSeconds: -0.1, toSeconds: 28 }, 'kubelet-graceful-shutdown'],
      ['replacement-created', 'rebootlab-worker', 'always', { fromSeconds: -0.1, toSeconds: 31 }, 'replicaset'],
      ['replacement-ready', 'rebootlab-worker', 'always', { fromSeconds: -0.1, toSeconds: 36 }, 'pod-start'],
      // The clients' count: web lost at the command's start (as the run counts a shutdown target's pods), back at its
      // desired count with the replacement Ready (the replacement-ready window).
      ['workload-unavailable', 'rebootlab-worker', 'always', { fromSeconds: 0, toSeconds: 0 }, 'fault-command'],
      // The API's count: below desired once the pod is killed (not Ready, then terminal), by its pod-terminated end.
      ['workload-api-unavailable', 'rebootlab-worker', 'always', { fromSeconds: -0.1, toSeconds: 28 }, 'kubelet-graceful-shutdown'],
      ['workload-recovered', 'rebootlab-worker', 'always', { fromSeconds: -0.1, toSeconds: 36 }, 'pod-start'],
      // Ready=Unknown: the last heartbeat in [0, 40] s; [0 + G − 1, 40 + G + 2M + 1].
      ['node-not-ready', 'rebootlab-worker', 'always', { fromSeconds: G - 1, toSeconds: stopTo + G + 2 * M + 1 }, 'node-health'],
      ['no-schedule-taint', 'rebootlab-worker', 'always', { fromSeconds: G - 0.1, toSeconds: stopTo + G + 2 * M + 3 }, 'no-schedule-taint'],
      // Swapped in the pass that marks Unknown (no token): inPassTaintWindow.
      ['no-execute-taint', 'rebootlab-worker', 'always', { fromSeconds: G - 0.1, toSeconds: stopTo + G + 2 * M + 1 }, 'no-execute-taint-swap'],
      // The restore: the command's return (0 to 40 + 1 s) + 90 s, then Ready again −1 to 12 s after docker start
      // (power-off's: from the start itself, less 1 s for lastTransitionTime's truncation).
      ['node-ready-again', 'rebootlab-worker', 'always', { fromSeconds: 89, toSeconds: stopTo + 1 + 90 + 12 }, 'kubelet-status'],
    ]);
    expect(f.items.filter((i) => i.event.endsWith('-taint')).map((i) => i.taintKey)).to.deep.equal(['node.kubernetes.io/not-ready', 'node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'node.kubernetes.io/unreachable']);
    expect(f.mechanisms['kubelet-graceful-shutdown']!.file).to.contain('pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go');
    expect(f.mechanisms['no-execute-taint-swap']!.function).to.contain('processTaintBaseEviction');
    expect(f.items.find((i) => i.event === 'pod-terminated')?.because).to.contain('regular group (priority 0): killed at PrepareForShutdown with grace min(30 s, shutdownGracePeriod − shutdownGracePeriodCriticalPods = 20 s)');
    expect(f.items.find((i) => i.event === 'node-not-ready')?.assumption).to.contain('the node stops 0 s to 40 s');
    expect(f.notForecast.join('\n')).to.not.contain('the node stop');
    expect(f.notForecast.join('\n')).to.not.contain('the clients\' view');
    expect(f.notForecast.join('\n')).to.not.contain('the API\'s count');
    // A Job's killed pod counts for the API while Succeeded (exit 0) and not when Failed: its drop is not forecast.
    const job = load(GRACE, 'workloads: [{name: batch, kind: Job, replicas: 1}]', 'fault: {type: shutdown, duration: 60s}').variants[0]!.experiment;
    const j = forecast({ experiment: job, settings: job.cluster.settings, kubernetesVersion: 'v1.37.2', preFault: preFaultStateOf(job) });
    expect(j.items.filter((i) => i.event === 'workload-api-unavailable')).to.deep.equal([]);
    expect(j.notForecast).to.include('workload batch: the API\'s count of its pods killed by the shutdown (a Job\'s pod counts while Succeeded, exit 0, not when Failed): not forecast');
    // The terminal web pod's taint eviction (default not-ready toleration 300 s) would come after Ready again (from 89 s): not forecast.
    expect(f.notForecast).to.include('rebootlab/web[1] deleted by the taint eviction controller: the node may be Ready again (from 89 s) before its 300 s toleration runs out; not forecast');
    // 60 s: the booting kubelet may heartbeat at the grace period's last monitor pass: Ready=Unknown not forecast, and why.
    const edge = load(GRACE, 'workloads: [{name: web, kind: Deployment, replicas: 2, placement: spread}]', 'fault: {type: shutdown, duration: 60s}').variants[0]!.experiment;
    const e = forecast({ experiment: edge, settings: edge.cluster.settings, kubernetesVersion: 'v1.37.2', preFault: preFaultStateOf(edge) });
    expect(e.items.filter((i) => i.event === 'node-not-ready')).to.deep.equal([]);
    expect(e.notForecast).to.include('rebootlab-worker Ready=Unknown and the unreachable taints after the node stops: the fault\'s duration (60 s) may end before --node-monitor-grace-period 50 s and two monitor passes ran out; not forecast');
    // With a 30 s toleration it comes first: [taint seen + 30, 12 + 30 + 1 + 1].
    const tolerant = load(GRACE.replace('workers: 2,', 'workers: 2, apiServer: {defaultNotReadyTolerationSeconds: 30, defaultUnreachableTolerationSeconds: 30},'), 'workloads: [{name: web, kind: Deployment, replicas: 2, placement: spread}]', 'fault: {type: shutdown, duration: 60s}').variants[0]!.experiment;
    const t = forecast({ experiment: tolerant, settings: tolerant.cluster.settings, kubernetesVersion: 'v1.37.2', preFault: preFaultStateOf(tolerant) });
    expect(t.items.filter((i) => i.event === 'pod-eviction').map((i) => [i.pod, i.taintKey, i.window, i.mechanism])).to.deep.equal([['rebootlab/web[1]', 'node.kubernetes.io/not-ready', { fromSeconds: 30, toSeconds: 44 }, 'taint-eviction']]);
    // A duration the silence may not outlast (10 s ≤ G + 2M): Ready=Unknown and the unreachable taints not forecast, said so.
    const short = load(GRACE, 'workloads: [{name: web, kind: Deployment, replicas: 2, placement: spread}]', 'fault: {type: shutdown, duration: 10s}').variants[0]!.experiment;
    const s = forecast({ experiment: short, settings: short.cluster.settings, kubernetesVersion: 'v1.37.2', preFault: preFaultStateOf(short) });
    expect(s.items.some((i) => i.event === 'node-not-ready' || i.taintKey === 'node.kubernetes.io/unreachable')).to.equal(false);
    expect(s.notForecast.join('\n')).to.contain('rebootlab-worker Ready=Unknown and the unreachable taints after the node stops: the fault\'s duration (10 s) may end before --node-monitor-grace-period 50 s and two monitor passes ran out; not forecast');
    expect(find(s.items, 'node-ready-again')?.window).to.deep.equal({ fromSeconds: 10 - 1, toSeconds: stopTo + 1 + 10 + 12 });
    expect(faultEffect('shutdown', 'kind').detection).to.equal('graceful-shutdown');
    // Behind a Service with a prober (graceful-shutdown-real): the pod's endpoint leaves by its kill's end + the
    // EndpointSlice write (28 + 1 s); the requests routed to it fail until kube-proxy drops it (+ PROXY_LAG_MS 2 s), or
    // through a reused conntrack entry up to 120 s more; both in timeline order among the pod's items.
    const served = load(GRACE, 'workloads: [{name: web, kind: Deployment, replicas: 2, placement: spread, service: {port: 80}}]', 'probes: [{name: web, service: web, ratePerSecond: 20}]', 'fault: {type: shutdown, duration: 90s}').variants[0]!.experiment;
    const c = forecast({ experiment: served, settings: served.cluster.settings, kubernetesVersion: 'v1.37.2', preFault: preFaultStateOf(served) });
    expect(c.items.filter((i) => i.event === 'endpoint-not-ready' || i.event === 'probe-last-error').map((i) => [i.event, i.node, i.pod, i.workload, i.happens, i.outcomes.map((o) => o.window), i.mechanism])).to.deep.equal([
      ['endpoint-not-ready', 'rebootlab-worker', 'rebootlab/web[1]', 'web', 'always', [{ fromSeconds: -0.1, toSeconds: 29 }], 'endpoint-slice'],
      ['probe-last-error', 'rebootlab-worker', null, 'web', 'always', [{ fromSeconds: -0.1, toSeconds: 31 }, { fromSeconds: -0.1, toSeconds: 151 }], 'kube-proxy'],
    ]);
    expect(c.items.map((i) => i.event).slice(3, 12)).to.deep.equal(['endpoint-not-ready', 'pod-terminated', 'replacement-created', 'replacement-ready', 'workload-unavailable', 'workload-api-unavailable', 'workload-recovered', 'probe-last-error', 'node-not-ready']);
    expect(c.mechanisms['kube-proxy']!.function).to.contain('syncProxyRules');
    // One replica, on the target: no ready endpoint elsewhere; clients fail until the replacement is Ready and kube-proxy
    // programs it: [its replacement-ready window's start − 1, its end + 2 s], or through a reused conntrack entry.
    const single = load(GRACE, 'workloads: [{name: web, kind: Deployment, replicas: 1, service: {port: 80}}]', 'probes: [{name: web, service: web, ratePerSecond: 20}]', 'fault: {type: shutdown, duration: 60s}').variants[0]!.experiment;
    const one = forecast({ experiment: single, settings: single.cluster.settings, kubernetesVersion: 'v1.37.2', preFault: preFaultStateOf(single) });
    const lastError = one.items.find((i) => i.event === 'probe-last-error')!;
    expect(lastError.outcomes.map((o) => o.window)).to.deep.equal([{ fromSeconds: -1.1, toSeconds: 38 }, { fromSeconds: -1.1, toSeconds: 158 }]);
    expect(lastError.because).to.equal('web has no ready endpoint elsewhere once its pods on the targets are killed');
    // v1.35 and v1.36 run the same shutdown path (read in v1.35.4 and v1.36.3): the same windows, judged against that
    // version's behaviour row.
    for (const version of ['v1.35.4', 'v1.36.3']) {
      const same = forecast({ experiment, settings: experiment.cluster.settings, kubernetesVersion: version, preFault: preFaultStateOf(experiment) });
      expect(same.items.map((i) => [i.event, i.window, i.mechanism]), version).to.deep.equal(f.items.map((i) => [i.event, i.window, i.mechanism]));
      expect(same.mechanisms['kubelet-graceful-shutdown']!.behaviour, version).to.contain('re-read with backoff');
    }
    // A v1.35.4 kubelet on a v1.37.2 API server: the API's drop names the kubelet's mechanism, as the pod items do.
    const mixedState = preFaultStateOf(experiment);
    const mixed = forecast({ experiment, settings: experiment.cluster.settings, kubernetesVersion: 'v1.37.2', preFault: { ...mixedState, nodes: mixedState.nodes.map((n) => ({ ...n, kubeletVersion: 'v1.35.4' })) } });
    expect(mixed.items.filter((i) => i.event === 'pod-terminated' || i.event === 'workload-api-unavailable').map((i) => [i.event, i.mechanism])).to.deep.equal([
      ['pod-terminated', 'kubelet-graceful-shutdown@v1.35.4'], ['workload-api-unavailable', 'kubelet-graceful-shutdown@v1.35.4'],
    ]);
    // v1.34's shutdown manager reads InhibitDelayMaxSec once, right after logind's asynchronous reload, and stays off
    // when logind was slower: the shutdown may be graceful or a plain power-off, so it is not forecast, and said why.
    const old = forecast({ experiment, settings: experiment.cluster.settings, kubernetesVersion: 'v1.34.4', preFault: preFaultStateOf(experiment) });
    expect(old.items).to.deep.equal([]);
    expect(old.notForecast[0]).to.equal('rebootlab-worker Ready=False "node is shutting down": kubelet v1.34.4\'s shutdown manager may not have started (before v1.35 it reads logind\'s InhibitDelayMaxSec once, right after an asynchronous reload, and stays off when logind was slower: kubelet-graceful-shutdown); the shutdown is graceful or a plain power-off for its pods');
  });
});
