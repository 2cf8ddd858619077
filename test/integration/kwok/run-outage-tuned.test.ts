// Issue 5 acceptance: the shipped experiments/outage-tuned.yaml, run unchanged through `rebootlab run` on
// simulated nodes (--set cluster.provider=kwok), gives detection and eviction inside the same predicted
// windows as on kind (Unknown in [15, 25] s, evictions in [45, 55] s; kind measured 19.4 s and 49.7 s).
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectionBounds, evictionDelayBounds } from '../../helpers/mechanism-bounds.js';
import type { Result } from '../../../lib/report/index.js';
import { runCli } from '../../helpers/run-cli.js';

describe('rebootlab run experiments/outage-tuned.yaml on kwok', function () {
  this.timeout(6 * 60_000);
  const out = mkdtempSync(join(tmpdir(), 'rebootlab-kwok-run-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  it('passes the expectations written for kind: NotReady within grace + monitor passes of the last heartbeat, Deployment pods evicted 30 s after the taint and replaced, the standalone pod lost', async function () {
    // A 70 s outage is past the eviction (≈ 50 s); the 120 s of the file only lengthen the run.
    const res = await runCli(['run', 'experiments/outage-tuned.yaml', '--out', out, '--set', 'cluster.provider=kwok',
      '--set', 'cluster.name=rebootlab-it-kwok-run', '--set', 'fault.duration=70s'], { timeoutMs: 5 * 60_000 });
    const [dir] = readdirSync(out);
    const result = JSON.parse(readFileSync(join(out, dir, 'result.json'), 'utf8')) as Result;
    expect(res.exitCode, res.stdout + res.stderr).to.equal(0);
    expect(result.status).to.equal('passed');
    const target = result.nodes.find((n) => n.faultTarget)!;
    expect(target.notReadyAfterSeconds).to.be.within(...detectionBounds(result));
    const web = result.pods.filter((p) => p.workload === 'web');
    expect(web).to.have.length(2);
    for (const pod of web) {
      expect(pod.outcome).to.equal('evicted-replaced');
      expect(pod.evictedAfterSeconds! - target.noExecuteTaintAfterSeconds!).to.be.within(...evictionDelayBounds(30));
    }
    expect(result.predictions.missed, JSON.stringify(result.predictions.missed)).to.deep.equal([]);
    console.log(`      kwok: Unknown after ${target.notReadyAfterSeconds} s, evictions after ${web.map((p) => p.evictedAfterSeconds).join(', ')} s`);
  });
});
