// The only commands a pending-restore.json may make rebootlab run: its own undo actions, parsed back from the
// argv it wrote (lib/cluster/kind/actions.ts, lib/cluster/node-api-actions.ts, lib/cluster/kwok/actions.ts) and
// checked against the clusters rebootlab owns. Anything else in the file is refused, never run.
import { basename, dirname, relative } from 'node:path';
import { escapeControlOrBidi, hasControlOrBidi, hiddenCharacterInScript } from '../common/errors.js';
import { API_PARTITION_UNDO } from '../cluster/api-partition.js';
import { RESTART_POLICY } from '../cluster/kind/restart-policy.js';
import type { RestoreTargets } from '../cluster/restore-targets.js';
import { labelKeyProblem, labelValueProblem, PROTECTED_NODE_LABELS } from '../spec/label-syntax.js';

/** A restore command rebootlab itself writes, parsed. `argv` is what will run, rebuilt from the parsed fields. */
export type ParsedRestoreCommand =
  | { via: 'docker'; container: string; undo: 'unpause' | 'start' | 'start-kubelet' | 'restart-kubelet' | 'start-containerd' | 'remove-api-partition'; argv: string[] }
  | { via: 'docker'; container: string; undo: 'network-connect'; network: string; ip: string | null; argv: string[] }
  | { via: 'docker'; container: string; undo: 'restart-policy'; policy: string; argv: string[] }
  | { via: 'kubectl'; kubeconfig: string; node: string; undo: 'uncordon' | 'untaint-out-of-service' | 'relabel-kwok-managed' | 'restore-label'; argv: string[] }
  | { via: 'kubectl'; kubeconfig: string; node: string; undo: 'recreate-node'; manifest: string; argv: string[] }
  | { via: 'user-command'; context: string; template: string; facts: UserUndoFacts };

/** The node facts a user command undo was filled with (lib/cluster/existing/command-backend.ts NodeFacts). */
export interface UserUndoFacts {
  node: string;
  providerID: string;
  zone: string;
  internalIP: string;
}

/**
 * A user command undo (`fault.backend.command.on`) that the running invocation vouches for: the experiment being run
 * declares this `on` for this context, and the command line consented with `--allow-faults-on <context>`.
 */
export interface DeclaredUserUndo {
  context: string;
  /** The `on` template as written, e.g. `virsh start {node}`. */
  template: string;
  /** The node's current facts, or null when the context has no such Node (deleted by node-delete). @throws when the API cannot be asked. */
  currentFacts(node: string): Promise<UserUndoFacts | null>;
  /** Fills the template (lib/cluster/existing fillPlaceholders). @throws InputError for an unsafe or empty value. */
  fill(template: string, facts: UserUndoFacts): string;
}

/**
 * The user command undos this process may replay from a pending-restore.json. A user command is the user's own shell
 * text, so it never runs because a file on disk says so: only when the experiment now being run (with consent)
 * declares the same `on` for the same context, which the user is about to run anyway. Empty by default (doctor
 * --restore then prints them to run by hand).
 */
let declaredUserUndos: readonly DeclaredUserUndo[] = [];

/** Sets the user command undos this process vouches for (lib/run/consent.ts, after consent was checked). */
export function declareUserUndos(undos: readonly DeclaredUserUndo[]): void {
  declaredUserUndos = [...undos];
}

/** The out-of-service taint removal rebootlab writes (node-api-actions.ts OUT_OF_SERVICE_TAINT). */
const UNTAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service:NoExecute-';
/** The kwok heartbeat label restore (kwok/flags.ts KWOK_MANAGED_LABEL=KWOK_MANAGED_VALUE). */
const KWOK_MANAGED_RESTORE = 'rebootlab.dev/kwok-heartbeat=on';
/** Kubernetes node names and Docker container names rebootlab acts on: DNS-1123 subdomains. */
const NODE_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
/** Docker network names: kind's `kind` network or another plain name. */
const NETWORK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** `key=value` of a label a step changed (lib/cluster/node-api-actions.ts label-node/unlabel-node), never a protected one. */
const isStepLabel = (text: string): boolean => {
  const eq = text.indexOf('=');
  const key = text.slice(0, eq);
  return eq > 0 && labelKeyProblem(key) === null && labelValueProblem(text.slice(eq + 1)) === null && !PROTECTED_NODE_LABELS.includes(key);
};
/** `key-` (remove a label) of a label a step set where there was none. */
const isStepLabelRemoval = (text: string): boolean => text.endsWith('-') && labelKeyProblem(text.slice(0, -1)) === null && !PROTECTED_NODE_LABELS.includes(text.slice(0, -1));

