// Consent before touching a cluster rebootlab does not own: a fault on provider `existing` needs the command
// line to name the experiment's context (`--allow-faults-on <context>`), and a control-plane target needs both
// `fault.allowControlPlane` in the file and `--allow-control-plane` on the command line. Checked before anything
// is created, read from or written to the cluster.
import { InputError } from '../common/errors.js';
import { allowFaultsOn } from '../cluster/existing/consent.js';
import { fillPlaceholders } from '../cluster/existing/placeholders.js';
import { declareUserUndos, type DeclaredUserUndo } from '../faults/restore-commands.js';
import type { LoadedExperiment } from '../spec/types.js';

/** What the command line allows. */
export interface FaultConsent {
  /** `--allow-faults-on`: the kubeconfig context faults may be injected on; undefined when not given. */
  allowFaultsOn?: string;
  /** `--allow-control-plane`: control-plane nodes of that context may be targets (if the experiment allows it too). */
  allowControlPlane?: boolean;
}

/**
 * Checks every variant of `loaded` against `consent`. Kind and kwok clusters are rebootlab's own: no consent needed.
 * @throws InputError (one line, exit 2) without `--allow-faults-on`, with another context, or with a control-plane
 *   target allowed only on one side.
 */
export function checkFaultConsent(loaded: Pick<LoadedExperiment, 'file' | 'variants'>, consent: FaultConsent): void {
  for (const { experiment } of loaded.variants) {
    const existing = experiment.cluster.existing;
    if (!existing) continue;
    const context = existing.context;
    if (consent.allowFaultsOn === undefined) {
      throw new InputError(`${loaded.file}: cluster.context ${context} is a cluster rebootlab does not own; to inject ${experiment.fault.type} there, run again with --allow-faults-on ${context}`);
    }
    if (consent.allowFaultsOn !== context) {
      throw new InputError(`${loaded.file}: --allow-faults-on ${consent.allowFaultsOn} does not match cluster.context ${context}; nothing was touched`);
    }
    if (experiment.fault.allowControlPlane && !consent.allowControlPlane) {
      throw new InputError(`${loaded.file}: fault.allowControlPlane is true; control-plane nodes of ${context} are targets only with --allow-control-plane as well`);
    }
  }
  if (consent.allowControlPlane && consent.allowFaultsOn === undefined) {
    throw new InputError('--allow-control-plane needs --allow-faults-on <context>');
  }
  declareUserUndos(userUndosOf(loaded));
  if (consent.allowFaultsOn !== undefined) allowFaultsOn(consent.allowFaultsOn);
}

/**
 * The `fault.backend.command.on` of each variant on a consented existing cluster: the user command undos a left
 * pending-restore.json may replay during this run (lib/faults/restore-commands.ts explains why only these).
 */
function userUndosOf(loaded: Pick<LoadedExperiment, 'variants'>): DeclaredUserUndo[] {
  const undos: DeclaredUserUndo[] = [];
  for (const { experiment } of loaded.variants) {
    const ref = experiment.cluster.existing;
    const backend = experiment.fault.backend;
    if (!ref || backend.kind !== 'command' || undos.some((u) => u.context === ref.context && u.template === backend.on)) continue;
    undos.push({
      context: ref.context,
      template: backend.on,
      // lib/cluster is loaded only when a left file asks: validate and --help stay free of the Kubernetes client.
      currentFacts: async (node) => (await import('../cluster/existing/index.js')).readNodeFacts(ref, node),
      fill: fillPlaceholders,
    });
  }
  return undos;
}
