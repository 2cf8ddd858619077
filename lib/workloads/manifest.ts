// The user's own manifest objects, made rebootlab's: put into namespace `rebootlab` and labelled, and the pods of
// each controller labelled with its workload name (WORKLOAD_LABEL), which is how the analyzer groups pods. Adding a
// label to a pod template never breaks its selector (the selector must match a subset of the template's labels).
import type { WorkloadSpec } from '../spec/types.js';
import { MANAGED_BY_LABEL, WORKLOAD_LABEL, WORKLOAD_NAMESPACE } from './pod-template.js';
import type { RenderedObject } from './types.js';

type Obj = Record<string, unknown>;

/** The objects of a manifest workload (`spec.manifest`), ready to apply. Nothing else of `spec` is used. */
export function renderManifestWorkload(spec: WorkloadSpec): RenderedObject[] {
  return (spec.manifest?.objects ?? []).map((source) => {
    const object = structuredClone(source) as Obj & { metadata: Obj & { labels?: Record<string, string> } };
    object.metadata = { ...object.metadata, namespace: WORKLOAD_NAMESPACE, labels: { ...object.metadata.labels, [MANAGED_BY_LABEL]: 'rebootlab' } };
    if (object.kind === spec.kind && object.metadata.name === spec.name) {
      if (object.kind === 'Pod') object.metadata.labels = { ...object.metadata.labels, [WORKLOAD_LABEL]: spec.name };
      else {
        const body = (object.spec ?? {}) as Obj & { template?: Obj & { metadata?: Obj & { labels?: Record<string, string> } } };
        const template = body.template ?? {};
        object.spec = { ...body, template: { ...template, metadata: { ...template.metadata, labels: { ...template.metadata?.labels, [WORKLOAD_LABEL]: spec.name } } } };
      }
    }
    return object as unknown as RenderedObject;
  });
}
