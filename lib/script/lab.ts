// The handle a scripted experiment acts through: deploy, inject faults and node actions (every undo
// registered with the fault guard before acting), cluster operations, waits, marks in the journal.
import type * as k8s from '@kubernetes/client-node';
import {
  drainNode, restartControlPlaneComponent, type ActionRecord, type Cluster, type ComponentRestart,
  type ControlPlaneComponent, type EvictionAttempt, type NodeAction, type NodeActionArgs, type Undo,
} from '../cluster/index.js';
import { closestMatch } from '../common/did-you-mean.js';
import { ExitCode, InputError, RebootlabError } from '../common/errors.js';
import { abortableSleep } from '../common/sleep.js';
import { FORECAST_HORIZON_PHASE } from '../analyze/forecast/index.js';
import { evictionDetail, FaultGuard, injectOnNode, stepActionDetail, type InjectedNodeFault, type StepDetail } from '../faults/index.js';
import type { Journal, Prober } from '../observe/index.js';
import { startProbers } from '../run/probers.js'; // not through run/index.js: the prober start is all a script needs of it
import { parseEqualitySelector } from '../spec/defaults.js';
import { labelKeyProblem, labelValueProblem, PROTECTED_NODE_LABELS } from '../spec/label-syntax.js';
import type { TimeoutSettings } from '../spec/settings.js';
import { FAULTS, FAULT_TYPES, isFaultType, SCOPED_FAULT_TYPES, takesScope, type PartitionScope } from '../spec/faults.js';
import { stepApplying, stepArgsRule, stepUndoing } from '../spec/steps.js';
import type { Experiment, FaultType, StepAction, StepArgs } from '../spec/types.js';
import { applyWorkloads, CSI_IMAGE, deployAttachableDriver, usesAttachableVolumes, waitForWorkloadsReady, WORKLOAD_NAMESPACE } from '../workloads/index.js';
import { durationMs } from './durations.js';
import type { Duration } from './types.js';
import { makeWaitFor, type WaitFor } from './wait-for.js';

/** Options of {@link Lab.inject}. */
export interface InjectOptions {
  /** Keep the fault this long, then restore it before resolving (e.g. `'60s'`). Without it, restore through the returned handle. */
  duration?: Duration;
  /** network-partition: `node` (default, everything) or `control-plane` (only the API server's traffic), as `fault.scope`. */
  scope?: PartitionScope;
}

/**
 * Arguments of {@link Lab.act}, as the fields of a YAML step: `label` for `label-node` (`'key=value'`) and
 * `unlabel-node` (`'key'`); `selector` (`'k=v,...'`), `namespace` and `timeout` (how long a refused eviction is
 * retried; default 0s for evict-pods, 60s for drain) for `evict-pods` and `drain`.
 */
export interface ActArgs {
  label?: string;
  selector?: string;
  namespace?: string;
  timeout?: Duration;
}

/**
 * The NodeActionArgs of `lab.act(node, action, args)`, checked as a YAML step's fields are.
 * @throws InputError for a missing or invalid label, a label the scheduler or rebootlab reads, a bad selector or timeout.
 */
export function nodeActionArgs(action: NodeAction, args: ActArgs): NodeActionArgs {
  const where = `lab.act(${action})`;
  const rule = stepArgsRule(stepApplying(action));
  if (rule === undefined) return {};
  if ('label' in rule) {
    const set = rule.label === 'set';
    const text = args.label;
    if (typeof text !== 'string') throw new InputError(`${where}: needs { label: ${set ? "'key=value'" : "'key'"} }`);
    const eq = text.indexOf('=');
    if (set !== (eq >= 0)) throw new InputError(`${where}.label: "${text}": ${set ? 'write key=value' : 'write the key alone'}`);
    const key = eq < 0 ? text : text.slice(0, eq);
    const value = eq < 0 ? '' : text.slice(eq + 1);
    const problem = labelKeyProblem(key) ?? labelValueProblem(value) ?? (PROTECTED_NODE_LABELS.includes(key) ? `${key} is read by the scheduler or by rebootlab itself; a step may not change it` : null);
    if (problem) throw new InputError(`${where}.label: ${problem}`);
    return { label: { key, value } };
  }
  const matchLabels = args.selector === undefined ? {} : parseEqualitySelector(args.selector);
  const bad = Object.entries(matchLabels).find(([k, v]) => labelKeyProblem(k) !== null || labelValueProblem(v) !== null);
  if (bad || (args.selector !== undefined && Object.keys(matchLabels).length === 0)) throw new InputError(`${where}.selector: "${args.selector}" is not key=value,...`);
  const retryForMs = args.timeout === undefined ? rule.pods.defaultRetryMs : durationMs(args.timeout, `${where}.timeout`);
  return { pods: { namespace: args.namespace ?? null, matchLabels }, retryForMs };
}

