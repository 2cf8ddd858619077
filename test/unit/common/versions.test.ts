import { expect } from 'chai';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolchainEnv, toolchainEnvFile } from '../../../lib/common/cache.js';
import { InfraError } from '../../../lib/common/errors.js';
import {
  DEFAULT_KUBERNETES_VERSION, isSupportedKubernetesVersion, SUPPORTED_KUBERNETES_VERSIONS, SUPPORTED_KUBERNETES_VERSIONS_TEXT, toolchainCommandFor,
} from '../../../lib/common/versions.js';
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
