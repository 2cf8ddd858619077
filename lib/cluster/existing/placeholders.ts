// The placeholders of backend commands, `{node}`, `{providerID}`, `{zone}`, `{internalIP}`, filled from a Node
// object. No Kubernetes client here (types only): the CLI loads it to vouch for user undos without the client.
import type { V1Node } from '@kubernetes/client-node';
import { InputError } from '../../common/errors.js';
import { ZONE_LABEL } from '../labels.js';

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
