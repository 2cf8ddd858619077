// Before a run or plan: is every Kubernetes version its variants name built here? One line with the command if not.
import { getProvider } from '../cluster/index.js';
import type { Variant } from '../spec/types.js';

/**
 * Checks, before any cluster is made, that each provider can make a cluster of each Kubernetes version the
 * variants name (a matrix over `cluster.kubernetesVersion` would otherwise fail at its second version, minutes in).
 * Skips variants on an existing cluster or with an explicit `cluster.nodeImage`.
 * @throws InfraError (exit 3) "Kubernetes v1.36.3 is not built here ..." with the hint
 *   `Run: npm run toolchain -- --kubernetes v1.36.3` (ClusterProvider.checkKubernetesVersion).
 */
export async function checkKubernetesVersionsBuilt(variants: readonly Pick<Variant, 'experiment'>[]): Promise<void> {
  const checked = new Set<string>();
  for (const { experiment: { cluster } } of variants) {
    if (cluster.existing || cluster.nodeImage) continue;
    const key = `${cluster.provider} ${cluster.kubernetesVersion}`;
    if (checked.has(key)) continue;
    checked.add(key);
    await getProvider(cluster.provider).checkKubernetesVersion?.(cluster.kubernetesVersion);
  }
}
