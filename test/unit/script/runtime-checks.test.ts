// The same mistakes in plain JavaScript (no compiler) are clear runtime errors: InputError, exit 2, one line.
import { expect } from 'chai';
import { ExitCode, InputError } from '../../../lib/common/errors.js';
import { durationMs, resolveScriptExperiment, type Duration, type ScriptExperiment } from '../../../lib/script/index.js';
import { scriptError } from '../../../lib/script/run-file.js';
import { nodeActionArgs } from '../../../lib/script/lab.js';
import { InfraError } from '../../../lib/common/errors.js';

describe('scripted experiments: runtime checks', function () {
  it('converts durations with a unit to milliseconds', function () {
    expect(durationMs('90s', 'lab.sleep')).to.equal(90_000);
    expect(durationMs('1m30s', 'lab.sleep')).to.equal(90_000);
    expect(durationMs('500ms', 'lab.sleep')).to.equal(500);
  });

  it('rejects a duration without a unit, naming the call and the fix', function () {
    expect(() => durationMs('90' as Duration, 'lab.sleep')).to.throw(InputError, 'lab.sleep: "90" is not a duration with a unit; write "90s"');
    expect(() => durationMs(90 as unknown as Duration, 'lab.inject(power-off).duration')).to.throw(InputError, 'lab.inject(power-off).duration: 90 is not a duration with a unit; write "90s"');
  });

  it('validates the spec like an experiment file, naming the script and the field', function () {
    const spec = { name: 'x', cluster: { controllerManager: { nodeMonitorGracePeriod: '20' } } } as unknown as ScriptExperiment;
    let error: unknown;
    try {
      resolveScriptExperiment(spec, 'experiments/x.ts');
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(InputError);
    expect((error as InputError).exitCode).to.equal(ExitCode.BadInput);
    const issue = (error as InputError).issues[0];
    expect(issue.file).to.equal('experiments/x.ts');
    expect(issue.line).to.equal(undefined);
    expect(issue.path).to.equal('cluster.controllerManager.nodeMonitorGracePeriod');
  });

  it('rejects a field scripts do not have (fault: belongs in the body)', function () {
    expect(() => resolveScriptExperiment({ name: 'x', fault: { type: 'reboot' } } as unknown as ScriptExperiment, 'x.js'))
      .to.throw(InputError, 'x.js: experiment(): unknown field fault');
  });

  it('resolves defaults and --set overrides', function () {
    const e = resolveScriptExperiment({ name: 'x', cluster: { workers: 2, controllerManager: { nodeMonitorGracePeriod: '20s' } } }, 'x.ts', ['cluster.name=rl-api-unit']);
    expect(e.cluster.name).to.equal('rl-api-unit');
    expect(e.cluster.settings.controllerManager.nodeMonitorGracePeriodMs).to.equal(20_000);
  });

  it('takes probes: like an experiment file (resolved with defaults) and refuses a bad one in one line', function () {
    const workloads = [{ name: 'web', kind: 'Deployment' as const, replicas: 1, service: { port: 80 } }];
    const resolved = resolveScriptExperiment({ name: 'x', workloads, probes: [{ name: 'web', service: 'web' }] }, 'experiments/x.ts');
    expect(resolved.probes).to.deep.equal([{ name: 'web', type: 'http', service: 'web', ratePerSecond: 20, timeoutMs: 1000, node: null }]);
    expect(() => resolveScriptExperiment({ name: 'x', workloads, probes: [{ name: 'web', service: 'web', ratePerSecond: 0 }] }, 'experiments/x.ts'))
      .to.throw(InputError, 'experiments/x.ts: probes[0].ratePerSecond: must be > 0, got 0');
    expect(() => resolveScriptExperiment({ name: 'x', workloads, probes: [{ name: 'db', service: 'db' }] }, 'experiments/x.ts'))
      .to.throw(InputError, 'probes[0].service: no workload "db" with a Service in this experiment');
  });

  it('lab.act takes the fields of a YAML step (label, selector, namespace, timeout) and refuses bad ones in one line', function () {
    expect(nodeActionArgs('label-node', { label: 'rebootlab.dev/pool=blue' })).to.deep.equal({ label: { key: 'rebootlab.dev/pool', value: 'blue' } });
    expect(nodeActionArgs('unlabel-node', { label: 'rebootlab.dev/pool' })).to.deep.equal({ label: { key: 'rebootlab.dev/pool', value: '' } });
    expect(nodeActionArgs('drain', { timeout: '30s' })).to.deep.equal({ pods: { namespace: null, matchLabels: {} }, retryForMs: 30_000 });
    expect(nodeActionArgs('evict-pods', { selector: 'app=web', namespace: 'shop' })).to.deep.equal({ pods: { namespace: 'shop', matchLabels: { app: 'web' } }, retryForMs: 0 });
    expect(nodeActionArgs('cordon', {})).to.deep.equal({});
    expect(() => nodeActionArgs('label-node', {})).to.throw(InputError, "lab.act(label-node): needs { label: 'key=value' }");
    expect(() => nodeActionArgs('label-node', { label: 'pool' })).to.throw(InputError, 'lab.act(label-node).label: "pool": write key=value');
    expect(() => nodeActionArgs('unlabel-node', { label: 'kubernetes.io/hostname' })).to.throw(InputError, 'lab.act(unlabel-node).label: kubernetes.io/hostname is read by the scheduler or by rebootlab itself');
    expect(() => nodeActionArgs('drain', { timeout: '30' as Duration })).to.throw(InputError, 'lab.act(drain).timeout: "30" is not a duration with a unit; write "30s"');
  });

  it("a script's own throw is one line of bad input naming the script (issue 27 item 8), rebootlab's errors stay as they are", function () {
    const own = scriptError(new Error('replica never came back'), 'experiments/x.ts');
    expect(own).to.be.instanceOf(InputError);
    expect((own as InputError).message).to.equal('experiments/x.ts: the script threw Error: replica never came back');
    expect((own as InputError).hint).to.equal('rerun with -v for its stack trace');
    expect((scriptError('a string', 'x.ts') as InputError).message).to.equal('x.ts: the script threw a string');
    const infra = new InfraError('docker pause failed');
    expect(scriptError(infra, 'x.ts')).to.equal(infra);
    // An error raised inside rebootlab's own code (its stack's first frame in dist/lib) is still a bug.
    const ours = new TypeError('x is undefined');
    ours.stack = `TypeError: x is undefined\n    at Lab.inject (${new URL('../../../lib/script/lab.js', import.meta.url).pathname}:10:5)`;
    expect(scriptError(ours, 'x.ts')).to.equal(ours);
  });
});
