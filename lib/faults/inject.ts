// Fault type → node primitives, injected on each target (staggered), restored after the duration,
// with phase markers at each step. Every undo is registered with the guard before its action runs.
import { getMaxListeners, setMaxListeners } from 'node:events';
import type { ActionRecord, Cluster, NodeAction, Undo } from '../cluster/provider.js';
import { FAULTS, FAULT_TYPES, primitivesAmong, takesScope } from '../spec/faults.js';
import type { FaultBackend, FaultSpec, FaultType, PartitionScope } from '../spec/types.js';
import { InputError } from '../common/errors.js';
import type { FaultGuard, GuardEntry } from './guard.js';
import { abortableSleep, type Sleep } from '../common/sleep.js';

/**
 * The preferred node primitives of each fault type (lib/spec/faults.ts FAULTS), in the order they are applied
 * (undone in reverse): what a machine-backed node (kind) gets.
 */
export const FAULT_PRIMITIVES: Readonly<Record<FaultType, readonly NodeAction[]>> = Object.fromEntries(
  FAULT_TYPES.map((type): [FaultType, readonly NodeAction[]] => [type, FAULTS[type].primitives[0]]),
) as Record<FaultType, readonly NodeAction[]>;

/**
 * The primitives of `type` (of `scope`, for a network-partition) on `cluster`: the first alternative of its
 * catalogue record whose every action the cluster supports (kind's Docker actions; heartbeat loss on simulated nodes;
 * a backend's actions on an existing one).
 * @throws InputError when the cluster cannot express the fault (e.g. reboot on kwok).
 */
export function primitivesFor(cluster: Pick<Cluster, 'provider' | 'supportedActions'>, type: FaultType, scope: PartitionScope = 'node'): readonly NodeAction[] {
  const primitives = primitivesAmong(type, cluster.supportedActions, scope);
  if (!primitives) {
    throw new InputError(`fault.type: ${type} cannot be injected on a ${cluster.provider} cluster`, `Supported node actions there: ${[...cluster.supportedActions].join(', ')}`);
  }
  return primitives;
}

/**
 * The cluster that injects a fault through `backend`: the cluster itself for the provider's own primitives,
 * else its {@link Cluster.withBackend} view. @throws InputError when the provider takes no backend.
 */
export function actingCluster(cluster: Cluster, backend: FaultBackend | undefined): Cluster {
  if (!backend || backend.kind === 'provider') return cluster;
  if (!cluster.withBackend) throw new InputError(`fault.backend: ${backend.kind} is for provider existing; provider ${cluster.provider} acts on its nodes itself`);
  return cluster.withBackend(backend);
}

/**
 * Phase markers of a fault: `fault-injecting` (before the first command), `fault-injected` (the instant
 * the first primitive's command returned), `fault-step` (each further primitive, e.g. node-delete's Node
 * deletion), `fault-restoring`, `fault-restored` (undo commands returned).
 */
export type FaultPhase = 'fault-injecting' | 'fault-injected' | 'fault-step' | 'fault-restoring' | 'fault-restored';

/** Receives phase markers; the runner writes them to the journal. Must not throw. */
export type FaultPhaseCallback = (phase: FaultPhase, info: { nodes: string[]; detail: Record<string, unknown> }) => void;

/** Waits `ms` milliseconds, or until `signal` aborts (then resolves early). Injected so unit tests never sleep. */
export type { Sleep } from '../common/sleep.js';

/** Options of {@link injectFault} and {@link runFault}. */
export interface FaultOptions {
  guard: FaultGuard;
  onPhase: FaultPhaseCallback;
  /** Default {@link abortableSleep}. */
  sleep?: Sleep;
  /** Aborting ends the stagger and duration waits early (restoration still runs). */
  signal?: AbortSignal;
  /** What a network-partition cuts (default `node`); journaled as `scope` in its markers when `control-plane`. */
  scope?: PartitionScope;
  /**
   * Called with each node's fault right after injection (runFault only). Its `restore()` also ends that node's
   * duration wait, so a `restore` step can end the fault early.
   */
  onInjected?: (fault: InjectedNodeFault) => void;
}

/** A fault injected on one node, not yet restored. */
export interface InjectedNodeFault {
  node: string;
  type: FaultType;
  records: ActionRecord[];
  /** Undo this node's primitives in reverse, with fault-restoring/-restored markers. Idempotent. @throws InfraError. */
  restore(): Promise<void>;
}

function recordDetail(r: ActionRecord): Record<string, unknown> {
  return { action: r.action, container: r.container, ipBefore: r.ipBefore, ipAfter: r.ipAfter, ipAfterUndo: r.ipAfterUndo, actedAtMs: r.actedAtMs, undoneAtMs: r.undoneAtMs };
}

/**
 * Injects `fault.type` on one node: registers each primitive's undo with the guard, then acts.
 * If a primitive fails, the ones already applied are undone and the error is rethrown.
 * @throws InputError (unsupported action, node not owned) or InfraError (Docker/API failure).
 */
