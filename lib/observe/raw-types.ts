// What the observer's list, watch and projection code pass around: API objects as raw JSON. Types only.

/** A Kubernetes object as the observer handles it: JSON-shaped, with metadata. */
export interface RawObject {
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string; managedFields?: unknown };
  [key: string]: unknown;
}

/** A list response reduced to what a ListWatch needs. */
export interface RawList {
  metadata?: { resourceVersion?: string };
  items: RawObject[];
}
