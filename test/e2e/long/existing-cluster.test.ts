// Issue 14 acceptance: a kind cluster created by rebootlab, then used as `provider: existing` through its kubeconfig
// only. rebootlab runs with a PATH whose `docker` only logs that it was called: the existing provider must never
// call it (the user's own `command` backend calls Docker by absolute path, as a user's gcloud or virsh would be).
// Consent is refused with exit 2 and one line before anything is touched; a power-off through the command backend
// gives the same outcome as the kind provider and a detection time within 3 s of it. One cluster, deleted in after().
import { expect } from 'chai';
import { execa, execaSync } from 'execa';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir } from '../../../lib/common/cache.js';
import type { Result } from '../../../lib/report/index.js';
import { REPO_ROOT, runCli } from '../../helpers/run-cli.js';
import { readResult, runDirIn, waitForPhase } from '../../helpers/run-dirs.js';
import { readJournal } from '../../../lib/observe/index.js';
import { readyAgainWindow } from '../../../lib/analyze/index.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import { spawn } from 'node:child_process';
import { readToolchain } from '../../helpers/toolchain.js';

const MINUTE_MS = 60_000;
const CLUSTER = 'rbl-existing';
const CONTEXT = `kind-${CLUSTER}`;

describe('provider existing on a kind cluster used through its kubeconfig only (issue 14)', function () {
  this.timeout(15 * MINUTE_MS);
  const toolchain = readToolchain();
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-existing-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const bin = join(dir, 'bin');
  const dockerLog = join(dir, 'docker-calls.log');
  const dockerPath = execaSync('sh', ['-c', 'command -v docker']).stdout;
  /** Environment of every rebootlab process that uses the existing cluster: no real docker on PATH. */
  const noDocker = { PATH: bin };

  /** The tuned timings of the cluster (fast detection, little jitter) and a Deployment on the target. */
  const common = (name: string, workload = '{name: web, kind: Deployment, replicas: 2, placement: target}') => [
    'apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', `metadata: {name: ${name}}`, 'workloads:', `  - ${workload}`,
  ];
  /** The user's application: a Deployment web (2 replicas) and its Service in one file. */
  const shop = `{name: shop, manifest: ${join(REPO_ROOT, 'test/fixtures/manifests/shop.yaml')}}`;
  const kindCluster = `cluster: {name: ${CLUSTER}, workers: 2, controllerManager: {nodeMonitorPeriod: 1s, nodeMonitorGracePeriod: 8s}, kubelet: {nodeLeaseDurationSeconds: 4, nodeStatusUpdateFrequency: 2s}}`;
  const observe = 'observe: {until: recovered, timeout: 3m, settle: 3s}';
  const write = (file: string, lines: string[]) => (writeFileSync(join(dir, file), lines.join('\n') + '\n'), join(dir, file));
  const kindFile = () => write('kind.yaml', [...common('kind-power-off'), kindCluster,
    'fault: {type: power-off, target: worker-with-most-pods, duration: 20s}', observe]);
  const existingFile = (name: string, fault: string, extra: string[] = []) => write(`${name}.yaml`, [...common(name, shop),
    `cluster: {provider: existing, kubeconfig: ./kubeconfig, context: ${CONTEXT}}`, fault, observe, ...extra]);
  const agentImage = execaSync('docker', ['images', 'rebootlab/util-base', '--format', '{{.Repository}}:{{.Tag}}']).stdout.split('\n')[0]!;
  const agentFault = (type: string, duration: string) => `fault: {type: ${type}, target: worker-with-most-pods, duration: ${duration}, backend: {agent: {image: ${agentImage}}}}`;
  const commandFault = `fault: {type: power-off, target: worker-with-most-pods, duration: 20s, backend: {command: {off: "${dockerPath} stop {node}", on: "${dockerPath} start {node}"}}}`;

  before(async function () {
    mkdirSync(bin);
    // A `docker` that only records its call; sh and kubectl as the user's own tools.
    writeFileSync(join(bin, 'docker'), `#!/bin/sh\necho "$@" >> ${dockerLog}\nexit 1\n`);
    chmodSync(join(bin, 'docker'), 0o755);
    for (const tool of ['sh', 'kubectl']) symlinkSync(execaSync('sh', ['-c', `command -v ${tool}`]).stdout, join(bin, tool));
    await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER], { reject: false });
    const res = await runCli(['cluster', 'create', '--experiment', kindFile()], { timeoutMs: 10 * MINUTE_MS });
    expect(res.exitCode, res.stderr).to.equal(0);
    copyFileSync(join(cacheDir(), 'clusters', `${CLUSTER}.kubeconfig`), kubeconfig);
    // The agent image: offline here, the toolchain's util-base (nsenter, iptables) loaded into the nodes.
    await execa(toolchain.kind, ['load', 'docker-image', agentImage, '--name', CLUSTER]);
  });

  after(async function () {
    await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER], { reject: false });
    if (!process.env.REBOOTLAB_KEEP_REPORTS) rmSync(dir, { recursive: true, force: true });
  });

  /** The `rebootlab` namespace exists on the cluster. */
  async function namespaceExists(): Promise<boolean> {
    const res = await execa('kubectl', ['--kubeconfig', kubeconfig, 'get', 'namespace', 'rebootlab', '--ignore-not-found', '-o', 'name'], { reject: false });
    return res.stdout.trim() !== '';
  }

  it('without --allow-faults-on, with another context, or a control-plane target not allowed twice: exit 2, one line, nothing touched', async function () {
    const file = existingFile('consent', commandFault);
    const cp = existingFile('consent-cp', commandFault.replace('target: worker-with-most-pods', `target: ${CLUSTER}-control-plane, allowControlPlane: true`));
    const cases: [string[], RegExp][] = [
      [['run', file], new RegExp(`^ERROR: .*consent.yaml: cluster.context ${CONTEXT} is a cluster rebootlab does not own; to inject power-off there, run again with --allow-faults-on ${CONTEXT}\\n$`)],
      [['run', file, '--allow-faults-on', 'kind-other'], new RegExp(`^ERROR: .*--allow-faults-on kind-other does not match cluster.context ${CONTEXT}; nothing was touched\\n$`)],
      [['run', cp, '--allow-faults-on', CONTEXT], /^ERROR: .*fault.allowControlPlane is true; control-plane nodes of .* are targets only with --allow-control-plane as well\n$/],
    ];
    for (const [args, line] of cases) {
      const out = join(dir, 'consent-out');
      const res = await runCli([...args, '--out', out], { timeoutMs: MINUTE_MS, env: noDocker });
      expect(res.exitCode, res.stderr).to.equal(2);
      expect(res.stderr).to.match(line);
      expect(existsSync(out), 'no run directory').to.equal(false);
    }
    const noOn = existingFile('no-on', `fault: {type: power-off, duration: 20s, backend: {command: {off: "${dockerPath} stop {node}"}}}`);
    const res = await runCli(['run', noOn, '--allow-faults-on', CONTEXT], { timeoutMs: MINUTE_MS, env: noDocker });
    expect(res.exitCode).to.equal(2);
    expect(res.stderr).to.match(/^ERROR: \S+no-on.yaml:\d+:\d+: fault.backend.command: on is required: the command that brings the node back, registered as the undo before off runs\n$/);
    expect(await namespaceExists()).to.equal(false);
    expect(existsSync(dockerLog), 'docker was called').to.equal(false);
  });

  it('plan prints every action and its undo without touching the cluster', async function () {
    const res = await runCli(['plan', existingFile('plan', commandFault)], { timeoutMs: MINUTE_MS, env: noDocker });
    expect(res.exitCode, res.stderr).to.equal(0);
    expect(res.stdout).to.contain(`use context ${CONTEXT} of ${kubeconfig} as it is`);
    expect(res.stdout).to.contain(`sh -c '${dockerPath} stop {node}'\n        undo: sh -c '${dockerPath} start {node}'`);
    expect(res.stdout).to.contain('undo: delete namespace rebootlab and everything in it at the end');
    expect(await namespaceExists()).to.equal(false);
  });

  it('power-off through the command backend on the user\'s Deployment + Service manifest: same outcomes as the kind provider, detection within 3 s of it; namespace removed at the end; no docker call', async function () {
    const kindOut = join(dir, 'kind-out');
    const kindRun = await runCli(['run', kindFile(), '--reuse-cluster', '--keep-cluster', '--out', kindOut], { timeoutMs: 6 * MINUTE_MS });
    expect(kindRun.exitCode, kindRun.stderr).to.equal(0);
    const existingOut = join(dir, 'existing-out');
    const res = await runCli(['run', existingFile('existing-power-off', commandFault), '--allow-faults-on', CONTEXT, '--out', existingOut], { timeoutMs: 6 * MINUTE_MS, env: noDocker });
    expect(res.exitCode, res.stderr).to.equal(0);
    const viaKind = readResult(runDirIn(kindOut));
    const viaCommand = readResult(runDirIn(existingOut));
    expect(viaCommand.spec.cluster.provider).to.equal('existing');
    // Settings were read back from the mirror pods and configz, not assumed.
    expect(viaCommand.spec.settings).to.deep.equal(viaKind.spec.settings);
    // The user's Deployment has no placement preference: compare what happened to the pods on the target, not counts.
    expect(targetOutcomes(viaCommand)).to.have.length.greaterThan(0);
    expect(targetOutcomes(viaCommand)).to.deep.equal(targetOutcomes(viaKind));
    expect(detection(viaCommand)).to.be.closeTo(detection(viaKind), 3);
    expect(await namespaceExists()).to.equal(false);
    expect(existsSync(dockerLog) ? readFileSync(dockerLog, 'utf8') : '', 'docker calls by rebootlab').to.equal('');
  });

  it('kubelet-stop through the agent: same outcomes as the kind provider, detection within 3 s of it', async function () {
    const kindOut = join(dir, 'kind-kubelet-out');
    const kindStop = write('kind-kubelet.yaml', [...common('kind-kubelet-stop'), kindCluster,
      'fault: {type: kubelet-stop, target: worker-with-most-pods, duration: 20s}', observe]);
    const kindRun = await runCli(['run', kindStop, '--reuse-cluster', '--keep-cluster', '--out', kindOut], { timeoutMs: 6 * MINUTE_MS });
    expect(kindRun.exitCode, kindRun.stderr).to.equal(0);
    const out = join(dir, 'agent-kubelet-out');
    const res = await runCli(['run', existingFile('agent-kubelet-stop', agentFault('kubelet-stop', '20s')), '--allow-faults-on', CONTEXT, '--out', out], { timeoutMs: 6 * MINUTE_MS, env: noDocker });
    expect(res.exitCode, res.stderr).to.equal(0);
    const viaKind = readResult(runDirIn(kindOut));
    const viaAgent = readResult(runDirIn(out));
    expect(targetOutcomes(viaAgent)).to.have.length.greaterThan(0);
    expect(targetOutcomes(viaAgent)).to.deep.equal(targetOutcomes(viaKind));
    expect(detection(viaAgent)).to.be.closeTo(detection(viaKind), 3);
    expect(existsSync(dockerLog) ? readFileSync(dockerLog, 'utf8') : '', 'docker calls by rebootlab').to.equal('');
  });

  // Diagnosed on kind (session 5): the undo timer fired up to a minute late, because systemd coalesces timers within
  // AccuracySec= (default 1 min); the agent now asks for 100 ms. With it the chain went 21 s after the agent's exec
  // (23.4 s after time zero, the agent pod's start included) and the node was Ready 1.5 s later. Also found: 45 s into
  // the partition the kubelet's HTTP/2 health check dropped its connection and it redialled the API server by name,
  // which resolves to an IPv6 address on kind's dual-stack network that the IPv4 rules did not drop (Ready again with
  // the chain in place); the agent now resolves the peers' names on the node and drops those addresses too. 60 s is
  // past that redial, so a leak would show as Ready before the heal.
  it('kill -9 during an agent network-partition: the node heals by itself within duration + 10 s', async function () {
    const durationMs = 60_000;
    const statusUpdateMs = 2_000; // kubelet nodeStatusUpdateFrequency of kindCluster
    const out = join(dir, 'partition-out');
    const file = existingFile('agent-partition', agentFault('network-partition', `${durationMs / 1000}s`));
    const child = spawn(process.execPath, ['bin/rebootlab.js', 'run', file, '--allow-faults-on', CONTEXT, '--out', out], { cwd: REPO_ROOT, stdio: 'ignore', env: { ...process.env, ...noDocker } });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    await waitForPhase(out, 'fault-injected', 4 * MINUTE_MS);
    child.kill('SIGKILL');
    await exited;
    const journal = readJournal(join(runDirIn(out), 'observations.jsonl'));
    const timeZeroMs = journal.find((r) => r.type === 'phase' && r.phase === 'fault-injecting')!.receivedAtMs;
    const target = (journal.find((r) => r.type === 'phase' && r.phase === 'fault-injected') as { nodes: string[] }).nodes[0]!;
    const samples = await sampleNode(target, timeZeroMs + durationMs + 20_000);
    const after = (s: NodeSample | undefined) => (s === undefined ? null : (s.atMs - timeZeroMs) / 1000);
    const lastWithChain = samples.map((s) => s.chain).lastIndexOf(true);
    expect(lastWithChain, 'the partition chain was seen on the node').to.be.greaterThan(-1);
    const healed = samples[lastWithChain + 1];
    const notReady = samples.find((s) => s.ready === false);
    const readyAgain = samples.find((s) => notReady !== undefined && s.atMs > notReady.atMs && s.ready === true);
    const sampleGapMs = Math.max(...samples.slice(1).map((s, i) => s.atMs - samples[i]!.atMs));
    console.log(`      chain gone by ${after(healed)} s, NotReady ${after(notReady)} s, Ready again ${after(readyAgain)} s after time zero (samples every ≤ ${sampleGapMs} ms)`);
    // The node-side timer removed the rules by duration + 10 s, with rebootlab dead since the fault-injected marker.
    expect(healed, 'partition chain removed').to.not.equal(undefined);
    expect(after(healed), 'partition chain removed within duration + 10 s').to.be.at.most((durationMs + 10_000) / 1000);
    expect(notReady, `${target} went NotReady while cut off`).to.not.equal(undefined);
    expect(notReady!.atMs, 'NotReady while the chain was in place').to.be.below(healed!.atMs);
    // The partition held: no Ready again while the rules were in place, then Ready inside the model's window counted
    // from the heal (lib/analyze/predict-ready-again.ts readyAgainWindow, network-partition): a 60 s partition
    // outlasts client-go's HTTP/2 health check, so the kubelet's Node informer relists at its reflector's next retry
    // (up to 60 s) and the kubelet reports Ready at the status sync after it. (This bound was one status update until
    // that mechanism was found on kind; measured 3.83 s once, above it.) The agent's partition is iptables DROP, so a
    // dial begun during it may fail up to 15 s after the heal first (trafficDropped).
    const settings = structuredClone(DEFAULT_TIMEOUT_SETTINGS);
    settings.kubelet.nodeStatusUpdateFrequencyMs = statusUpdateMs;
    const readyWindow = readyAgainWindow(settings, 'network-partition', 0, 0, durationMs / 1000, true).window!;
    expect(readyAgain, `${target} Ready again`).to.not.equal(undefined);
    expect(readyAgain!.atMs, 'not Ready before the heal').to.be.at.least(healed!.atMs);
    expect(readyAgain!.atMs - healed!.atMs, `Ready inside the model's window from the heal (≤ ${readyWindow.toSeconds} s, plus one sample)`).to.be.at.most(readyWindow.toSeconds * 1000 + sampleGapMs);
  });
});

