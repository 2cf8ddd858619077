// The `command` fault backend: the user's own out-of-band power commands (`gcloud compute instances stop {node}`,
// `virsh destroy {node}`, `vagrant halt {node}`, `docker stop {node}`), run by `sh -c` on this machine. `off` is
// the action, `on` its undo; the undo is handed to the fault guard before `off` runs.
import type { V1Node } from '@kubernetes/client-node';
import { InputError } from '../../common/errors.js';
import { run } from '../../common/exec.js';
import type { NodeActionPlan } from '../act-with-undo.js';
import type { NodeAction } from '../provider.js';
import type { NodeBackend } from './cluster.js';
import { ZONE_LABEL } from './labels.js';

/** A power command may take this long before it counts as failed, milliseconds (cloud APIs stop a VM in 30–90 s). */
export const COMMAND_TIMEOUT_MS = 300_000;

/** The facts of a node that fill the placeholders `{node}`, `{providerID}`, `{zone}`, `{internalIP}`. */
export interface NodeFacts {
  node: string;
  /** `spec.providerID`, e.g. `gce://project/us-central1-a/vm-1`; '' when unset (kind, bare VMs). */
  providerID: string;
  /** `topology.kubernetes.io/zone` label; '' when unset. */
  zone: string;
  /** The node's InternalIP address; '' when it has none. */
  internalIP: string;
}

/**
 * Characters a placeholder value may hold. Values are put into a shell command line unquoted (the user may quote
 * them in their own template), so anything a shell would interpret is refused instead of escaped.
 */
const SAFE_VALUE = /^[A-Za-z0-9._:/@-]*$/;

/** The placeholder facts of a Node object. */
export function nodeFacts(node: V1Node): NodeFacts {
  return {
    node: node.metadata?.name ?? '',
    providerID: node.spec?.providerID ?? '',
    zone: node.metadata?.labels?.[ZONE_LABEL] ?? '',
    internalIP: node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '',
  };
}

/**
 * `template` with every `{node}`, `{providerID}`, `{zone}`, `{internalIP}` replaced by the node's value.
 * @throws InputError (one line) when a used placeholder is empty for this node or holds a character a shell would
 *   interpret, naming the node and the placeholder.
 */
export function fillPlaceholders(template: string, facts: NodeFacts): string {
  return template.replace(/\{(node|providerID|zone|internalIP)\}/g, (_, key: keyof NodeFacts) => {
    const value = facts[key];
    if (value === '') throw new InputError(`fault.backend.command: {${key}} is empty for node ${facts.node}; use another placeholder`);
    if (!SAFE_VALUE.test(value)) throw new InputError(`fault.backend.command: {${key}} of node ${facts.node} is ${JSON.stringify(value)}, which rebootlab will not put into a shell command`);
    return value;
  });
}

/** Runs one filled command with `sh -c`. @throws CommandError (InfraError) with its last stderr line. */
export function runShell(command: string, timeoutMs = COMMAND_TIMEOUT_MS): Promise<string> {
  return run('sh', ['-c', command], { timeoutMs, hint: 'Check fault.backend.command; run it by hand to see the whole output' });
}

/**
 * The argv of a user command undo in pending-restore.json: `rebootlab-user-undo <context> <template> <node>
 * <providerID> <zone> <internalIP>`. Not a command by itself: lib/faults/restore-commands.ts rebuilds
 * `sh -c <filled template>` from it only when the running experiment declares the same `on` for the same context.
 */
export function userUndoRestoreCommand(context: string, template: string, facts: NodeFacts): string[] {
  return ['rebootlab-user-undo', context, template, facts.node, facts.providerID, facts.zone, facts.internalIP];
}

/** The command backend of an existing cluster named `context`: power-off (`stop`) only. */
export function createCommandBackend(backend: { off: string; on: string }, context: string, runCommand = runShell): NodeBackend {
  return {
    actions: new Set<NodeAction>(['stop']),
    async plan(node: V1Node, action: NodeAction): Promise<NodeActionPlan> {
      if (action !== 'stop') throw new InputError(`fault.backend command powers nodes off and on; it cannot do ${action}`);
      if (backend.on.trim() === '') throw new InputError('fault.backend.command.on is required: the command that brings the node back, registered as the undo before off runs');
      const facts = nodeFacts(node);
      const off = fillPlaceholders(backend.off, facts);
      const on = fillPlaceholders(backend.on, facts);
      return {
        restoreCommands: [userUndoRestoreCommand(context, backend.on, facts)],
        act: async () => void (await runCommand(off)),
        undo: async () => void (await runCommand(on)),
      };
    },
  };
}
