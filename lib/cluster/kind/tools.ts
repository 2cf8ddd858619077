// Finds the tools the kind provider runs (docker, kind) and the node image to boot.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../common/errors.js';
import { cacheDir } from '../../common/cache.js';
import { canRun, run } from '../../common/exec.js';
import { toolchainCommandFor } from '../../common/versions.js';
import { PINNED_KIND_VERSION } from './kubeadm-patches.js';

/** What to run after a missing tool. */
export const TOOLCHAIN_HINT = 'Run: npm run toolchain';

/** What to do when the Docker engine does not answer. */
export const START_DOCKER_HINT = 'Start Docker: bash hack/docker.sh in the rebootlab checkout (or your own way), then run this again';

/**
 * The Docker engine's server version (`docker version --format {{.Server.Version}}`, 15 s): how doctor, the kind
 * tools check and the node image lookup tell that the engine answers.
 * @throws Error "docker version ... failed: <why>" when it does not (no docker binary, no daemon, no answer).
 */
export async function dockerServerVersion(): Promise<string> {
  return (await run('docker', ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 15_000 })).trim();
}


/**
 * The kind binary: `$REBOOTLAB_KIND`, else `$REBOOTLAB_CACHE/bin/kind-<pinned>/kind` (versions.json `kind`) when it exists,
 * else `kind` (looked up on PATH).
 */
export function kindBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env['REBOOTLAB_KIND']) return env['REBOOTLAB_KIND'];
  const cached = join(cacheDir(env), 'bin', `kind-${PINNED_KIND_VERSION}`, 'kind');
  return existsSync(cached) ? cached : 'kind';
}

/** True when a Docker image with this reference exists locally. @throws nothing. */
export async function imageExists(reference: string): Promise<boolean> {
  return canRun('docker', ['image', 'inspect', '--format', '{{.Id}}', reference]);
}

/** True when the registry serves a manifest for `reference` (`docker manifest inspect`: nothing is downloaded). @throws nothing. */
export async function imagePullable(reference: string): Promise<boolean> {
  return canRun('docker', ['manifest', 'inspect', reference]);
}

/**
 * The node image to boot: `nodeImage` when set, else `rebootlab/node:<version>` when it exists locally (built by
 * the toolchain: kindest/node re-tagged, or built offline), else `kindest/node:<version>` when it exists locally
 * or its registry serves it (kind then pulls it: online users need no build).
 * @throws InfraError when none is there: "Kubernetes v1.36.3 is not built here ..." with the hint
 *   `Run: npm run toolchain -- --kubernetes v1.36.3` (exit 3); when the Docker engine does not answer, "... the Docker
 *   engine did not answer (...)" with {@link START_DOCKER_HINT} instead (exit 3).
 */
export async function resolveNodeImage(nodeImage: string | null, kubernetesVersion: string): Promise<string> {
  if (nodeImage) return nodeImage;
  const local = `rebootlab/node:${kubernetesVersion}`;
  if (await imageExists(local)) return local;
  const kindest = `kindest/node:${kubernetesVersion}`;
  if ((await imageExists(kindest)) || (await imagePullable(kindest))) return kindest;
  // Without an engine no image can be seen or pulled: "not built here" would send the user to build it.
  const engineError = await dockerServerVersion().then(() => null, (error: unknown) => error as Error);
  if (engineError) {
    throw new InfraError(
      `Kubernetes ${kubernetesVersion}: cannot tell whether it is built here: the Docker engine did not answer (${engineError.message})`,
      START_DOCKER_HINT,
      { cause: engineError },
    );
  }
  throw new InfraError(
    `Kubernetes ${kubernetesVersion} is not built here: no node image ${local}, and ${kindest} cannot be pulled (no registry reachable)`,
    `Run: ${toolchainCommandFor(kubernetesVersion)}`,
  );
}

/**
 * Checks that the Docker engine answers and the kind binary runs.
 * @throws InfraError naming the missing tool, with the hint `Run: npm run toolchain`.
 */
export async function ensureKindTools(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    await dockerServerVersion();
  } catch (error) {
    throw new InfraError(`docker is not available: ${(error as Error).message}`, TOOLCHAIN_HINT, { cause: error });
  }
  const kind = kindBinary(env);
  try {
    await run(kind, ['version'], { timeoutMs: 15_000 });
  } catch (error) {
    throw new InfraError(`kind is not available (${kind}): ${(error as Error).message}`, TOOLCHAIN_HINT, { cause: error });
  }
}
