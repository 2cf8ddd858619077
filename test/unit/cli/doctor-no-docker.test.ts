// `rebootlab doctor` on a machine without a Docker engine says so on the Docker line, and every check that needs the
// engine says it was not checked, never "not present" (found by a new-user try: the node image was reported missing,
// sending the user to rebuild it, and the runtime capabilities line vanished), and shows the engine's failure once
// (it was repeated as the closing ERROR line).
import { expect } from 'chai';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_KUBERNETES_VERSION } from '../../../lib/spec/index.js';
import { dockerEngineCheck, DOCKER_ENGINE_FIX, doctorLine } from '../../../lib/run/commands.js';
import { runCli } from '../../helpers/run-cli.js';

describe('cli: doctor without Docker', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-doctor-no-docker-'));
    mkdirSync(join(dir, 'reports'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the missing engine, and the node image and runtime as not checked; exit 3', async () => {
    // No tool on PATH and an empty cache: docker, kind and go are all missing.
    const result = await runCli(['doctor', '--reports', join(dir, 'reports')], { env: { PATH: join(dir, 'no-tools'), REBOOTLAB_CACHE: join(dir, 'cache') } });
    const out = result.stdout.split('\n').filter((l) => l !== '');
    expect(out.find((l) => l.includes('Docker engine')), result.stdout).to.equal(
      `MISSING Docker engine: docker version --format '{{.Server.Version}}' failed: docker: command not found — fix: ${DOCKER_ENGINE_FIX}`,
    );
    expect(out.find((l) => l.includes(`node image ${DEFAULT_KUBERNETES_VERSION}`)), result.stdout).to.equal(
      `MISSING node image ${DEFAULT_KUBERNETES_VERSION}: rebootlab/node:${DEFAULT_KUBERNETES_VERSION} not checked: the Docker engine did not answer (see its line) — fix: npm run toolchain`,
    );
    expect(out.filter((l) => l.includes('runtime capabilities')), result.stdout).to.have.length(1);
    expect(result.stdout).to.not.include('not present');
    // The Docker failure is shown once, on its line: the closing error names the failed checks, not their details again.
    const both = `${result.stdout}${result.stderr}`;
    expect(both.split("docker version --format '{{.Server.Version}}' failed").length - 1, both).to.equal(1);
    // Runtime capabilities fail only where CAP_SYS_RESOURCE is missing (this container), disk space only on a full disk.
    expect(result.stderr, result.stderr).to.match(
      new RegExp(`^ERROR: \\d checks failed: Docker engine, (runtime capabilities, )?kind, node image ${DEFAULT_KUBERNETES_VERSION}, Go(, disk space)?; each is listed above with its fix\nStart Docker: bash hack/docker\\.sh in the rebootlab checkout \\(or your own way\\), then run this again\n$`),
    );
    expect(result.exitCode, result.stderr).to.equal(3);
  });

  it('the Docker engine line of a daemon that does not answer says to start the engine (hack/docker.sh or your own), not to build the toolchain', async () => {
    const down = "docker version --format '{{.Server.Version}}' failed: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?";
    const { check, version } = await dockerEngineCheck(() => Promise.reject(new Error(down)));
    expect(version).to.equal('');
    expect(doctorLine(check)).to.equal(
      `MISSING Docker engine: ${down} — fix: start the Docker engine: bash hack/docker.sh as root in the rebootlab checkout (installs Debian's docker.io if missing and starts dockerd), or start your own (systemctl start docker, Docker Desktop)`,
    );
    expect(check.hint).to.equal('Start Docker: bash hack/docker.sh in the rebootlab checkout (or your own way), then run this again');
    const up = await dockerEngineCheck(() => Promise.resolve('29.1.3'));
    expect(doctorLine(up.check)).to.equal('ok      Docker engine: server 29.1.3');
    expect(up.version).to.equal('29.1.3');
  });

  it('says which Go it found and the minimum, and calls an older one missing', async () => {
    const tools = join(dir, 'tools');
    mkdirSync(tools);
    writeFileSync(join(tools, 'go'), '#!/bin/sh\necho "go version go1.24.3 linux/amd64"\n');
    chmodSync(join(tools, 'go'), 0o755);
    const result = await runCli(['doctor', '--reports', join(dir, 'reports')], { env: { PATH: tools, REBOOTLAB_CACHE: join(dir, 'cache') } });
    const out = result.stdout.split('\n').filter((l) => l !== '');
    expect(out.filter((l) => l.includes(' Go: ')), result.stdout).to.deep.equal([
      `MISSING Go: go1.24.3 found; the toolchain needs Go >= 1.26 (k8s.io/kubernetes ${DEFAULT_KUBERNETES_VERSION}'s go.mod) — fix: install Go >= 1.26 in /usr/local/go and add it to PATH`,
    ]);
    expect(result.exitCode, result.stderr).to.equal(3);
  });
});
