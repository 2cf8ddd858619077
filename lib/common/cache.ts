// rebootlab's cache directory and the per-version toolchain files `npm run toolchain` writes into it.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_KUBERNETES_VERSION } from './versions.js';

/** rebootlab's cache directory: `$REBOOTLAB_CACHE`, else `$XDG_CACHE_HOME/rebootlab`, else `~/.cache/rebootlab`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['REBOOTLAB_CACHE']) return env['REBOOTLAB_CACHE'];
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'rebootlab');
}

/** `<cacheDir>/toolchain/<kubernetesVersion>.env`: the file hack/toolchain.sh writes once that version is built. */
export function toolchainEnvFile(kubernetesVersion: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheDir(env), 'toolchain', `${kubernetesVersion}.env`);
}

/**
 * The `KEY=value` lines hack/toolchain.sh writes for one Kubernetes version to {@link toolchainEnvFile}
 * (REBOOTLAB_KUBERNETES_VERSION, REBOOTLAB_KIND, REBOOTLAB_KIND_VERSION, REBOOTLAB_KUBERNETES_BIN (a directory),
 * REBOOTLAB_KWOK, REBOOTLAB_ETCD, REBOOTLAB_ETCD_IMAGE_TAG, REBOOTLAB_COREDNS_VERSION, REBOOTLAB_PAUSE_IMAGE_TAG,
 * REBOOTLAB_NODE_IMAGE), values trimmed; `{}` when that version was never built here.
 * @param kubernetesVersion default: the default version (lib/common/versions.ts).
 */
export function readToolchainEnv(kubernetesVersion: string = DEFAULT_KUBERNETES_VERSION, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const file = toolchainEnvFile(kubernetesVersion, env);
  if (!existsSync(file)) return {};
  const pairs = readFileSync(file, 'utf8').split('\n').filter((line) => line.includes('='));
  return Object.fromEntries(pairs.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1).trim()]));
}
