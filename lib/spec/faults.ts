// The fault catalogue: one record per fault type (what `fault.duration` means, the node primitives in order of
// preference, what the Service's clients lose). Validation, injection, `rebootlab plan`, the scripting API and
// the analysis read it; FaultType is its keys, so a type added here and handled nowhere is a compile error there.
import type * as v1 from './v1alpha1/types.js';
import { PROVIDERS, providerActions, type BackendName, type NodeAction, type ProviderCapabilities, type ProviderName } from './providers.js';

/**
 * What `fault.duration` means for a fault type: `required` (undone that long after injection), `none` (over when
 * its command returns; nothing to restore later), `optional` (without one, restored at the end of the run).
 */
export type DurationRule = 'required' | 'none' | 'optional';

/**
 * What the Service's clients lose when the fault hits a node: `stopped` (the containers die at the command; a pod
 * serves again once Ready with a Ready lastTransitionTime after the fault started), `paused` (the containers keep
 * their state but nobody reaches them until the fault is undone), `serving` (the containers keep serving: the
 * client view is the API view).
 */
export type ClientImpact = 'stopped' | 'paused' | 'serving';

/**
 * What a network-partition cuts the node off from (`fault.scope`): `node` = everything (kind leaves the Docker
 * network), `control-plane` = only the traffic between the node and the API server endpoints.
 */
export type PartitionScope = 'node' | 'control-plane';

/** A fault scope's own primitives and client impact, replacing the record's. */
export interface ScopeRecord {
  readonly primitives: readonly (readonly NodeAction[])[];
  readonly clients: ClientImpact;
}

/** One fault type's facts. */
export interface FaultRecord {
  readonly duration: DurationRule;
  /** For a fault over at once: the type to use for a timed outage (validation's hint). */
  readonly timedInstead?: string;
  /**
   * The node primitives, applied in order and undone in reverse, as alternatives in order of preference: injection
   * uses the first alternative whose every action the cluster supports (lib/spec/providers.ts).
   */
  readonly primitives: readonly (readonly NodeAction[])[];
  readonly clients: ClientImpact;
  /** A sentence under the workloads table when this fault's client figure reads differently from the usual note. */
  readonly clientNote?: string;
  /** Scopes other than `node` this type takes (`fault.scope`), each with its own primitives and client impact. */
  readonly scopes?: Readonly<Partial<Record<Exclude<PartitionScope, 'node'>, ScopeRecord>>>;
}

/**
 * Every fault type. reboot = `docker restart`; power-off = stop, wait, start; freeze = pause, wait, unpause;
 * kubelet-stop = `systemctl stop kubelet`, wait, start; kubelet-restart = `systemctl restart kubelet` (containers
 * keep running); runtime-stop = `systemctl stop containerd`, wait, start (the kubelet stays up and reports the node
 * NotReady itself, so the not-ready taint and toleration apply; running containers keep serving through their
 * shims); network-partition = disconnect from the cluster network, wait, reconnect; node-delete = stop the
 * container, delete the Node object, start the container again after the duration (if one is given; otherwise at
 * the end of the run); shutdown = `systemctl poweroff` in the node (a graceful shutdown: logind lets the kubelet's
 * delay inhibitor run its shutdownGracePeriod first), effective when the container stopped, `docker start` after the
 * duration. On simulated nodes (kwok) every fault that silences a node is heartbeat loss (`stop-heartbeat`):
 * what the control plane sees of a power-off, freeze, kubelet stop or partition alike; a reboot, kubelet restart or
 * runtime stop has no equivalent there.
 */
export const FAULTS = {
  reboot: { duration: 'none', timedInstead: 'power-off', primitives: [['restart']], clients: 'stopped' },
  'power-off': { duration: 'required', primitives: [['stop'], ['stop-heartbeat']], clients: 'stopped' },
  freeze: { duration: 'required', primitives: [['pause'], ['stop-heartbeat']], clients: 'paused' },
  'kubelet-stop': {
    duration: 'required', primitives: [['stop-kubelet'], ['stop-heartbeat']], clients: 'serving',
    clientNote: 'Under kubelet-stop the containers keep serving: the client figure equals the API figure (pods Ready and not terminating).',
  },
  'kubelet-restart': { duration: 'none', timedInstead: 'kubelet-stop', primitives: [['restart-kubelet']], clients: 'serving' },
  'runtime-stop': { duration: 'required', primitives: [['stop-runtime']], clients: 'serving' },
  'network-partition': {
    duration: 'required', primitives: [['disconnect'], ['stop-heartbeat']], clients: 'paused',
    // Only the API server's traffic is dropped: the kubelet cannot report, the pods keep serving clients and each other.
    scopes: { 'control-plane': { primitives: [['partition-api-server'], ['stop-heartbeat']], clients: 'serving' } },
  },
  'node-delete': { duration: 'optional', primitives: [['stop', 'delete-node-object'], ['stop-heartbeat', 'delete-node-object']], clients: 'stopped' },
  // A graceful shutdown: needs the kubelet's shutdownGracePeriod (validation), kind only (no simulated equivalent).
  shutdown: {
    duration: 'required', primitives: [['shutdown']], clients: 'stopped',
    clientNote: 'Under shutdown the kubelet kills the pods during its shutdown grace period, after the command: the client figure counts from the command, before they stopped serving.',
  },
} as const satisfies Record<string, FaultRecord>;