/** A fault on one node, not yet restored (a reboot is restored at once). */
export interface InjectedFault {
  node: string;
  type: FaultType;
  /** Client clock when the fault's first command started (the `fault-injecting` mark; time zero for the script's first fault): Unix epoch milliseconds. */
  issuedAtMs: number;
  /** Client clock when the fault's first command returned (the `fault-injected` mark): Unix epoch milliseconds. */
  injectedAtMs: number;
  /** Undo the fault (idempotent); also done by the guard at the end of the script, on Ctrl-C and on a crash. @throws InfraError. */
  restore(): Promise<void>;
}

/** What the script-facing methods need from the runner. */
export interface LabContext {
  experiment: Experiment;
  cluster: Cluster;
  kc: k8s.KubeConfig;
  journal: Journal;
  guard: FaultGuard;
  /** The settings in effect (durations in milliseconds). */
  settings: TimeoutSettings;
  runDir: string;
  signal: AbortSignal;
  /**
   * Freezes the forecast of the script's first fault in the journal, called once just before that fault's first
   * command (lib/script/experiment.ts); absent: no forecast.
   */
  freezeForecast?: (fault: FirstFault) => void;
}

/** The script's first fault, as {@link LabContext.freezeForecast} forecasts it. */
export interface FirstFault {
  type: FaultType;
  node: string;
  /** How long it is held before the lab restores it (`inject`'s `duration`), milliseconds; null: until the script restores it. */
  durationMs: number | null;
  scope: PartitionScope;
}

/** The scripted experiment's view of its run. Create it through `experiment()`; never directly. */
export class Lab {
  /** Waits built on list+watch; each takes `{ timeoutMs }` (milliseconds, default 300000). */
  readonly waitFor: WaitFor;
  /** Fault types and node actions applied so far, for run.json's `fault.type`. */
  readonly applied = new Set<string>();
  readonly #ctx: LabContext;
  /** Whether a `fault-injected` mark was written (the zero of every result time). */
  #faultMarked = false;
  /** Whether the forecast of the first fault was frozen, and whether the script's next action marked its horizon since. */
  #forecastFrozen = false;
  #horizonMarked = false;
  /** Time zero as the analysis takes it: the first fault-injecting (or, first, fault-injected) mark, Unix epoch milliseconds. */
  #timeZeroMs: number | null = null;
  /** Steps journaled so far (lab.act of a step's node action, and its undo): the next step's index. */
  #stepCount = 0;
  /** Restores of faults and node actions not yet undone, in injection order (each marks fault-restored). */
  readonly #pending = new Set<() => Promise<void>>();
  /** Traffic probers started by deploy(); stopped by restoreAll(). */
  readonly #probers: Prober[] = [];

  constructor(ctx: LabContext) {
    this.#ctx = ctx;
    this.waitFor = makeWaitFor(ctx.kc, ctx.signal);
  }

