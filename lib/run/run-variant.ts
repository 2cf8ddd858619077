// One run of one experiment variant on a cluster: workloads → observer → fault → observe → reports.
import { mkdirSync } from 'node:fs';
import { abortableSleep } from '../common/sleep.js';
import type { Cluster } from '../cluster/index.js';
import { ExitCode, RebootlabError } from '../common/errors.js';
import { actingCluster, checkStepNodes, evictionDetail, loadTargetCandidates, resolveTargets, runFault, runSteps, type InjectedNodeFault } from '../faults/index.js';
import { HOST_LOAD_INTERVAL_MS, HOST_LOAD_PHASE, readJournal, sampleHostLoad, type Journal, type Prober } from '../observe/index.js';
import { analyze, detectionWindowFromSilence, pendingPredictions, RecoveryTracker, unsupportedVersionWarning } from '../analyze/index.js';
import { forecast, FORECAST_LEAD_SECONDS, PreFaultRecorder, type Forecast } from '../analyze/forecast/index.js';
import type { Result, RunInfo } from '../report/index.js';
import type { TimeoutSettings } from '../spec/settings.js';
import type { Variant } from '../spec/types.js';
import {
  applyObjects, applyWorkloads, CSI_IMAGE, deployAttachableDriver, readDataMarker, renderNamespace, resolveSelectedWorkloads, usesAttachableVolumes, waitForWorkloadsReady, writeDataMarker,
} from '../workloads/index.js';
import { loadKubeConfig, readServerVersion } from '../cluster/kube-client.js';
import { describeTarget, workloadRefs } from './run-info.js';
import { waitForPodgcRequeueClear, type NodeDeletionHistory } from './podgc-requeue.js';
import { PROBE_BASELINE_MS, startProbers, waitForProbeBaselines } from './probers.js';
import type { RunSession } from './session.js';

/** How often the "until recovered" check asks the recovery tracker, milliseconds. */
const RECOVERY_CHECK_INTERVAL_MS = 2_000;

/** Inputs of {@link runVariant}. */
export interface RunVariantInput {
  variant: Variant;
  cluster: Cluster;
  /** The settings in effect on the cluster, read back after creation (durations in milliseconds). */
  settings: TimeoutSettings;
  /**
   * The Nodes this `rebootlab run` deleted on `cluster` so far (ClusterSession); the run adds those it deletes.
   * Absent: every Node counts as possibly deleted before (the wait before deleting one goes by its creation time).
   */
  nodeDeletions?: NodeDeletionHistory;
  /** Directory of this run; created if missing. */
  runDir: string;
  /**
   * The run session: its guard for `runDir` (RunSession.guardRun) holds every fault; its signal aborts on
   * SIGINT, SIGTERM or SIGHUP (waits end early, faults are restored, the run is reported as interrupted).
   */
  session: RunSession;
  rebootlabVersion: string;
}

/**
 * Runs one variant and writes observations.jsonl, run.json, result.json and the other reports into `runDir`.
 * Resolves to the result (status passed, failed or interrupted).
 * @throws InfraError when the cluster, Docker or the API fails before the fault could be analyzed;
 *   InputError when the fault target cannot be resolved. Every injected fault is restored first.
 */
