// The `agent` fault backend (placeholder until it lands; see issue 14 item 4).
import { InputError } from '../../common/errors.js';
import type { FaultBackend } from '../../spec/types.js';
import type { ExistingCluster, NodeBackend } from './cluster.js';

/** @throws InputError: not implemented yet. */
export function createAgentBackend(_backend: Extract<FaultBackend, { kind: 'agent' }>, _cluster: ExistingCluster): NodeBackend {
  throw new InputError('fault.backend: agent is not implemented yet; use {command: {off, on}}');
}
