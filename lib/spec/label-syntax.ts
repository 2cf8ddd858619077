// Kubernetes label syntax (keys and values), checked before a label reaches the API or a restore command line.
// Rules of k8s.io/apimachinery/pkg/util/validation (IsQualifiedName, IsValidLabelValue), v0.34.

/** A DNS-1123 subdomain: a label key's optional prefix, at most 253 characters. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** A DNS-1123 label (IsDNS1123Label): a name part of a subdomain, a namespace, a Service or workload name. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A label key's name part and a label value: alphanumerics, `-`, `_`, `.`, starting and ending alphanumeric. */
const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * Node labels a step may not change: the node's name as the scheduler and rebootlab's placement read it, the
 * control-plane role rebootlab's target rules read, and kwok's heartbeat switch (lib/cluster/kwok/flags.ts).
 */
export const PROTECTED_NODE_LABELS: readonly string[] = ['kubernetes.io/hostname', 'node-role.kubernetes.io/control-plane', 'rebootlab.dev/kwok-heartbeat'];

/** Why `key` is not a label key (`[prefix/]name`, name ≤ 63 characters, prefix a DNS subdomain ≤ 253), or null when it is one. */
export function labelKeyProblem(key: string): string | null {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? null : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (prefix !== null && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) return `"${key}": the prefix before "/" must be a DNS subdomain (lowercase, e.g. example.com)`;
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) return `"${key}" is not a label key: at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit (optionally after a "prefix/")`;
  return null;
}

/** Why `value` is not a label value (empty, or ≤ 63 characters of the same set), or null when it is one. */
export function labelValueProblem(value: string): string | null {
  if (value === '' || (value.length <= 63 && QUALIFIED_NAME.test(value))) return null;
  return `"${value}" is not a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit`;
}

/** Whether `name` is a DNS-1123 label: at most 63 lowercase letters, digits or "-", starting and ending with a letter or digit (IsDNS1123Label). */
export function isDnsLabel(name: string): boolean {
  return name.length <= 63 && DNS_LABEL.test(name);
}