export async function runVariant(input: RunVariantInput): Promise<Result> {
  const { variant, cluster, runDir, session } = input;
  const { progress, signal } = session;
  const experiment = variant.experiment;
  mkdirSync(runDir, { recursive: true });
  // Pods already running: their controllers give kind and desired pods before anything is recorded (read only).
  const selected = await resolveSelectedWorkloads(loadKubeConfig(cluster.kubeconfigPath), experiment.workloads);
  const selectors = experiment.workloads.flatMap((w) => (w.selected ? [w.selected] : []));
  const info: RunInfo = {
    experiment: experiment.metadata.name,
    variant: Object.keys(variant.matrixValues).length > 0 ? variant.variantName : null,
    repeatIndex: variant.repeatIndex,
    // What the server runs (on provider existing the experiment names no version), else what was asked for.
    cluster: { name: cluster.name, provider: cluster.provider, kubernetesVersion: (await readServerVersion(cluster.kubeconfigPath)) ?? experiment.cluster.kubernetesVersion },
    fault: {
      type: experiment.fault.type,
      target: describeTarget(experiment.fault.target),
      durationSeconds: experiment.fault.durationMs === null ? null : experiment.fault.durationMs / 1000,
    },
    settings: input.settings,
    workloads: workloadRefs(experiment.workloads, selected),
    expectations: experiment.expect,
    interrupted: false,
    rebootlabVersion: input.rebootlabVersion,
    resolved: experiment,
  };
  // A server outside the modelled versions (provider existing) runs, with the model's caveat said up front.
  const versionWarning = info.cluster.kubernetesVersion === null ? null : unsupportedVersionWarning(info.cluster.kubernetesVersion);
  if (versionWarning !== null) progress.log('warn', versionWarning);
  // Fed each journal record once: the "until recovered" check asks it instead of re-analyzing the journal.
  const recovery = new RecoveryTracker(info.workloads);
  // Fed each record until the forecast is frozen: the pre-fault state it conditions on.
  const preFault = new PreFaultRecorder(info.workloads);
  let forecastFrozen = false;
  let faultInjected = false;
  return session.observe({
    runDir, cluster, settings: input.settings, info,
    startedDetail: { variant: variant.variantName, repeatIndex: variant.repeatIndex, matrixValues: variant.matrixValues },
    onRecord: (record) => {
      recovery.add(record);
      if (!forecastFrozen) preFault.add(record);
    },
    // Interrupted before the fault: nothing to measure, the run ends with exit 130 and no report.
    reportsInterrupt: () => faultInjected,
  }, async ({ journal, kc, guard, onStop }) => {
    let stillFaulted: InjectedNodeFault[] = [];
    let probers: Prober[] = [];
    onStop(() => Promise.all(probers.map((p) => p.stop())).then(() => {}));
    progress.phase('deploying workloads');
    const before = await loadTargetCandidates(cluster, selectors);
    const placedOn = resolveTargets(experiment.fault, before.nodes, before.pods);
    checkStepNodes(experiment.steps, experiment.fault, before.nodes);
    await applyObjects(kc, [renderNamespace()]);
    if (usesAttachableVolumes(experiment.workloads)) {
      progress.phase('deploying rebootlab\'s attachable CSI driver');
      await cluster.loadImages?.([CSI_IMAGE]);
      await deployAttachableDriver(kc, { signal });
    }
    await applyWorkloads(kc, experiment.workloads, { targetNodes: placedOn });
    await waitForWorkloadsReady(kc, experiment.workloads, { signal });
    // worker-with-most-pods means what it says once the pods run: placement only prefers the node chosen
    // above, and the scheduler may have spread some pods elsewhere.
    const after = await loadTargetCandidates(cluster, selectors);
    const targets = resolveTargets(experiment.fault, after.nodes, after.pods);
    const markers = new Map<string, string>();
    for (const w of experiment.workloads.filter((w) => w.dataProbe)) markers.set(w.name, await writeDataMarker(kc, w.name));
    journal.mark('workloads-ready', { nodes: targets, detail: { dataMarkers: Object.fromEntries(markers) } });
    probers = await startProbers(kc, cluster, experiment.probes, targets, journal, { guard, signal });
    if (probers.length > 0) progress.phase(`waiting for a steady baseline of ${probers.length} probe(s) (${PROBE_BASELINE_MS / 1000} s of answers from every ready endpoint)`);
    await waitForProbeBaselines(kc, probers, experiment.probes, signal);
    throwIfAborted(signal);
    // A Node re-created moments ago (the previous repeat's) may still sit in PodGC's quarantine queue.
    const nodesToDelete = await waitForPodgcRequeueClear(after.nodes, experiment, targets, { journal, say: (line) => progress.phase(line), signal, history: input.nodeDeletions });
    throwIfAborted(signal);

    // kind and kwok run the nodes on this host: its load, journaled before the forecast (which names it among its
    // conditions) and every HOST_LOAD_INTERVAL_MS while the run observes, tells a slow host from a slow Kubernetes.
    if (experiment.cluster.provider !== 'existing') {
      const markHostLoad = () => journal.mark(HOST_LOAD_PHASE, { detail: { ...sampleHostLoad() } });
      markHostLoad();
      const timer = setInterval(() => {
        try {
          markHostLoad();
        } catch {
          clearInterval(timer); // the journal is closed or failing: the run's own appends report that
        }
      }, HOST_LOAD_INTERVAL_MS);
      timer.unref();
      onStop(async () => clearInterval(timer));
    }
    // The forecast, frozen in the journal before the first fault command: from the settings read back, the
    // Kubernetes version and the pre-fault state (placement, zones, each node's last heartbeat seen).
    journal.appendForecast({ forecast: freezeForecast(experiment, input.settings, info.cluster.kubernetesVersion ?? experiment.cluster.kubernetesVersion, preFault) as unknown as Record<string, unknown> });
    forecastFrozen = true;
    progress.phase(`injecting ${experiment.fault.type} on ${targets.join(', ')}`);
    // Counted as deleted before the command runs: an interrupted deletion may have reached the API server.
    for (const node of nodesToDelete) input.nodeDeletions?.deleted.add(node);
    // The fault (with its timed restore) and the follow-up steps run while the cluster is observed; the end
    // of the observation ends a fault still running (until: duration shorter than fault.duration).
    const faultEnd = new AbortController();
    const endFault = () => faultEnd.abort();
    signal.addEventListener('abort', endFault, { once: true });
    const injected: InjectedNodeFault[] = [];
    let injectedAtMs: (at: number | null) => void = () => {};
    const firstInjection = new Promise<number | null>((resolve) => (injectedAtMs = resolve));
    let firstCommandStartedAtMs: number | null = null;
    let faultError: unknown = null;
    let stepError: unknown = null;
    let faultSettled = false;
    let stepsSettled = experiment.steps.length === 0;
    const faultDone = runFault(cluster, experiment.fault, targets, {
      guard,
      signal: faultEnd.signal,
      onInjected: (fault) => injected.push(fault),
      onPhase: (phase, { nodes, detail }) => {
        const marker = journal.mark(phase, { nodes, detail });
        // Steps and the observation count from time zero, the start of the first fault command (as every figure
        // of the results and the forecast), and begin once that command returned.
        if (phase === 'fault-injecting') firstCommandStartedAtMs ??= marker.receivedAtMs;
        if (phase === 'fault-injected' && !faultInjected) {
          faultInjected = true;
          injectedAtMs(firstCommandStartedAtMs ?? Date.now());
        }
      },
    }).then(
      (faulted) => void (stillFaulted = faulted),
      (error: unknown) => void (faultError = error),
    ).finally(() => {
      faultSettled = true;
      injectedAtMs(null);
    });
    const stepsDone = (async () => {
      const atMs = await firstInjection;
      if (atMs === null || stepsSettled) return;
      progress.phase(`${experiment.steps.length} step(s) scheduled: ${experiment.steps.map((s) => `${s.action} at ${s.afterMs / 1000} s`).join(', ')}`);
      // The fault's backend acts for the steps too (provider existing: restart-kubelet through the agent).
      await runSteps(actingCluster(cluster, experiment.fault.backend), experiment.steps, targets, {
        guard, injectedAtMs: atMs, signal: faultEnd.signal, faults: () => injected,
        onPhase: (phase, { nodes, detail }) => journal.mark(phase, { nodes, detail }),
        onEviction: (attempt) => journal.mark('eviction', { nodes: [attempt.node], detail: evictionDetail(attempt, attempt.step) }),
      });
    })().catch((error: unknown) => void (stepError = error)).finally(() => (stepsSettled = true));
    await firstInjection;
    if (faultInjected) {
      await observeUntilDone(input, recovery, journal, info.workloads, {
        settled: () => faultSettled && stepsSettled,
        failed: () => faultError !== null || stepError !== null,
      }, firstCommandStartedAtMs);
    }
    faultEnd.abort();
    signal.removeEventListener('abort', endFault);
    await faultDone;
    await stepsDone;
    if (faultError !== null) throw faultError;
    if (stepError !== null) throw stepError;
    for (const fault of stillFaulted) await fault.restore();
    stillFaulted = [];
    if (markers.size > 0) {
      const probes: Record<string, unknown> = {};
      for (const [workload, marker] of markers) probes[workload] = await readDataMarker(kc, workload, marker);
      journal.mark('data-probed', { detail: { dataProbes: probes } });
    }
    journal.mark('settled');
  });
}

