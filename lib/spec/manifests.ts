// The user's own workloads: a manifest file (multi-document YAML) or a kustomize directory, read when the experiment
// is loaded. Each controller in it (Deployment, StatefulSet, DaemonSet, Job, Pod) becomes a workload of its own name,
// so timelines, outcomes and expectations group its pods as they do for built-in workloads.
import { statSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { InputError } from '../common/errors.js';
import { runSync } from '../common/exec.js';
import { readInputText } from '../common/read-input.js';
import { checkKeysAndAliases, MAX_FLOW_NESTING, tooDeepAt } from './source.js';
import { anchorPath } from './paths.js';
import { isDnsLabel } from './label-syntax.js';
import { dirname, resolve } from 'node:path';
import type { Experiment, WorkloadKind, WorkloadSpec } from './types.js';

/** Controllers whose pods rebootlab follows as a workload. */
const CONTROLLER_KINDS: readonly WorkloadKind[] = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'Pod'];
/**
 * Namespaced kinds a manifest may hold: everything goes into namespace `rebootlab`, removed at the end, so a
 * cluster-scoped object (Namespace, ClusterRole, PersistentVolume, StorageClass, CRDs) would outlive the run.
 */
export const MANIFEST_KINDS: readonly string[] = [
  ...CONTROLLER_KINDS, 'ReplicaSet', 'CronJob', 'Service', 'ConfigMap', 'Secret', 'ServiceAccount', 'PersistentVolumeClaim',
  'PodDisruptionBudget', 'Role', 'RoleBinding', 'NetworkPolicy', 'Ingress', 'HorizontalPodAutoscaler',
];
/** How long `kubectl kustomize` may take, milliseconds. */
const KUSTOMIZE_TIMEOUT_MS = 60_000;

/**
 * A copy of `experiment` with every manifest workload replaced by one workload per controller in its file.
 * @param file the experiment file; manifest paths are relative to its directory.
 * @throws InputError (one line naming `workloads[i].manifest` and the file) when the file cannot be read or parsed,
 *   holds a kind outside {@link MANIFEST_KINDS}, no controller, a controller whose name is no DNS-1123 label or is
 *   another workload's, or a replicas / parallelism that is no whole number ≥ 0.
 */
export function expandManifestWorkloads(experiment: Experiment, file: string): Experiment {
  if (!experiment.workloads.some((w) => w.manifest)) return experiment;
  const baseDir = dirname(resolve(file));
  const workloads: WorkloadSpec[] = [];
  experiment.workloads.forEach((w, index) => {
    if (!w.manifest) return void workloads.push(w);
    const where = `${file}: workloads[${index}].manifest`;
    const path = anchorPath(w.manifest.file, baseDir);
    const objects = readObjects(path, where);
    const controllers = objects.filter((o) => (CONTROLLER_KINDS as readonly string[]).includes(String(o.kind)));
    if (controllers.length === 0) throw new InputError(`${where}: ${path} has no ${CONTROLLER_KINDS.join(', ')}; rebootlab follows the pods of those`);
    const others = objects.filter((o) => !controllers.includes(o));
    controllers.forEach((controller, i) => {
      const name = String((controller.metadata as { name?: unknown } | undefined)?.name ?? '');
      const kind = controller.kind as WorkloadKind;
      const spec = (controller.spec ?? {}) as { replicas?: unknown; parallelism?: unknown };
      const field = kind === 'Job' ? 'parallelism' : 'replicas';
      const given = kind === 'DaemonSet' || kind === 'Pod' ? undefined : spec[field];
      // Counted against MAX_PODS and used to place and predict pods: a NaN ("three") would pass every limit.
      if (given !== undefined && given !== null && !(Number.isSafeInteger(given) && (given as number) >= 0)) {
        throw new InputError(`${where}: ${path}: ${kind} ${name}: spec.${field} must be a whole number ≥ 0, got ${JSON.stringify(given)?.slice(0, 40)}`);
      }
      const replicas = kind === 'DaemonSet' ? null : kind === 'Pod' ? 1 : Number(given ?? 1);
      // The name becomes the workload's: the value of its pods' rebootlab.dev/workload label and `workloads.<name>` in
      // expectations. Kubernetes would refuse a bad one only once a cluster was made (a Pod's name may hold dots, a label value not `/`).
      if (!isDnsLabel(name)) {
        throw new InputError(`${where}: ${path}: ${kind} ${JSON.stringify(name).slice(0, 80)}: metadata.name must be a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit, at most 63 characters): it names the workload`);
      }
      if (workloads.some((other) => other.name === name)) throw new InputError(`${where}: ${kind} ${name} has the name of another workload; names must be unique`);
      workloads.push({ ...w, name, kind, replicas, manifest: { file: path, objects: i === 0 ? [controller, ...others] : [controller] } });
    });
  });
  return { ...experiment, workloads };
}

/** Largest manifest file read, bytes: an application's manifests are kilobytes; 16 MiB bounds the parser's work. */
const MAX_MANIFEST_BYTES = 16 * 1024 ** 2;

/** The objects of a manifest file, or of `kubectl kustomize <dir>`. @throws InputError naming `where`. */
function readObjects(path: string, where: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = statSync(path).isDirectory()
      ? runSync('kubectl', ['kustomize', path], { timeoutMs: KUSTOMIZE_TIMEOUT_MS })
      : readInputText(path, { maxBytes: MAX_MANIFEST_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : error instanceof InputError ? error.message.slice(`${path}: cannot read: `.length) : (error as Error).message.split('\n')[0];
    throw new InputError(`${where}: cannot read ${path}: ${reason}`, undefined, { cause: error });
  }
  const objects: Record<string, unknown>[] = [];
  // Duplicate keys and alias cycles checked in linear time (lib/spec/source.ts), not by the parser's pairwise check.
  if (tooDeepAt(text) !== null) throw new InputError(`${where}: ${path}: lists and mappings nested more than ${MAX_FLOW_NESTING} levels in [ ] or { }`);
  for (const doc of parseAllDocuments(text, { uniqueKeys: false })) {
    if (doc.errors.length > 0) throw new InputError(`${where}: ${path}: ${doc.errors[0]!.message.split('\n')[0]}`);
    const structural = checkKeysAndAliases(doc, (_offset, message) => ({ file: path, path: '', message }))[0];
    if (structural) throw new InputError(`${where}: ${path}: ${structural.message}`);
    let value: unknown;
    try {
      value = doc.toJS() as unknown;
    } catch (error) {
      throw new InputError(`${where}: ${path}: ${(error as Error).message.split('\n')[0]}`, undefined, { cause: error });
    }
    if (value === null || value === undefined) continue; // an empty document (a trailing ---)
    if (typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${where}: ${path}: a document is not a Kubernetes object`);
    const object = value as Record<string, unknown>;
    const kind = String(object.kind ?? '');
    const name = (object.metadata as { name?: unknown } | undefined)?.name;
    if (typeof object.apiVersion !== 'string' || kind === '' || typeof name !== 'string') {
      throw new InputError(`${where}: ${path}: every object needs apiVersion, kind and metadata.name`);
    }
    if (!MANIFEST_KINDS.includes(kind)) {
      throw new InputError(`${where}: ${path}: ${kind} ${name} is not one of the namespaced kinds rebootlab applies (${MANIFEST_KINDS.join(', ')}); everything goes into namespace rebootlab and is removed at the end`);
    }
    objects.push(object);
  }
  return objects;
}
