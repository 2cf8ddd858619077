// Option objects the CLI passes to the run layer, one per command; lib/cli builds them from flags.
import type { ClusterSpec, LoadedExperiment } from '../spec/types.js';

/**
 * Default parent directory of run directories (`--out`, `doctor --reports`), relative to the working directory.
 * Every `run` and `doctor` also searches it for faults a killed run left behind.
 */
export const DEFAULT_REPORTS_DIR = 'reports';

/** Output format of a command: human-readable lines, or one JSON document on stdout. */
export type OutputFormat = 'text' | 'json';

/** Options common to every command. */
export interface CommonOptions {
  /** Verbose logging (`-v`): debug lines and stacks of unexpected errors. */
  verbose: boolean;
  output: OutputFormat;
  /** Prints a result line (or the JSON document) on stdout; only lib/cli provides it. */
  print?: (text: string) => void;
  /** Where progress lines go (stderr); absent = no progress. */
  progressSink?: { isTTY: boolean; write(text: string): void };
}

/** `rebootlab run <experiment>`. */
export interface RunOptions extends CommonOptions {
  /** Path of the experiment file as given on the command line. */
  experimentFile: string;
  /** Parent directory of run directories; default `reports`. Each run writes `<out>/<variant>-<UTC timestamp>/`. */
  outDir: string;
  /** `--set path=value` overrides, in order, as typed (already applied to `experiment`). */
  set: string[];
  /** The experiment file loaded and validated by the CLI (exit 2 before any cluster exists): every variant resolved. */
  experiment: LoadedExperiment;
  /** Use an existing cluster rebootlab created with the same name instead of creating one. */
  reuseCluster: boolean;
  /** Keep the cluster after the run (otherwise a cluster created for this run is deleted). */
  keepCluster: boolean;
  /**
   * How a variant whose control-plane or kubelet flags differ from the previous variant's gets its cluster:
   * `in-place` (default) rewrites the static pod manifests and kubelet configs of the running cluster and
   * waits for the components to restart; `recreate` deletes the cluster and creates a new one.
   */
  reconfigure?: 'in-place' | 'recreate';
  /** A result.json to gate against (`--baseline`): a regression beyond the tolerance fails the run (exit 1). */
  baseline?: string;
  /** Gate against a baseline of another experiment, fault or variant (`--baseline-any`); refused otherwise. */
  baselineAny?: boolean;
  /** Allowed slowdown against the baseline, seconds (`--tolerance-seconds`, default 5). */
  toleranceSeconds?: number;
  /** Allowed slowdown against the baseline, percent of the baseline value (`--tolerance-percent`, default 10). */
  tolerancePercent?: number;
  /**
   * `--reporter` values (each a name or comma-separated names: list, json, markdown, html, junit, github); absent
   * or empty: list (unless `-o json`), json, markdown, html, junit, and github when GITHUB_STEP_SUMMARY is set.
   */
  reporters?: readonly string[];
}

/** `rebootlab doctor`: check Docker, runtime capabilities, kind, node image, Go, disk space. */
export interface DoctorOptions extends CommonOptions {
  /**
   * Also restore faults listed in pending-restore.json files at any depth under `reportsDir`, the default
   * reports directory and the last `--out` of a run (after a kill -9).
   */
  restore: boolean;
  /** Parent directory of run directories to search for pending-restore.json; default `reports`. */
  reportsDir: string;
}

/** `rebootlab toolchain`: install or show the pinned tool binaries (kind, kubectl, kwokctl). */
export interface ToolchainOptions extends CommonOptions {
  /** Kubernetes versions to build (`--kubernetes`, repeatable; `all` = every supported one); empty: the default version. */
  kubernetesVersions?: string[];
}

/** `rebootlab cluster create|delete|list`. */
export interface ClusterCommandOptions extends CommonOptions {
  action: 'create' | 'delete' | 'list';
  /** Cluster name for create/delete (`--name`, else the experiment's `cluster.name`, else `rebootlab`); '' for list. */
  name: string;
  /** For create: the `cluster` section of `--experiment <file>` (with `--set` applied) or the defaults, resolved by the CLI. */
  cluster: ClusterSpec;
}

/** `rebootlab report <run-dir>`: rebuild result.json and reports from observations.jsonl alone. */
export interface ReportOptions extends CommonOptions {
  runDir: string;
  /** `--reporter` values as for `run`; absent or empty: json, markdown, html, junit, and github when GITHUB_STEP_SUMMARY is set. */
  reporters?: readonly string[];
}

/** `rebootlab compare <dirs..>`: a table comparing several run directories. */
export interface CompareOptions extends CommonOptions {
  runDirs: string[];
  /** text (terminal table), markdown, html or json; `-o json` also selects json. */
  format: 'text' | 'markdown' | 'html' | 'json';
  /** Variant name the deltas are measured against; default the first variant found. */
  baselineVariant?: string;
  /** result.json to gate every run against (as `run --baseline`); a regression exits 1. */
  baseline?: string;
  /** Gate against a baseline of another experiment, fault or variant (`--baseline-any`); refused otherwise. */
  baselineAny?: boolean;
  /** Allowed slowdown against `baseline`, seconds (default 5) and percent (default 10). */
  toleranceSeconds?: number;
  tolerancePercent?: number;
}

/**
 * What a command reports back to the CLI: the exit code to use
 * (0 passed, 1 an expectation failed, 130 interrupted; errors are thrown instead).
 */
export interface CommandOutcome {
  exitCode: 0 | 1 | 130;
}
