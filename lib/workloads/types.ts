// The shapes the workload renderers share: types only, so render.ts and manifest.ts need not import each other.
import type { KubernetesObject } from '@kubernetes/client-node';

/** A Kubernetes object as rendered: apiVersion, kind, metadata, and the rest of its body. */
export type RenderedObject = KubernetesObject & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels: Record<string, string> } } & Record<string, unknown>;