  /** The experiment as resolved (defaults filled in, `--set` applied; durations in milliseconds). */
  get experiment(): Experiment { return this.#ctx.experiment; }
  /** The cluster (kind or kwok) this run uses. */
  get cluster(): Cluster { return this.#ctx.cluster; }
  /** A KubeConfig for the cluster's own kubeconfig file, for client-node calls of your own. */
  get kubeConfig(): k8s.KubeConfig { return this.#ctx.kc; }
  /** Timeout settings in effect on the cluster (read back after creation; durations in milliseconds). */
  get settings(): TimeoutSettings { return this.#ctx.settings; }
  /** The run directory (observations.jsonl, run.json, reports). */
  get runDir(): string { return this.#ctx.runDir; }
  /** Aborted on Ctrl-C, SIGTERM or SIGHUP after every fault was restored: stop starting new steps. */
  get signal(): AbortSignal { return this.#ctx.signal; }

  /** Worker node names, sorted. @throws InfraError if Docker or the API fails. */
  async workers(): Promise<string[]> {
    return (await this.#ctx.cluster.nodes()).filter((n) => n.role === 'worker').map((n) => n.name);
  }

  /** The control-plane node name. @throws InfraError. */
  async controlPlane(): Promise<string> {
    return (await this.#ctx.cluster.nodes()).find((n) => n.role === 'control-plane')!.name;
  }

  /**
   * Deploys the experiment's workloads in namespace `rebootlab` and waits until each is ready, then marks
   * `workloads-ready`. `placeOn` are the nodes `placement: target` workloads prefer (default: none preferred).
   * @throws InfraError when a workload is not ready within 5 minutes.
   */
  async deploy(options: { placeOn?: string[] } = {}): Promise<void> {
    this.#throwIfInterrupted();
    this.#markHorizon('lab.deploy()', options.placeOn ?? []);
    if (usesAttachableVolumes(this.#ctx.experiment.workloads)) {
      await this.#ctx.cluster.loadImages?.([CSI_IMAGE]);
      await deployAttachableDriver(this.#ctx.kc, { signal: this.#ctx.signal });
    }
    await applyWorkloads(this.#ctx.kc, this.#ctx.experiment.workloads, { targetNodes: options.placeOn ?? [] });
    await waitForWorkloadsReady(this.#ctx.kc, this.#ctx.experiment.workloads, { signal: this.#ctx.signal });
    this.#ctx.journal.mark('workloads-ready', { nodes: options.placeOn ?? [] });
    // The nodes the script places its workloads on are the ones it will fault: probers send through another one.
    this.#probers.push(...(await startProbers(this.#ctx.kc, this.#ctx.cluster, this.#ctx.experiment.probes, options.placeOn ?? [], this.#ctx.journal, { guard: this.#ctx.guard, signal: this.#ctx.signal })));
  }

  /**
   * Injects fault `type` on `node` with the same primitives as `fault.type` in an experiment file (reboot =
   * `docker restart`, power-off = `docker stop`, ...). Each primitive's undo is registered with the guard
   * (and pending-restore.json) before it runs. With `duration`, waits that long and restores before resolving.
   * A reboot is restored (a no-op undo) at once. Journal marks: fault-injecting, fault-injected, fault-restored.
   * @throws InputError for an unknown fault type or a duration without a unit; InfraError when Docker fails.
   */
  async inject(type: FaultType, node: string, options: InjectOptions = {}): Promise<InjectedFault> {
    this.#throwIfInterrupted();
    if (!isFaultType(type)) {
      const near = closestMatch(String(type), FAULT_TYPES);
      throw new InputError(`lab.inject: unknown fault type "${String(type)}"${near ? `; did you mean "${near}"?` : ''}`, `Fault types: ${FAULT_TYPES.join(', ')}`);
    }
    const holdMs = options.duration === undefined ? null : durationMs(options.duration, `lab.inject(${type}).duration`);
    let injectedAtMs = Date.now();
    let issuedAtMs = injectedAtMs;
    if (options.scope !== undefined && (!['node', 'control-plane'].includes(options.scope) || !takesScope(type, options.scope))) {
      throw new InputError(`lab.inject(${type}).scope: ${JSON.stringify(options.scope)}; scope is node or control-plane, for ${SCOPED_FAULT_TYPES.join(', ')} only`);
    }
    if (!this.#faultMarked && !this.#forecastFrozen && this.#ctx.freezeForecast) {
      this.#ctx.freezeForecast({ type, node, durationMs: holdMs, scope: options.scope ?? 'node' });
      this.#forecastFrozen = true;
    } else this.#markHorizon(`lab.inject(${type}, ${node})`, [node]);
    const fault: InjectedNodeFault = await injectOnNode(this.#ctx.cluster, type, node, {
      scope: options.scope,
      guard: this.#ctx.guard,
      signal: this.#ctx.signal,
      onPhase: (phase, { nodes, detail }) => {
        if (phase === 'fault-injecting') issuedAtMs = Date.now();
        if (phase === 'fault-injected') {
          injectedAtMs = Date.now();
          this.#faultMarked = true;
        }
        const marked = this.#ctx.journal.mark(phase, { nodes, detail });
        if (phase === 'fault-injecting' || phase === 'fault-injected') this.#timeZeroMs ??= marked.receivedAtMs;
      },
    });
    this.applied.add(type);
    const restoreNow = async () => {
      await fault.restore();
      this.#pending.delete(restore);
    };
    // A restore the forecast did not know of (no `duration`) is the script's next action.
    const restore = async () => {
      this.#markHorizon(`restore of ${type} on ${node}`, [node]);
      await restoreNow();
    };
    this.#pending.add(restore);
    const handle: InjectedFault = { node, type, issuedAtMs, injectedAtMs, restore };
    if (FAULTS[type].duration === 'none') await restoreNow();
    else if (holdMs !== null) {
      await abortableSleep(holdMs, this.#ctx.signal);
      await restoreNow();
    }
    return handle;
  }

  /**
   * Applies one node action of the cluster's provider (`cluster.supportedActions`, e.g. `pause`, `stop`,
   * `delete-node-object`, `label-node`, `evict-pods`, `drain`, `restart-kubelet`) with the arguments of the YAML step of
   * that name ({@link ActArgs}); new provider actions work here unchanged. The undo is registered with the guard
   * before acting. Once a fault was injected, an action a step applies (`delete-node-object`, `taint-out-of-service`,
   * `force-delete-pods`, `cordon`, `label-node`, `unlabel-node`, `evict-pods`, `drain`, `restart-kubelet`:
   * lib/spec/steps.ts) is journaled as that step, exactly as an experiment file's `steps:` (a `step` mark with its
   * arguments; its undo, if a step undoes it, as that step: `uncordon`, `untaint-out-of-service`), so the analysis
   * reads both alike. Any other action marks `fault-injected` (the first fault of the run) or `fault-step`, and
   * `fault-restored` on undo. Either way, an `eviction` mark per pod an evict-pods / drain asked for.
   * @throws InputError for an action the provider does not support or bad arguments; InfraError when it fails (a
   *   PodDisruptionBudget's refusal is an `eviction` record, not an error).
   */
  async act(node: string, action: NodeAction, args: ActArgs = {}): Promise<Undo> {
    this.#throwIfInterrupted();
    if (!this.#ctx.cluster.supportedActions.has(action)) {
      const near = closestMatch(String(action), [...this.#ctx.cluster.supportedActions]);
      throw new InputError(`lab.act: node action "${String(action)}" is not supported on ${this.#ctx.cluster.provider}${near ? `; did you mean "${near}"?` : ''}`,
        `Supported: ${[...this.#ctx.cluster.supportedActions].join(', ')}`);
    }
    const actionArgs = nodeActionArgs(action, args);
    this.#markHorizon(`lab.act(${node}, ${action})`, [node]);
    const asStep = this.#faultMarked ? stepApplying(action) : undefined;
    if (asStep !== undefined) return this.#actAsStep(node, action, asStep, actionArgs);
    const journal = this.#ctx.journal;
    const first = !this.#faultMarked;
    this.#faultMarked = true;
    let entry: ReturnType<FaultGuard['register']> | undefined;
    const undo = await this.#ctx.cluster.act(node, action, {
      beforeAct: (u, record) => { entry = this.#ctx.guard.register(`${action} ${node}`, [node], u, record.restoreCommands); },
      afterAct: (record) => {
        const marked = journal.mark(first ? 'fault-injected' : 'fault-step', { nodes: [node], detail: { type: action, ...recordDetail(record), ...argsDetail(args) } });
        this.#timeZeroMs ??= marked.receivedAtMs;
      },
      onEviction: (attempt) => this.#journalEviction(attempt, null),
    }, actionArgs);
    this.applied.add(action);
    const guard = this.#ctx.guard;
    let restored: Promise<void> | null = null;
    const guarded = Object.assign(() => (restored ??= (async () => {
      this.#markHorizon(`undo of ${action} on ${node}`, [node]);
      journal.mark('fault-restoring', { nodes: [node], detail: { type: action } });
      if (entry) await guard.release(entry);
      else await undo();
      journal.mark('fault-restored', { nodes: [node], detail: { type: action, ...(undo.record ? recordDetail(undo.record) : {}) } });
      this.#pending.delete(guarded);
    })().catch((error: unknown) => {
      restored = null;
      throw error;
    })), { record: undo.record }) as Undo;
    this.#pending.add(guarded);
    return guarded;
  }

  /**
   * A node action a step applies, journaled as that step (see {@link act}): a `step` mark with the same detail
   * lib/faults/steps.ts writes (index in this script's steps, action, seconds since time zero), and its undo as the
   * step that undoes it, when there is one (else released silently, as an experiment file's steps are at the end).
   */
  async #actAsStep(node: string, action: NodeAction, stepAction: StepAction, args: StepArgs): Promise<Undo> {
    const { journal, guard } = this.#ctx;
    const zeroMs = this.#timeZeroMs ?? Date.now();
    const since = () => Math.round(Date.now() - zeroMs) / 1000;
    const markStep = (marked: StepAction, startedAfterSeconds: number, facts: Partial<StepDetail> = {}, index = this.#stepCount++) => {
      const detail: StepDetail = { index, action: marked, afterSeconds: startedAfterSeconds, ...facts, startedAfterSeconds, actedAfterSeconds: since() };
      journal.mark('step', { nodes: [node], detail });
    };
    const startedAfterSeconds = since();
    const index = this.#stepCount++;
    let entry: ReturnType<FaultGuard['register']> | undefined;
    let record: ActionRecord | undefined;
    const outcomes: Record<EvictionAttempt['outcome'], number> = { evicted: 0, refused: 0, gone: 0 };
    const undo = await this.#ctx.cluster.act(node, action, {
      beforeAct: (u, r) => {
        record = r;
        entry = guard.register(`${action} ${node} (step)`, [node], u, r.restoreCommands);
      },
      onEviction: (attempt) => {
        if (attempt.final) outcomes[attempt.outcome] += 1;
        this.#journalEviction(attempt, index);
      },
    }, args);
    markStep(stepAction, startedAfterSeconds, stepActionDetail({ action: stepAction, args }, record, outcomes), index);
    this.applied.add(action);
    const undoStep = stepUndoing(action);
    let released: Promise<void> | null = null;
    const guarded = Object.assign(() => (released ??= (async () => {
      this.#markHorizon(`undo of ${action} on ${node}`, [node]);
      const undoStartedAfterSeconds = since();
      if (entry) await guard.release(entry);
      else await undo();
      if (undoStep !== undefined) markStep(undoStep, undoStartedAfterSeconds);
      this.#pending.delete(guarded);
    })().catch((error: unknown) => {
      released = null;
      throw error;
    })), { record: undo.record }) as Undo;
    this.#pending.add(guarded);
    return guarded;
  }

  /**
   * Cordons `node` (spec.unschedulable = true); the returned undo uncordons it. The undo is registered with
   * the guard first, so a node is never left cordoned (Ctrl-C, crash, end of script). Marks `cordoned`.
   * @throws InfraError when the API refuses.
   */
  async cordon(node: string): Promise<Undo> {
    this.#throwIfInterrupted();
    const { guard, journal } = this.#ctx;
    this.#markHorizon(`lab.cordon(${node})`, [node]);
    let entry: ReturnType<FaultGuard['register']> | undefined;
    // The cluster's `cordon` node action (the same one a YAML step uses); its undo uncordons.
    await this.#ctx.cluster.act(node, 'cordon', {
      beforeAct: (undo, record) => { entry = guard.register(`cordon ${node}`, [node], undo, record.restoreCommands); },
    });
    journal.mark('cordoned', { nodes: [node], detail: { mark: true } });
    let uncordoned: Promise<void> | null = null;
    const uncordon = async () => {
      this.#markHorizon(`uncordon of ${node}`, [node]);
      await guard.release(entry!);
      journal.mark('uncordoned', { nodes: [node], detail: { mark: true } });
    };
    return Object.assign(() => (uncordoned ??= uncordon()), {}) as Undo;
  }

  /**
   * Evicts the workload pods on `node` through the Eviction API (honouring PodDisruptionBudgets, as
   * `kubectl drain`) and waits until they are gone from it. Cordon first. Marks `drained` with the pod names.
   * @throws InfraError when a budget blocks longer than `timeout` (default `'2m'`).
   */
  async drain(node: string, options: { timeout?: Duration } = {}): Promise<string[]> {
    this.#throwIfInterrupted();
    const timeoutMs = durationMs(options.timeout ?? '2m', 'lab.drain.timeout');
    this.#markHorizon(`lab.drain(${node})`, [node]);
    const pods = await drainNode(this.#ctx.kc, node, { namespace: WORKLOAD_NAMESPACE, timeoutMs, signal: this.#ctx.signal, onEviction: (a) => this.#journalEviction(a, null) });
    this.#ctx.journal.mark('drained', { nodes: [node], detail: { mark: true, pods } });
    return pods;
  }

  /**
   * Restarts a control-plane component's static pod (a cluster operation; kind only) and resolves once it is
   * Ready again. Marks `<component>-stopped` and `<component>-ready` with the seconds it took.
   * @throws InputError on kwok; InfraError when Docker fails or it is not Ready within 2 minutes.
   */
  async restartControlPlane(component: ControlPlaneComponent): Promise<ComponentRestart> {
    this.#throwIfInterrupted();
    this.#markHorizon(`lab.restartControlPlane(${component})`, []);
    const restart = await restartControlPlaneComponent(this.#ctx.cluster, component, { signal: this.#ctx.signal });
    this.applied.add(`restart-${component}`);
    this.#ctx.journal.mark(`${component}-stopped`, { nodes: [restart.node], atMs: restart.stoppedAtMs, detail: { mark: true, restartCountBefore: restart.restartCountBefore } });
    this.#ctx.journal.mark(`${component}-ready`, { nodes: [restart.node], detail: { mark: true, restartCountAfter: restart.restartCountAfter, downSeconds: (restart.readyAtMs - restart.stoppedAtMs) / 1000 } });
    return restart;
  }

  /**
   * Writes a named mark into the journal; result.json lists it under `marks` with its time (seconds since the
   * first fault). Put units in detail keys, e.g. `{ recoverySeconds: 12.3 }`.
   */
  mark(name: string, detail: Record<string, unknown> = {}, nodes: string[] = []): void {
    this.#ctx.journal.mark(name, { nodes, detail: { ...detail, mark: true } });
  }

  /**
   * Restores every fault and node action still pending, newest first, with their fault-restoring/-restored
   * marks; experiment() calls it when the body ends (also after Ctrl-C), before the guard's final pass. Then stops
   * the traffic probers (each journals its `probe-stopped` count). Resolves to the errors (empty when all succeeded).
   */
  async restoreAll(): Promise<unknown[]> {
    const errors: unknown[] = [];
    for (const restore of [...this.#pending].reverse()) await restore().catch((error: unknown) => errors.push(error));
    // The run's last step before the observer stops and the journal closes: the probers stop with every record written.
    await Promise.all(this.#probers.splice(0).map((p) => p.stop()));
    return errors;
  }

  /**
   * Waits `duration` (e.g. `'90s'`), counted from now or from `since` (Unix epoch milliseconds, e.g. a fault's
   * `issuedAtMs`, so that a step lands at a fixed time after the fault however long its command took; returns at
   * once when that time has passed); ends early when the run is interrupted. @throws InputError without a unit.
   */
  async sleep(duration: Duration, options: { since?: number } = {}): Promise<void> {
    const ms = durationMs(duration, 'lab.sleep');
    await abortableSleep(options.since === undefined ? ms : Math.max(0, options.since + ms - Date.now()), this.#ctx.signal);
    this.#throwIfInterrupted();
  }

  /** An `eviction` record, as a YAML step's evict-pods / drain writes it (without a step index). */
  #journalEviction(attempt: EvictionAttempt, step: number | null): void {
    this.#ctx.journal.mark('eviction', { nodes: [attempt.node], detail: evictionDetail(attempt, step) });
  }

  /**
   * The first action of the script after its first fault (whose forecast was frozen) marks `forecast-horizon`, just
   * before it starts: the forecast knows that fault only, and is judged as the run stood then.
   */
  #markHorizon(action: string, nodes: string[]): void {
    if (!this.#forecastFrozen || !this.#faultMarked || this.#horizonMarked) return;
    this.#horizonMarked = true;
    this.#ctx.journal.mark(FORECAST_HORIZON_PHASE, { nodes, detail: { action } });
  }

  /** After Ctrl-C the guard has restored every fault: no step may start a new one. */
  #throwIfInterrupted(): void {
    if (this.#ctx.signal.aborted) throw new RebootlabError('interrupted: faults restored, no further step runs', ExitCode.Interrupted);
  }
}

function recordDetail(r: ActionRecord): Record<string, unknown> {
  return {
    action: r.action, container: r.container, ipBefore: r.ipBefore, ipAfter: r.ipAfter, ipAfterUndo: r.ipAfterUndo, actedAtMs: r.actedAtMs, undoneAtMs: r.undoneAtMs,
    ...(r.labelBefore ? { labelBefore: r.labelBefore.value } : {}),
  };
}

/** The act's arguments as a YAML step journals them (lib/faults/steps.ts StepDetail: label, pods, retrySeconds). */
function argsDetail(args: ActArgs): Record<string, unknown> {
  return {
    ...(args.label !== undefined ? { label: args.label } : {}),
    ...(args.selector !== undefined || args.namespace !== undefined ? { pods: { namespace: args.namespace ?? null, selector: args.selector ?? '' } } : {}),
    ...(args.timeout !== undefined ? { retrySeconds: durationMs(args.timeout, 'lab.act.timeout') / 1000 } : {}),
  };
}
