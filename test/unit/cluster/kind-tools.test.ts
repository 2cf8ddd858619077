import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toClusterNode, type ContainerInspect } from '../../../lib/cluster/kind/docker.js';
import { cacheDir } from '../../../lib/common/cache.js';
import { kindBinary } from '../../../lib/cluster/kind/tools.js';

describe('kindBinary', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'rebootlab-cache-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers REBOOTLAB_KIND', () => {
    expect(kindBinary({ REBOOTLAB_KIND: '/opt/kind', REBOOTLAB_CACHE: dir })).to.equal('/opt/kind');
  });

  it('uses the cached kind v0.33.0 (versions.json) when it exists, else kind on PATH', () => {
    expect(kindBinary({ REBOOTLAB_CACHE: dir })).to.equal('kind');
    mkdirSync(join(dir, 'bin', 'kind-v0.33.0'), { recursive: true });
    writeFileSync(join(dir, 'bin', 'kind-v0.33.0', 'kind'), '');
    expect(kindBinary({ REBOOTLAB_CACHE: dir })).to.equal(join(dir, 'bin', 'kind-v0.33.0', 'kind'));
  });

  it('derives the cache from XDG_CACHE_HOME when REBOOTLAB_CACHE is unset', () => {
    expect(cacheDir({ XDG_CACHE_HOME: '/x' })).to.equal('/x/rebootlab');
  });
});

describe('toClusterNode', () => {
  const inspect = (labels: Record<string, string>, networks: Record<string, { IPAddress: string }> | null, status = 'running'): ContainerInspect => ({
    Name: '/kind-worker', State: { Status: status }, Config: { Labels: labels }, NetworkSettings: { Networks: networks },
  });

  it('reads name, role and the address on the kind network', () => {
    expect(toClusterNode(inspect({ 'io.x-k8s.kind.role': 'worker' }, { kind: { IPAddress: '172.18.0.3' } }))).to.deep.equal({
      name: 'kind-worker', role: 'worker', internalIP: '172.18.0.3', state: 'running',
    });
    expect(toClusterNode(inspect({ 'io.x-k8s.kind.role': 'control-plane' }, {})).role).to.equal('control-plane');
  });

  it('has no address when stopped or disconnected', () => {
    expect(toClusterNode(inspect({}, { kind: { IPAddress: '' } }, 'exited')).internalIP).to.equal(null);
    expect(toClusterNode(inspect({}, null)).internalIP).to.equal(null);
  });
});