const same = (argv: readonly string[], ...expected: (string | RegExp)[]): boolean =>
  argv.length === expected.length && expected.every((e, i) => (typeof e === 'string' ? argv[i] === e : e.test(argv[i] ?? '')));

/**
 * A restore command (argv) as one line of text for messages: its words joined by spaces, a word holding a control
 * or bidirectional formatting character (lib/common/errors.ts CONTROL_OR_BIDI_CLASS: a newline, tab or escape, C1,
 * U+2028, U+2029, a bidi mark, embedding, override or isolate such as U+202E) written as a JSON string with every
 * such character escaped, so that the line stays one line and shows the word in the order it is stored; any other
 * word a shell would not read as itself (a space, `;`, `$`, a quote) in single quotes, so that the line a user is
 * told to run by hand runs that one command. Never throws.
 */
export function restoreCommandText(argv: readonly string[]): string {
  return argv.map((w) => (hasControlOrBidi(w) ? escapeControlOrBidi(JSON.stringify(w)) : SHELL_SAFE_WORD.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`)).join(' ');
}

/** A word a POSIX shell reads as itself; any other is single-quoted, so a refused `docker start C; touch x` pasted by hand stays one argument. */
const SHELL_SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Parses one restore command (an argv array from pending-restore.json). Accepted, exactly:
 * `docker unpause C`, `docker start C`, `docker network connect [--ip IPv4] NET C`, `docker update --restart=P C` (the
 * shutdown action's restart policy put back: P exactly one of `no`, `always`, `unless-stopped`, `on-failure`,
 * `on-failure:N` with N from 1 to 999, lib/cluster/kind/restart-policy.ts RESTART_POLICY; flag and value one word),
 * `docker exec C systemctl start|restart kubelet`, `docker exec C systemctl start containerd`, `docker exec C sh -c <the
 * constant API_PARTITION_UNDO>` (only that text: it names no address),
 * `kubectl --kubeconfig K uncordon N`, `kubectl --kubeconfig K taint node N node.kubernetes.io/out-of-service:NoExecute-`,
 * `kubectl --kubeconfig K label node N rebootlab.dev/kwok-heartbeat=on --overwrite`, `kubectl --kubeconfig K create -f <dir>/N.yaml`,
 * `kubectl --kubeconfig K label node N key=value --overwrite` and `kubectl --kubeconfig K label node N key-` (a label a
 * step changed, put back; valid label syntax, never the hostname, control-plane role or kwok heartbeat label), and
 * `rebootlab-user-undo <context> <template> <node> <providerID> <zone> <internalIP>` (a `fault.backend.command.on`:
 * node a DNS-1123 name, context one line of text, template without a control or bidirectional formatting character
 * but line breaks and tabs, as validation lets into an experiment).
 * Never throws: anything else resolves to `{ error }`, one line naming the command ({@link restoreCommandText}).
 */
export function parseRestoreCommand(argv: unknown): ParsedRestoreCommand | { error: string } {
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) return { error: `not a command line: ${JSON.stringify(argv)}` };
  const a = argv as string[];
  const text = restoreCommandText(a);
  const refuse = { error: `not one of rebootlab's undo commands: ${text}` };
  if (a[0] === 'docker') {
    // The one docker command whose last word is not the container: the constant undo of a control-plane partition.
    if (same(a, 'docker', 'exec', NODE_NAME, 'sh', '-c', API_PARTITION_UNDO)) {
      return { via: 'docker', container: a[2]!, undo: 'remove-api-partition', argv: ['docker', 'exec', a[2]!, 'sh', '-c', API_PARTITION_UNDO] };
    }
    const c = a[a.length - 1]!;
    if (!NODE_NAME.test(c)) return refuse;
    if (same(a, 'docker', 'unpause', NODE_NAME)) return { via: 'docker', container: c, undo: 'unpause', argv: ['docker', 'unpause', c] };
    if (same(a, 'docker', 'start', NODE_NAME)) return { via: 'docker', container: c, undo: 'start', argv: ['docker', 'start', c] };
    if (same(a, 'docker', 'update', /^--restart=/, NODE_NAME)) {
      const policy = a[2]!.slice('--restart='.length);
      if (!RESTART_POLICY.test(policy)) return refuse;
      return { via: 'docker', container: c, undo: 'restart-policy', policy, argv: ['docker', 'update', `--restart=${policy}`, c] };
    }
    if (same(a, 'docker', 'network', 'connect', NETWORK_NAME, NODE_NAME)) {
      return { via: 'docker', container: c, undo: 'network-connect', network: a[3]!, ip: null, argv: ['docker', 'network', 'connect', a[3]!, c] };
    }
    if (same(a, 'docker', 'network', 'connect', '--ip', IPV4, NETWORK_NAME, NODE_NAME)) {
      return { via: 'docker', container: c, undo: 'network-connect', network: a[5]!, ip: a[4]!, argv: ['docker', 'network', 'connect', '--ip', a[4]!, a[5]!, c] };
    }
    if (same(a, 'docker', 'exec', NODE_NAME, 'systemctl', /^(start|restart)$/, 'kubelet')) {
      const verb = a[4]!;
      return { via: 'docker', container: a[2]!, undo: verb === 'start' ? 'start-kubelet' : 'restart-kubelet', argv: ['docker', 'exec', a[2]!, 'systemctl', verb, 'kubelet'] };
    }
    if (same(a, 'docker', 'exec', NODE_NAME, 'systemctl', 'start', 'containerd')) {
      return { via: 'docker', container: a[2]!, undo: 'start-containerd', argv: ['docker', 'exec', a[2]!, 'systemctl', 'start', 'containerd'] };
    }
    return refuse;
  }
  if (a[0] === 'rebootlab-user-undo' && a.length === 7) {
    const [, context, template, node, providerID, zone, internalIP] = a as [string, string, string, string, string, string, string];
    if (!NODE_NAME.test(node)) return refuse;
    // rebootlab writes the `on` of an experiment that passed validation (lib/spec/existing-check.ts): no control or
    // bidirectional formatting character but line breaks and tabs, and a context name on one line.
    if (context === '' || hasControlOrBidi(context) || hiddenCharacterInScript(template) !== null) return refuse;
    return { via: 'user-command', context, template, facts: { node, providerID, zone, internalIP } };
  }
  if (a[0] === 'kubectl' && a[1] === '--kubeconfig' && typeof a[2] === 'string' && a[2].startsWith('/')) {
    const k = a[2];
    const rest = a.slice(3);
    if (same(rest, 'uncordon', NODE_NAME)) return { via: 'kubectl', kubeconfig: k, node: rest[1]!, undo: 'uncordon', argv: ['kubectl', '--kubeconfig', k, 'uncordon', rest[1]!] };
    if (same(rest, 'taint', 'node', NODE_NAME, UNTAINT_OUT_OF_SERVICE)) {
      return { via: 'kubectl', kubeconfig: k, node: rest[2]!, undo: 'untaint-out-of-service', argv: ['kubectl', '--kubeconfig', k, 'taint', 'node', rest[2]!, UNTAINT_OUT_OF_SERVICE] };
    }
    if (same(rest, 'label', 'node', NODE_NAME, KWOK_MANAGED_RESTORE, '--overwrite')) {
      return { via: 'kubectl', kubeconfig: k, node: rest[2]!, undo: 'relabel-kwok-managed', argv: ['kubectl', '--kubeconfig', k, 'label', 'node', rest[2]!, rest[3]!, '--overwrite'] };
    }
    if (same(rest, 'label', 'node', NODE_NAME, /./, '--overwrite') && isStepLabel(rest[3]!)) {
      return { via: 'kubectl', kubeconfig: k, node: rest[2]!, undo: 'restore-label', argv: ['kubectl', '--kubeconfig', k, 'label', 'node', rest[2]!, rest[3]!, '--overwrite'] };
    }
    if (same(rest, 'label', 'node', NODE_NAME, /./) && isStepLabelRemoval(rest[3]!)) {
      return { via: 'kubectl', kubeconfig: k, node: rest[2]!, undo: 'restore-label', argv: ['kubectl', '--kubeconfig', k, 'label', 'node', rest[2]!, rest[3]!] };
    }
    if (same(rest, 'create', '-f', /^\/.*\.yaml$/)) {
      const manifest = rest[2]!;
      const node = basename(manifest, '.yaml');
      if (!NODE_NAME.test(node) || relative(dirname(manifest), manifest) !== `${node}.yaml`) return refuse;
      return { via: 'kubectl', kubeconfig: k, node, undo: 'recreate-node', manifest, argv: ['kubectl', '--kubeconfig', k, 'create', '-f', manifest] };
    }
  }
  return refuse;
}

/**
 * Parses and checks one restore command: it must be one of rebootlab's undo commands ({@link parseRestoreCommand})
 * and act on a node of a cluster rebootlab made (docker: the container carries the cluster label and the cluster's
 * owner record knows it; kubectl: the kubeconfig is that cluster's own file and the node one of its nodes).
 * Resolves to the argv to run (and, for a reconnect with `--ip`, the `fallback` without it), or `{ error }` (one line;
 * `unchecked` when Docker could not be asked; with `gone` when the node or cluster no longer exists, so
 * there is nothing to restore). @throws InfraError only when Docker cannot be asked.
 */
export async function checkRestoreCommand(argv: unknown, targets: RestoreTargets): Promise<{ argv: string[]; fallback?: string[] } | { error: string; gone?: boolean; unchecked?: boolean }> {
  const parsed = parseRestoreCommand(argv);
  if ('error' in parsed) return parsed;
  if (parsed.via === 'user-command') return checkUserUndo(parsed);
  if (parsed.via === 'docker') {
    const owner = await targets.kindNodeContainer(parsed.container);
    if (!owner.ok) return { error: owner.reason, ...(owner.gone ? { gone: true } : {}), ...(owner.unchecked ? { unchecked: true } : {}) };
    // Docker refuses --ip on kind's network (its subnet is not user-configured) and when the address was taken
    // meanwhile: then connect without it, as the live undo does (lib/cluster/kind/actions.ts reconnect).
    if (parsed.undo === 'network-connect' && parsed.ip !== null) return { argv: parsed.argv, fallback: ['docker', 'network', 'connect', parsed.network, parsed.container] };
    return { argv: parsed.argv };
  }
  const owner = await targets.clusterOfKubeconfig(parsed.kubeconfig);
  if (!owner.ok) return { error: owner.reason, ...(owner.gone ? { gone: true } : {}), ...(owner.unchecked ? { unchecked: true } : {}) };
  if (owner.nodes !== null && !owner.nodes.has(parsed.node)) return { error: `${parsed.node} is not a node of cluster ${owner.cluster}: ${parsed.argv.join(' ')}` };
  if (parsed.undo === 'recreate-node' && (owner.manifestDir === null || dirname(parsed.manifest) !== owner.manifestDir)) {
    return { error: `${parsed.manifest} is not a node manifest rebootlab saved for cluster ${owner.cluster}` };
  }
  return { argv: parsed.argv };
}

/**
 * A user command undo runs as `sh -c <filled on>` only when {@link declareUserUndos} vouches for its context and
 * template; it is filled with the node's current facts (the file's own only when the Node object is gone, e.g. after
 * node-delete; every value still restricted to characters a shell does not interpret).
 */
async function checkUserUndo(parsed: Extract<ParsedRestoreCommand, { via: 'user-command' }>): Promise<{ argv: string[] } | { error: string }> {
  const declared = declaredUserUndos.find((d) => d.context === parsed.context && d.template === parsed.template);
  const byHand = `"${parsed.template}" for node ${parsed.facts.node} of context ${parsed.context}`;
  if (!declared) {
    return { error: `user command undo ${byHand} is replayed only by a run of an experiment declaring it with --allow-faults-on ${parsed.context}; run it by hand` };
  }
  try {
    const facts = (await declared.currentFacts(parsed.facts.node)) ?? parsed.facts;
    return { argv: ['sh', '-c', declared.fill(declared.template, facts)] };
  } catch (error) {
    return { error: `user command undo ${byHand}: ${(error as Error).message.split('\n')[0]}` };
  }
}
