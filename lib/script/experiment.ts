// experiment(spec, body): the composition root of a scripted experiment. Same steps and files as
// `rebootlab run` for an experiment file — cluster, observer → observations.jsonl, faults restored by the
// guard (also on Ctrl-C, SIGTERM, SIGHUP, crash), analysis, result.json, summary.md, report.html, junit.xml — with the
// script's body in place of the single fault.
import { mkdirSync } from 'node:fs';
import { stringify } from 'yaml';
import { ExitCode, InputError, RebootlabError, formatInputIssue } from '../common/errors.js';
import { selectReporters, type Result, type RunInfo } from '../report/index.js';
import {
  exitCodeFor, planReporters, rebootlabVersion, summaryLine, withRunSession, workloadRefs,
} from '../run/index.js';
import { API_VERSION, loadExperimentText, type Experiment } from '../spec/index.js';
import { resolveSelectedWorkloads } from '../workloads/index.js';
import { loadKubeConfig, readServerVersion } from '../cluster/kube-client.js';
import { forecast, FORECAST_LEAD_SECONDS, PreFaultRecorder, type Forecast } from '../analyze/forecast/index.js';
import { FAULTS } from '../spec/faults.js';
import type { TimeoutSettings } from '../spec/settings.js';
import { Lab, type FirstFault } from './lab.js';
import { recordScriptOutcome, scriptOptions, startedByCli, type ScriptRunOptions } from './options.js';
import type { ScriptExperiment } from './types.js';

const SPEC_KEYS = new Set(['name', 'description', 'cluster', 'workloads', 'probes', 'expect']);

/**
 * Validates a script's spec exactly as an experiment file (same checks, messages and defaults; `--set`
 * applied) and resolves it. The script has no `fault:` of its own: its body injects faults.
 * @throws InputError naming the script and each bad field, one line each (exit 2).
 */
export function resolveScriptExperiment(spec: ScriptExperiment, scriptFile: string, set: readonly string[] = []): Experiment {
  const unknown = Object.keys(spec ?? {}).filter((k) => !SPEC_KEYS.has(k));
  if (unknown.length > 0) throw new InputError(`${scriptFile}: experiment(): unknown field ${unknown.join(', ')}; allowed: ${[...SPEC_KEYS].join(', ')}`);
  const document = {
    apiVersion: API_VERSION,
    kind: 'Experiment',
    metadata: { name: spec.name, ...(spec.description !== undefined ? { description: spec.description } : {}) },
    ...(spec.cluster !== undefined ? { cluster: spec.cluster } : {}),
    ...(spec.workloads !== undefined ? { workloads: spec.workloads } : {}),
    ...(spec.probes !== undefined ? { probes: spec.probes } : {}),
    // Validation needs a fault; the script's own steps replace it. power-off exists on every provider.
    fault: { type: 'power-off', duration: '1s' },
    ...(spec.expect !== undefined ? { expect: spec.expect } : {}),
  };
  try {
    return loadExperimentText(scriptFile, stringify(document), { set }).experiment;
  } catch (error) {
    if (!(error instanceof InputError) || error.issues.length === 0) throw error;
    // Line numbers would point into the generated YAML, not the script: name the field instead.
    const issues = error.issues.map((i) => ({ ...i, line: undefined, column: undefined, path: i.path.replace(/^metadata\.name$/, 'name').replace(/^metadata\.description$/, 'description') }));
    throw new InputError(issues.map((i) => formatInputIssue(i)).join('\n'), 'Fix the experiment({ ... }) spec of the script', { issues, cause: error });
  }
}

/**
 * Runs a scripted experiment: creates (or with `--reuse-cluster` attaches to) the cluster of `spec.cluster`,
 * starts the observer (journal in `<out>/<name>-<UTC time>/observations.jsonl`), calls `body(lab)`, restores
 * every fault still pending, and writes run.json, result.json, summary.md, report.html and junit.xml.
 * Times in result.json are seconds since the first fault the body injected. On Ctrl-C, SIGTERM or SIGHUP the faults are
 * restored first, then `lab.signal` aborts (waits throw), and the run is reported as interrupted (exit 130).
 *
 * Started by `rebootlab run script.ts`, the CLI turns the outcome into its exit code; started directly with
 * Node, this sets `process.exitCode` (0 passed, 1 an expectation failed, 2 bad input, 3 infrastructure, 130
 * interrupted) and prints errors as one line.
 * Resolves to the result, or null when the run failed before it had one (direct runs only; the CLI gets the error).
 * @throws InputError, InfraError when started by the CLI (faults restored first).
 */