/** One sample of the target node: its partition chain present (docker exec iptables), its Ready condition (API). */
interface NodeSample { atMs: number; chain: boolean; ready: boolean | null }

/**
 * Samples the node every 250 ms (plus the two calls' time) until `untilMs`: whether its iptables hold the partition
 * chain (docker exec: the test looks at the node container; rebootlab never does) and its Ready condition (API).
 */
async function sampleNode(name: string, untilMs: number): Promise<NodeSample[]> {
  const samples: NodeSample[] = [];
  while (Date.now() < untilMs) {
    const [chain, ready] = await Promise.all([
      execa('docker', ['exec', name, 'iptables', '-S', 'REBOOTLAB-PARTITION'], { reject: false }),
      execa('kubectl', ['--kubeconfig', join(cacheDir(), 'clusters', `${CLUSTER}.kubeconfig`), 'get', 'node', name, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'], { reject: false }),
    ]);
    samples.push({ atMs: Date.now(), chain: chain.exitCode === 0, ready: ready.exitCode === 0 ? ready.stdout.trim() === 'True' : null });
    await new Promise((r) => setTimeout(r, 250));
  }
  return samples;
}

/** The distinct outcomes of workload pods that ran on the fault target, sorted. */
function targetOutcomes(result: Result): string[] {
  const targets = new Set(result.spec.fault.nodes);
  return [...new Set(result.pods.filter((p) => p.workload === 'web' && p.nodeBefore !== null && targets.has(p.nodeBefore)).map((p) => p.outcome))].sort();
}

/** Seconds from the target's last Lease renewal to NotReady: the grace period plus the monitor pass, jitter ≤ 1 s + 1 s resolution. */
function detection(result: Result): number {
  const node = result.nodes.find((n) => n.faultTarget)!;
  expect(node.notReadyAfterSeconds, 'node went NotReady').to.not.equal(null);
  expect(node.lastLeaseRenewBeforeDetection, 'last renewal seen').to.not.equal(null);
  return node.notReadyAfterSeconds! - node.lastLeaseRenewBeforeDetection!.afterSeconds;
}
