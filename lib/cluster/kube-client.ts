// Kubernetes API clients for one cluster's own kubeconfig file (never the user's default kubeconfig).
import { CoreV1Api, KubeConfig, VersionApi } from '@kubernetes/client-node';
import { InfraError } from '../common/errors.js';

/**
 * Loads the kubeconfig file of a cluster rebootlab owns. Only that file is read: `$KUBECONFIG` and
 * `~/.kube/config` are ignored, so the user's current context is never used.
 * @throws InfraError when the file cannot be read or parsed.
 */
export function loadKubeConfig(kubeconfigPath: string): KubeConfig {
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(kubeconfigPath);
  } catch (error) {
    throw new InfraError(`cannot load kubeconfig ${kubeconfigPath}: ${(error as Error).message}`, 'Run: rebootlab doctor', { cause: error });
  }
  return kc;
}

/** A CoreV1Api client for the cluster of `kubeconfigPath`. @throws InfraError when the file cannot be loaded. */
export function coreApiFor(kubeconfigPath: string): CoreV1Api {
  return loadKubeConfig(kubeconfigPath).makeApiClient(CoreV1Api);
}

/** The HTTP status of a client-node API error, or undefined (network errors, other exceptions). */
export function apiErrorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** Wraps a failed API call in a one-line InfraError naming what was attempted. */
export function apiError(what: string, error: unknown): InfraError {
  const code = apiErrorCode(error);
  const detail = code !== undefined ? `HTTP ${code}` : (error as Error)?.message ?? String(error);
  return new InfraError(`${what} failed: ${detail.split('\n')[0]}`, 'Run: rebootlab doctor', { cause: error });
}

/**
 * The API server's version (`GET /version` gitVersion, e.g. `v1.37.2`) of the cluster of `kubeconfigPath`, or null
 * when it cannot be read (the run goes on; the requested version is recorded then). @throws nothing.
 */
export async function readServerVersion(kubeconfigPath: string): Promise<string | null> {
  try {
    return (await loadKubeConfig(kubeconfigPath).makeApiClient(VersionApi).getCode()).gitVersion || null;
  } catch {
    return null;
  }
}