export async function injectOnNode(cluster: Cluster, type: FaultType, node: string, options: FaultOptions): Promise<InjectedNodeFault> {
  const { guard, onPhase } = options;
  const primitives = primitivesFor(cluster, type, options.scope);
  const entries: GuardEntry[] = [];
  const records: ActionRecord[] = [];
  // The scope of a control-plane partition goes into every marker of the fault: analysis reads it (clients still reach the pods).
  const scoped = options.scope !== undefined && options.scope !== 'node' && takesScope(type, options.scope) ? { scope: options.scope } : {};
  // The restore markers go with the undos themselves, so a restore the guard runs on a signal or a crash (its
  // releaseAll, not restore()) is journaled when it happens, and before the run says its faults are restored.
  let injectionFailed = false;
  let restoringMarked = false;
  let undone = 0;
  const journaledUndo = (undo: Undo): Undo => Object.assign(async () => {
    if (!injectionFailed && !restoringMarked) {
      restoringMarked = true;
      onPhase('fault-restoring', { nodes: [node], detail: { type, ...scoped } });
    }
    await undo();
    undone += 1;
    if (!injectionFailed && undone === entries.length) onPhase('fault-restored', { nodes: [node], detail: { type, ...scoped, actions: records.map(recordDetail) } });
  }, { record: undo.record });
  onPhase('fault-injecting', { nodes: [node], detail: { type, ...scoped, actions: [...primitives] } });
  try {
    for (const [i, action] of primitives.entries()) {
      await cluster.act(node, action, {
        beforeAct: (undo, record) => {
          entries.push(guard.register(`${action} ${node}`, [node], journaledUndo(undo), record.restoreCommands));
          records.push(record);
        },
        afterAct: (record) => {
          const phase = i === 0 ? 'fault-injected' : 'fault-step';
          onPhase(phase, { nodes: [node], detail: { type, ...scoped, ...recordDetail(record) } });
        },
      });
    }
  } catch (error) {
    injectionFailed = true; // a failed injection is undone without restore markers: the run fails with its error
    for (const entry of [...entries].reverse()) await guard.release(entry).catch(() => undefined);
    throw error;
  }
  let restored: Promise<void> | null = null;
  const restore = () => {
    restored ??= (async () => {
      // Each undo journals fault-restoring before the first and fault-restored after the last (journaledUndo);
      // a fault with nothing registered to undo is journaled here.
      for (const entry of [...entries].reverse()) await guard.release(entry);
      if (!restoringMarked) {
        restoringMarked = true;
        onPhase('fault-restoring', { nodes: [node], detail: { type, ...scoped } });
        onPhase('fault-restored', { nodes: [node], detail: { type, ...scoped, actions: records.map(recordDetail) } });
      }
    })().catch((error: unknown) => {
      restored = null;
      throw error;
    });
    return restored;
  };
  return { node, type, records, restore };
}

/**
 * Runs a whole fault on `targets`: node i is hit `i × fault.staggerMs` milliseconds after the first,
 * and restored `fault.durationMs` milliseconds after its own injection. An instant fault (reboot, kubelet-restart) is "restored" at once
 * (its undo is a no-op). With no duration (node-delete without one) the node stays faulted: the
 * returned handles must be restored by the caller (at the end of the run), and stay in the guard meanwhile.
 * Once `options.signal` aborts, no further node is hit and running waits end early (then restored); a
 * handle's `restore()` (handed to `options.onInjected`) ends its own wait early too.
 * Resolves once every timed restore finished, to the nodes still faulted.
 * @throws InfraError/InputError from injection or restoration, after undoing what it can.
 */
export async function runFault(
  provided: Cluster,
  fault: Pick<FaultSpec, 'type' | 'durationMs' | 'staggerMs'> & Partial<Pick<FaultSpec, 'backend' | 'scope'>>,
  targets: readonly string[],
  options: FaultOptions,
): Promise<InjectedNodeFault[]> {
  const cluster = actingCluster(provided, fault.backend);
  const sleep = options.sleep ?? abortableSleep;
  const stillFaulted: InjectedNodeFault[] = [];
  // Each target listens on the run's signal twice (stagger sleep, duration wait): a zone outage of hundreds of
  // nodes is expected, not a listener leak, so Node's warning above 10 listeners would be noise.
  if (options.signal) setMaxListeners(Math.max(getMaxListeners(options.signal), 2 * targets.length + 10), options.signal);
  const results = await Promise.allSettled(
    targets.map(async (node, i) => {
      await sleep(i * fault.staggerMs, options.signal);
      if (options.signal?.aborted) return; // interrupted: hit no further node
      const injected = await injectOnNode(cluster, fault.type, node, { ...options, scope: fault.scope ?? options.scope });
      // Ending the fault early (a restore step) or aborting ends this node's duration wait.
      const wait = new AbortController();
      const endWait = () => wait.abort();
      options.signal?.addEventListener('abort', endWait, { once: true });
      if (options.signal?.aborted) endWait(); // aborted while injecting
      const handle: InjectedNodeFault = { ...injected, restore: () => (endWait(), injected.restore()) };
      options.onInjected?.(handle);
      try {
        if (FAULTS[fault.type].duration === 'none') return await injected.restore();
        if (fault.durationMs === null) {
          stillFaulted.push(handle);
          return;
        }
        await sleep(fault.durationMs, wait.signal);
        await injected.restore();
      } finally {
        options.signal?.removeEventListener('abort', endWait);
      }
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.allSettled(stillFaulted.map((f) => f.restore()));
    throw failed.reason;
  }
  return stillFaulted;
}
