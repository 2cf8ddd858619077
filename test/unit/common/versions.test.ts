import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolchainEnv, toolchainEnvFile } from '../../../lib/common/cache.js';
import { InfraError } from '../../../lib/common/errors.js';
import {
  DEFAULT_KUBERNETES_VERSION, goVersionAtLeast, isSupportedKubernetesVersion, MIN_GO_VERSION, SUPPORTED_KUBERNETES_VERSIONS, SUPPORTED_KUBERNETES_VERSIONS_TEXT,
  toolchainCommandFor,
} from '../../../lib/common/versions.js';
import { goCheck } from '../../../lib/run/commands.js';
import { findKwokBinaries } from '../../../lib/cluster/kwok/paths.js';

describe('common/versions: the supported Kubernetes versions (versions.json)', () => {
  it('lists v1.37.2, v1.36.3, v1.35.4 and v1.34.4 newest first, and the default is the newest patch', () => {
    expect(SUPPORTED_KUBERNETES_VERSIONS).to.deep.equal(['v1.37.2', 'v1.36.3', 'v1.35.4', 'v1.34.4']);
    expect(DEFAULT_KUBERNETES_VERSION).to.equal('v1.37.2');
    expect(SUPPORTED_KUBERNETES_VERSIONS_TEXT).to.equal('v1.37.2, v1.36.3, v1.35.4 or v1.34.4');
  });

  it('supports listed patches only', () => {
    expect(isSupportedKubernetesVersion('v1.36.3')).to.equal(true);
    expect(isSupportedKubernetesVersion('v1.36.2')).to.equal(false);
    expect(isSupportedKubernetesVersion('1.36.3')).to.equal(false);
  });

  // README says Go ≥ 1.26; hack/toolchain.sh said >= 1.24, and doctor did not compare: k8s.io/kubernetes v1.37.2's
  // go.mod says go 1.26.0, and the build runs with GOTOOLCHAIN=local, so 1.26 is the minimum all three now use.
  it('the minimum Go is 1.26 (versions.json go), as README.md says and hack/toolchain.sh reads', () => {
    expect(MIN_GO_VERSION).to.equal('1.26');
    expect(readFileSync('README.md', 'utf8')).to.include(`Go ≥ ${MIN_GO_VERSION}:`);
    const toolchain = readFileSync('hack/toolchain.sh', 'utf8');
    expect(toolchain).to.include('Go >= $GO_MINIMUM').and.not.match(/Go >= 1\.\d/);
  });

  it('goVersionAtLeast compares dotted numbers; a version without one cannot be compared', () => {
    expect(goVersionAtLeast('go1.26.8', '1.26')).to.equal(true);
    expect(goVersionAtLeast('go1.26', '1.26')).to.equal(true);
    expect(goVersionAtLeast('go1.27rc1', '1.26')).to.equal(true);
    expect(goVersionAtLeast('go1.100.0', '1.26')).to.equal(true);
    expect(goVersionAtLeast('go1.24.3', '1.26')).to.equal(false);
    expect(goVersionAtLeast('go1.9', '1.26')).to.equal(false);
    expect(goVersionAtLeast('devel +abc', '1.26')).to.equal(null);
  });

  it("doctor's Go line says the version found and the minimum, and fails below it", () => {
    expect(goCheck('go version go1.26.8 linux/amd64\n')).to.deep.equal({ name: 'Go', ok: true, detail: 'go1.26.8 (minimum 1.26)' });
    expect(goCheck('go version go1.24.3 linux/amd64\n')).to.deep.equal({
      name: 'Go', ok: false, detail: `go1.24.3 found; the toolchain needs Go >= 1.26 (k8s.io/kubernetes ${DEFAULT_KUBERNETES_VERSION}'s go.mod)`, fix: 'install Go >= 1.26 in /usr/local/go and add it to PATH',
    });
    expect(goCheck('go version devel go1.27-abc linux/amd64')).to.include({ ok: true, detail: 'devel (minimum 1.26, not compared)' });
    expect(goCheck(null)).to.include({ ok: false, fix: 'install Go >= 1.26 in /usr/local/go and add it to PATH' });
  });

  it('names the command that builds a version: no argument for the default', () => {
    expect(toolchainCommandFor('v1.37.2')).to.equal('npm run toolchain');
    expect(toolchainCommandFor('v1.35.4')).to.equal('npm run toolchain -- --kubernetes v1.35.4');
  });
});

describe('common/cache: per-version toolchain files', () => {
  it('reads toolchain/<version>.env of that version only', () => {
    const cache = mkdtempSync(join(tmpdir(), 'rebootlab-cache-'));
    const env = { REBOOTLAB_CACHE: cache };
    mkdirSync(join(cache, 'toolchain'));
    writeFileSync(toolchainEnvFile('v1.36.3', env), 'REBOOTLAB_KUBERNETES_VERSION=v1.36.3\nREBOOTLAB_NODE_IMAGE=rebootlab/node:v1.36.3 \n');
    expect(readToolchainEnv('v1.36.3', env)).to.deep.equal({ REBOOTLAB_KUBERNETES_VERSION: 'v1.36.3', REBOOTLAB_NODE_IMAGE: 'rebootlab/node:v1.36.3' });
    expect(readToolchainEnv('v1.35.4', env)).to.deep.equal({});
  });

  it('kwok: a version that is not built fails with the command that builds it', () => {
    const cache = mkdtempSync(join(tmpdir(), 'rebootlab-cache-'));
    const attempt = () => findKwokBinaries('v1.35.4', { REBOOTLAB_CACHE: cache });
    expect(attempt).to.throw(InfraError, /^kwok provider: Kubernetes v1\.35\.4 is not built here \(missing /);
    try {
      attempt();
    } catch (error) {
      expect((error as InfraError).hint).to.equal('Run: npm run toolchain -- --kubernetes v1.35.4');
    }
  });
});
