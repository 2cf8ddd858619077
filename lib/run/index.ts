// Composition root of a run (stub written by the CLI owner until the lead implements it).
import { InfraError } from '../common/errors.js';
import type {
  ClusterCommandOptions,
  CommandOutcome,
  CompareOptions,
  DoctorOptions,
  ReportOptions,
  RunOptions,
  ToolchainOptions,
} from './options.js';

export type * from './options.js';

/** Runs every variant of an experiment. @throws InputError on a bad file, InfraError on infrastructure failure. */
export async function runExperiment(_options: RunOptions): Promise<CommandOutcome> {
  throw new InfraError('rebootlab run: not implemented yet');
}

/** Checks the environment (Docker, kind, kubectl, kernel). @throws InfraError listing what is missing. */
export async function runDoctor(_options: DoctorOptions): Promise<CommandOutcome> {
  throw new InfraError('rebootlab doctor: not implemented yet');
}

/** Installs or shows the pinned toolchain. @throws InfraError when a download or build fails. */
export async function runToolchain(_options: ToolchainOptions): Promise<CommandOutcome> {
  throw new InfraError('rebootlab toolchain: not implemented yet');
}

/** Creates, deletes or lists rebootlab clusters. @throws InfraError when kind or Docker fails. */
export async function clusterCommand(_options: ClusterCommandOptions): Promise<CommandOutcome> {
  throw new InfraError('rebootlab cluster: not implemented yet');
}

/** Rebuilds a run directory's result.json and reports from observations.jsonl. @throws InputError if the directory is not a run. */
export async function reportCommand(_options: ReportOptions): Promise<CommandOutcome> {
  throw new InfraError('rebootlab report: not implemented yet');
}

/** Compares several run directories. @throws InputError if one is not a run directory. */
export async function compareCommand(_options: CompareOptions): Promise<CommandOutcome> {
  throw new InfraError('rebootlab compare: not implemented yet');
}