/** What {@link observeUntilDone} asks of the fault and the steps running meanwhile. */
interface FaultProgress {
  /** True once the fault's timed restore and every step are done. */
  settled(): boolean;
  /** True once the fault or a step failed: the observation ends at once. */
  failed(): boolean;
}

/**
 * Waits after the fault until the observation may end: for `observe.until: duration` that long after time zero
 * (`timeZeroMs`, the start of the first fault command, Unix epoch milliseconds; a fault still running then is ended
 * by the caller, so its restore starts `observe.duration` after time zero, as the forecast has it); for
 * `recovered`, until the fault was restored (when it has a duration) and every step ran, every target node is
 * Ready again (or deleted), every workload is back at its desired Ready count, no workload pod is still bound to a
 * deleted or not-Ready Node, and no predicted consequence (PodGC, eviction, replacement) is still due within `observe.timeout`,
 * then `settle` longer.
 * `observe.timeout` (since time zero) ends the wait in any case: a workload that never recovers is a
 * result to report, not an infrastructure failure. A failed fault or step ends it at once. Without `timeZeroMs`
 * (no fault-injecting marker was written) the first fault command's return stands in for it.
 */
async function observeUntilDone(input: RunVariantInput, recovery: RecoveryTracker, journal: Journal, workloads: RunInfo['workloads'], fault: FaultProgress, timeZeroMs: number | null): Promise<void> {
  const { experiment } = input.variant;
  const { observe } = experiment;
  const startMs = timeZeroMs ?? recovery.faultInjectedAtMs ?? Date.now();
  const deadlineMs = startMs + (observe.until === 'duration' ? observe.durationMs ?? 0 : observe.timeoutMs);
  let lastPending: string | null = null;
  while (!input.session.signal.aborted && Date.now() < deadlineMs) {
    if (fault.failed()) return;
    const state = observe.until === 'recovered' && fault.settled() ? recovery.state() : null;
    if (state) {
      // Right after a quick fault nothing has changed yet, which looks like "recovered": every pod that
      // was on a target must show the fault's effect (restart, eviction) unless the detection window (the one
      // the forecast and the causal model use, lib/analyze/windows.ts) has closed without one. A standalone Pod
      // that was evicted is gone for good (RecoveryState.workloadsSettled): waiting for it would only run into
      // observe.timeout.
      const sinceFaultMs = Date.now() - startMs;
      const detectionWindowMs = detectionWindowFromSilence(input.settings).toSeconds * 1000;
      if (state.workloadsSettled && state.nodesBack && state.podsOnLiveNodes && state.targetPodsBack && (state.effectsSeen || sinceFaultMs >= detectionWindowMs)) {
        // The consequences the model still expects within observe.timeout (PodGC, an eviction, a replacement) must
        // come first: read once the cheap checks pass, from the journal as written so far.
        const pending = pendingConsequence(input.settings, workloads, journal.path, (deadlineMs - startMs) / 1000);
        if (pending === null) {
          input.session.progress.phase(`recovered; settling ${observe.settleMs / 1000} s`);
          await abortableSleep(observe.settleMs, input.session.signal);
          return;
        }
        if (pending !== lastPending) input.session.progress.phase(`not recovered yet: ${pending}`);
        lastPending = pending;
      }
    }
    await abortableSleep(Math.min(RECOVERY_CHECK_INTERVAL_MS, Math.max(0, deadlineMs - Date.now())), input.session.signal);
  }
  if (observe.until === 'recovered' && !input.session.signal.aborted) {
    journal.mark('observe-timeout', { detail: { timeoutMs: observe.timeoutMs } });
    input.session.progress.log('warn', `not recovered ${observe.timeoutMs / 1000} s after the fault (observe.timeout); reporting what was seen`);
  }
}

