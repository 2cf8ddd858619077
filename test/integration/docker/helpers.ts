// Fake kind nodes for the Docker integration tests: busybox containers carrying kind's labels on a
// private network. Everything created is named rebootlab-it-<random> and removed by cleanup().
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../../../lib/common/exec.js';

/** Image built by hack/test-image.sh. */
export const TEST_IMAGE = 'rebootlab/test-busybox:1';

/** Repository root, from dist/test/integration/docker/. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** Why Docker tests cannot run here, or null when the engine answers. */
export function dockerUnavailableReason(): string | null {
  try {
    execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], { stdio: 'pipe', timeout: 15_000 });
    return null;
  } catch (error) {
    return `Docker engine not available (${(error as Error).message.split('\n')[0]})`;
  }
}

/** Builds the test image if missing (idempotent, fast when cached). */
export function ensureTestImage(): void {
  execFileSync('bash', [join(REPO_ROOT, 'hack', 'test-image.sh')], { stdio: 'pipe', timeout: 120_000 });
}

/** A private Docker network with fake nodes of one fake kind cluster. */
export class FakeKindCluster {
  readonly id = randomBytes(4).toString('hex');
  readonly cluster = `rebootlab-it-${this.id}`;
  readonly network = `rebootlab-it-${this.id}`;
  readonly containers: string[] = [];

  /**
   * Creates the network: with `userSubnet`, an IPv4 subnet chosen by us (so `connect --ip` works);
   * without, like kind's own network (only the IPv6 subnet is set, Docker picks IPv4).
   */
  async createNetwork(userSubnet: boolean): Promise<void> {
    const octet = 64 + (parseInt(this.id.slice(0, 2), 16) % 64);
    const args = userSubnet
      ? ['network', 'create', '--subnet', `10.${octet}.${parseInt(this.id.slice(2, 4), 16)}.0/24`, this.network]
      : ['network', 'create', '--ipv6', '--subnet', `fc00:f853:ccd:${this.id.slice(0, 4)}::/64`, this.network];
    await run('docker', args);
  }

  /** Starts a fake node container labelled for this cluster (or for `otherCluster`). Returns its name. */
  async addNode(suffix: string, otherCluster?: string): Promise<string> {
    const name = `${this.cluster}-${suffix}`;
    await run('docker', [
      'run', '-d', '--name', name, '--network', this.network, '--stop-signal', 'KILL',
      '--label', `io.x-k8s.kind.cluster=${otherCluster ?? this.cluster}`, '--label', 'io.x-k8s.kind.role=worker',
      TEST_IMAGE, 'sleep', '3600',
    ]);
    this.containers.push(name);
    return name;
  }

  /** Container state: running, paused, exited... */
  async state(name: string): Promise<string> {
    return run('docker', ['inspect', '--format', '{{.State.Status}}', name]);
  }

  /** Container IP on this cluster's network, '' when disconnected. */
  async ip(name: string): Promise<string> {
    return run('docker', ['inspect', '--format', `{{with index .NetworkSettings.Networks "${this.network}"}}{{.IPAddress}}{{end}}`, name]);
  }

  /** Removes every container and the network; never throws. */
  async cleanup(): Promise<void> {
    for (const c of this.containers) {
      await run('docker', ['unpause', c]).catch(() => '');
      await run('docker', ['rm', '-f', c]).catch(() => '');
    }
    await run('docker', ['network', 'rm', this.network]).catch(() => '');
  }
}
