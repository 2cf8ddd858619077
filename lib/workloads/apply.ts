// Applies rendered workload objects with server-side apply (field manager `rebootlab`) and removes them again.
import { KubernetesObjectApi, PatchStrategy, type KubeConfig } from '@kubernetes/client-node';
import { apiError, apiErrorCode } from '../cluster/kube-client.js';
import type { WorkloadSpec } from '../spec/types.js';
import type { PlacementInput } from './pod-template.js';
import { renderNamespace, renderWorkload } from './render.js';
import type { RenderedObject } from './types.js';

/** Field manager of rebootlab's server-side applies. */
export const FIELD_MANAGER = 'rebootlab';

/**
 * Server-side applies `objects` in order (forcing ownership of conflicting fields).
 * @throws InfraError naming the object when the API server refuses or cannot be reached.
 */
export async function applyObjects(kc: KubeConfig, objects: readonly RenderedObject[]): Promise<void> {
  const client = KubernetesObjectApi.makeApiClient(kc);
  for (const object of objects) {
    try {
      await client.patch(object, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
    } catch (error) {
      throw apiError(`apply ${object.kind} ${object.metadata.namespace ? object.metadata.namespace + '/' : ''}${object.metadata.name}`, error);
    }
  }
}

/**
 * Creates namespace `rebootlab` and applies every workload's objects (see renderWorkload), in spec order.
 * Returns the applied objects. Does not wait: see waitForWorkloadsReady.
 * @throws InputError (local-pv without target) or InfraError (API failure).
 */
export async function applyWorkloads(kc: KubeConfig, workloads: readonly WorkloadSpec[], input: PlacementInput): Promise<RenderedObject[]> {
  const objects = [renderNamespace(), ...workloads.flatMap((w) => renderWorkload(w, input))];
  await applyObjects(kc, objects);
  return objects;
}

/**
 * Deletes objects in reverse order with foreground propagation; objects already gone are fine.
 * @throws InfraError when a delete fails for another reason.
 */
export async function deleteObjects(kc: KubeConfig, objects: readonly RenderedObject[]): Promise<void> {
  const client = KubernetesObjectApi.makeApiClient(kc);
  for (const object of [...objects].reverse()) {
    try {
      await client.delete(object, undefined, undefined, undefined, undefined, 'Foreground');
    } catch (error) {
      if (apiErrorCode(error) !== 404) throw apiError(`delete ${object.kind} ${object.metadata.name}`, error);
    }
  }
}