/**
 * The forecast of `experiment` from the records seen so far (`preFault`), taken as made FORECAST_LEAD_SECONDS at most
 * before time zero: the first fault command starts right after it is journaled. `kubernetesVersion`: the API server's
 * (run.json cluster.kubernetesVersion), whose mechanisms it uses.
 */
function freezeForecast(experiment: Variant['experiment'], settings: TimeoutSettings, kubernetesVersion: string, preFault: PreFaultRecorder): Forecast {
  return forecast({ experiment, settings, kubernetesVersion, preFault: preFault.state(Date.now(), FORECAST_LEAD_SECONDS) });
}

/**
 * The first predicted consequence still ahead (lib/analyze/recovery.ts pendingPredictions) in the journal written so
 * far, as one line (`pod-deleted of rebootlab/db-0 expected by 93.2 s (PodGC …)`), or null when none is.
 */
function pendingConsequence(settings: TimeoutSettings, workloads: RunInfo['workloads'], journalPath: string, untilSeconds: number): string | null {
  const analysis = analyze(readJournal(journalPath), { settings, workloads });
  const next = pendingPredictions(analysis, untilSeconds)[0];
  if (!next) return null;
  return `${next.event} of ${next.pod ?? next.node} expected by ${next.window!.toSeconds} s (${next.because})`;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new RebootlabError('interrupted before the fault', ExitCode.Interrupted);
}

