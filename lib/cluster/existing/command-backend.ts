// The `command` fault backend: the user's own out-of-band power commands (`gcloud compute instances stop {node}`,
// `virsh destroy {node}`, `vagrant halt {node}`, `docker stop {node}`), run by `sh -c` on this machine. `off` is
// the action, `on` its undo; the undo is handed to the fault guard before `off` runs.
import type { V1Node } from '@kubernetes/client-node';
import { InputError } from '../../common/errors.js';
export { fillPlaceholders, nodeFacts, type NodeFacts } from './placeholders.js';
import { run } from '../../common/exec.js';
import type { NodeActionPlan } from '../act-with-undo.js';
import type { NodeAction } from '../provider.js';
import { PROVIDERS } from '../../spec/providers.js';
import type { NodeBackend } from './cluster.js';
import { fillPlaceholders, nodeFacts, type NodeFacts } from './placeholders.js';
import type { ExistingClusterRef } from '../../spec/types.js';
import { apiError, apiErrorCode, coreApiFor } from '../kube-client.js';
import { writeContextKubeconfig } from './kubeconfig.js';

/** A power command may take this long before it counts as failed, milliseconds (cloud APIs stop a VM in 30–90 s). */
export const COMMAND_TIMEOUT_MS = 300_000;

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
    actions: new Set<NodeAction>(PROVIDERS.existing.backends.command),
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

/**
 * The facts of `node` on the context `ref` names, or null when there is no such Node.
 * @throws InputError for a bad kubeconfig or context; InfraError when the API server does not answer.
 */
export async function readNodeFacts(ref: ExistingClusterRef, node: string, env: NodeJS.ProcessEnv = process.env): Promise<NodeFacts | null> {
  const core = coreApiFor(writeContextKubeconfig(ref, env));
  try {
    return nodeFacts(await core.readNode({ name: node }));
  } catch (error) {
    if (apiErrorCode(error) === 404) return null;
    throw apiError(`read Node ${node}`, error);
  }
}