/**
 * A fault type, a key of {@link FAULTS}: reboot = `docker restart`; power-off = stop, wait, start; freeze = pause,
 * wait, unpause; kubelet-stop = `systemctl stop kubelet`, wait, start; kubelet-restart = `systemctl restart kubelet`
 * (containers keep running); runtime-stop = `systemctl stop containerd`, wait, start; network-partition = disconnect
 * from the cluster network, wait, reconnect; node-delete = stop the node, delete the Node object, start it again after
 * the duration (if one is given; otherwise at the end of the run); shutdown = `systemctl poweroff` in the node (graceful:
 * the kubelet's shutdownGracePeriod), start after the duration. On kwok every one that silences a node is heartbeat loss.
 */
export type FaultType = keyof typeof FAULTS;

/** Every fault type, in catalogue order. */
export const FAULT_TYPES = Object.keys(FAULTS) as FaultType[];

/** Whether `type` is a fault type (own keys only: `toString` is none). */
export function isFaultType(type: unknown): type is FaultType {
  return typeof type === 'string' && Object.hasOwn(FAULTS, type);
}

/** The record of `type`, or undefined for a name that is no fault type (a journal's `script`, `power-off+cordon`). */
export function faultRecord(type: string | null): FaultRecord | undefined {
  return type !== null && isFaultType(type) ? FAULTS[type] : undefined;
}

/** Fault types that need a `duration`. */
export const FAULT_TYPES_WITH_DURATION: readonly FaultType[] = FAULT_TYPES.filter((t) => FAULTS[t].duration === 'required');
/** Fault types that are over as soon as their command returned: no duration, nothing to restore later. */
export const INSTANT_FAULT_TYPES: readonly FaultType[] = FAULT_TYPES.filter((t) => FAULTS[t].duration === 'none');

/** Fault types that take a `fault.scope` other than `node` (network-partition). */
export const SCOPED_FAULT_TYPES: readonly FaultType[] = FAULT_TYPES.filter((t) => (FAULTS[t] as FaultRecord).scopes !== undefined);

/** Whether fault `type` takes `scope` (every type takes `node`, the default). */
export function takesScope(type: FaultType, scope: PartitionScope): boolean {
  return scope === 'node' || (FAULTS[type] as FaultRecord).scopes?.[scope] !== undefined;
}

/** The alternatives of `type` of `scope` (its scope record's when it has one, else the type's own). */
export function primitiveAlternatives(type: FaultType, scope: PartitionScope = 'node'): readonly (readonly NodeAction[])[] {
  const record: FaultRecord = FAULTS[type];
  return (scope === 'node' ? undefined : record.scopes?.[scope]?.primitives) ?? record.primitives;
}

/**
 * The primitives of `type` (of `scope`) on a cluster that supports `actions`: the first alternative whose every
 * action is supported, or null when none is.
 */
export function primitivesAmong(type: FaultType, actions: ReadonlySet<NodeAction> | readonly NodeAction[], scope: PartitionScope = 'node'): readonly NodeAction[] | null {
  const has = (a: NodeAction) => (Array.isArray(actions) ? (actions as readonly NodeAction[]).includes(a) : (actions as ReadonlySet<NodeAction>).has(a));
  return primitiveAlternatives(type, scope).find((alternative) => alternative.every(has)) ?? null;
}

/**
 * What the Service's clients lose under fault `type` of `scope` (the scope's record, else the type's): a
 * network-partition of scope control-plane keeps serving. Types no record names (a script's node action): `serving`.
 */
export function clientImpactOf(type: string | null, scope: PartitionScope | null = null): ClientImpact {
  const record = faultRecord(type);
  if (!record) return 'serving';
  return (scope === null || scope === 'node' ? undefined : record.scopes?.[scope]?.clients) ?? record.clients;
}

/** The fault types a provider's clusters (with `backend`) can inject, in catalogue order. */
export function injectableFaultTypes(provider: ProviderName, backend?: BackendName | 'provider'): FaultType[] {
  const actions = providerActions(provider, backend);
  return FAULT_TYPES.filter((t) => primitivesAmong(t, actions) !== null);
}

/** Why `type` cannot run on `provider` (validation's line), using the provider's own wording when it has one. */
export function cannotInjectMessage(type: string, provider: ProviderName): string {
  const capabilities: ProviderCapabilities = PROVIDERS[provider];
  const injectable = injectableFaultTypes(provider);
  return capabilities.cannotInject?.(type, injectable) ?? `${type} cannot be injected with provider ${provider}; use ${injectable.join(', ')}`;
}

// The experiment format's own union (schema/experiment.schema.json is generated from it) must name exactly these types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const FORMAT_NAMES_EVERY_FAULT_TYPE: Same<v1.Fault['type'], FaultType> = true;
void FORMAT_NAMES_EVERY_FAULT_TYPE;