export async function experiment(spec: ScriptExperiment, body: (lab: Lab) => Promise<void>): Promise<Result | null> {
  if (startedByCli()) return runScript(spec, body, scriptOptions());
  try {
    return await runScript(spec, body, scriptOptions());
  } catch (error) {
    // Started directly with Node: this is the process entry, so it reports like the CLI does.
    const e = error instanceof RebootlabError ? error : null;
    process.stderr.write(`error: ${e ? e.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}${e?.hint ? `\n${e.hint}` : ''}\n`);
    process.exitCode = e ? e.exitCode : ExitCode.Infrastructure;
    return null;
  }
}

async function runScript(spec: ScriptExperiment, body: (lab: Lab) => Promise<void>, options: ScriptRunOptions): Promise<Result> {
  const resolved = resolveScriptExperiment(spec, options.scriptFile, options.set);
  const { progress, fileReporters } = planReporters(selectReporters(options.reporters, { progress: options.progressSink !== undefined }), options.progressSink);
  return withRunSession({ outDir: options.outDir, provider: resolved.cluster.provider, reuseCluster: options.reuseCluster, keepCluster: options.keepCluster, progress, fileReporters }, async (session) => {
    const runDir = session.runDirFor(resolved.metadata.name);
    mkdirSync(runDir, { recursive: true });
    session.guardRun(runDir);
    const { cluster, settings } = await session.clusterFor(resolved.cluster);
    progress.phase(`script ${options.scriptFile} → ${runDir}`);
    const info: RunInfo = {
      experiment: resolved.metadata.name,
      variant: null,
      repeatIndex: 0,
      cluster: { name: cluster.name, provider: cluster.provider, kubernetesVersion: (await readServerVersion(cluster.kubeconfigPath)) ?? resolved.cluster.kubernetesVersion },
      fault: { type: 'script', target: options.scriptFile, durationSeconds: null },
      settings,
      workloads: workloadRefs(resolved.workloads, await resolveSelectedWorkloads(loadKubeConfig(cluster.kubeconfigPath), resolved.workloads)),
      expectations: resolved.expect,
      interrupted: false,
      rebootlabVersion: rebootlabVersion(),
    };
    // Fed each record until the first fault's forecast is frozen: the pre-fault state it conditions on.
    const preFault = new PreFaultRecorder(info.workloads);
    let forecastFrozen = false;
    const result = await session.observe({ runDir, cluster, settings, info, startedDetail: { script: options.scriptFile }, onRecord: (record) => { if (!forecastFrozen) preFault.add(record); } }, async (run) => {
      const freezeForecast = (fault: FirstFault) => {
        forecastFrozen = true;
        run.journal.appendForecast({ forecast: scriptForecast(resolved, settings, info.cluster.kubernetesVersion ?? resolved.cluster.kubernetesVersion, preFault, fault) as unknown as Record<string, unknown> });
      };
      const lab = new Lab({ experiment: resolved, cluster, kc: run.kc, journal: run.journal, guard: run.guard, settings, runDir, signal: run.signal, freezeForecast });
      // Restore with marks first (fault-restored in the journal), then the session restores anything else the guard holds.
      run.onRestore(() => lab.restoreAll());
      run.finalInfo(() => ({ fault: { ...info.fault, type: [...lab.applied].join('+') || 'none' } }));
      await body(lab);
      run.journal.mark('settled');
    });
    options.print?.(summaryLine(result, runDir));
    const exitCode = exitCodeFor([result.status]);
    recordScriptOutcome({ exitCode, runDir });
    if (!startedByCli()) process.exitCode = exitCode;
    return result;
  });
}

/**
 * The forecast of a script's first fault (lib/analyze/forecast, the function `rebootlab run` freezes for an experiment
 * file): the script's spec with `fault` = that fault on that one node (held `durationMs`, else never restored), from
 * the records seen so far, taken as made FORECAST_LEAD_SECONDS at most before time zero, at `atMs` (Unix epoch
 * milliseconds; now, in a run). What the script does next is not known before: `horizon` says it is judged up to
 * the script's next action (its `forecast-horizon` mark). Pure but for the default `atMs`.
 */
export function scriptForecast(resolved: Experiment, settings: TimeoutSettings, kubernetesVersion: string, preFault: PreFaultRecorder, fault: FirstFault, atMs = Date.now()): Forecast {
  const experiment: Experiment = { ...resolved, fault: { ...resolved.fault, type: fault.type, count: 1, durationMs: fault.durationMs, staggerMs: 0, scope: fault.scope }, steps: [] };
  const state = preFault.state(atMs, FORECAST_LEAD_SECONDS);
  const made = forecast({ experiment, settings, kubernetesVersion, preFault: { ...state, targets: [fault.node] } });
  return {
    ...made,
    horizon: 'next-script-action',
    notForecast: [...made.notForecast, `what the script does after its first fault (${fault.type} on ${fault.node}${fault.durationMs === null && FAULTS[fault.type].duration !== 'none' ? ', restored when the script says' : ''}): the forecast knows that fault only, and is judged as the run stood when the script's next action began`],
  };
}
