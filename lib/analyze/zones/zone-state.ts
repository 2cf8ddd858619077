// Zone states and rates of the node lifecycle controller (pkg/controller/nodelifecycle, v1.34): what a zone is,
// when it is disrupted, and how fast its nodes are tainted NoExecute.
import type { TimeoutSettings } from '../../spec/settings.js';
import type { ZoneStateChange } from '../types.js';

/** A zone's state as the controller computes it at the end of a monitor pass. */
export type ZoneState = ZoneStateChange['state'];

/** Zone label (https://kubernetes.io/docs/reference/labels-annotations-taints/#topologykubernetesiozone). */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** Region label. */
export const REGION_LABEL = 'topology.kubernetes.io/region';
/** Deprecated zone label, preferred by the controller where set (older and existing clusters). */
export const LEGACY_ZONE_LABEL = 'failure-domain.beta.kubernetes.io/zone';
/** Deprecated region label, preferred by the controller where set. */
export const LEGACY_REGION_LABEL = 'failure-domain.beta.kubernetes.io/region';

/**
 * The zone a node counts in, as the node lifecycle controller groups nodes (GetZoneKey,
 * k8s.io/component-helpers/node/topology/helpers.go, v1.34): region and zone, each read from the legacy
 * `failure-domain.beta.kubernetes.io/…` label when that label is set (even empty), else the `topology.kubernetes.io/…`
 * one. Shown as `region/zone`, or the zone alone when no region is set (kind and kwok clusters), `""` when neither is
 * set (one zone for every unlabelled node). Upstream joins them as `region + ":\x00:" + zone`; only equality matters.
 */
export function zoneKeyOf(labels: Readonly<Record<string, string>>): string {
  const zone = LEGACY_ZONE_LABEL in labels ? labels[LEGACY_ZONE_LABEL] : labels[ZONE_LABEL] ?? '';
  const region = LEGACY_REGION_LABEL in labels ? labels[LEGACY_REGION_LABEL] : labels[REGION_LABEL] ?? '';
  if (region === '') return zone;
  return `${region}/${zone}`;
}

/**
 * Zone state as ComputeZoneState (pkg/controller/nodelifecycle/node_lifecycle_controller.go): FullDisruption when
 * no node is Ready and at least one is not; PartialDisruption when more than 2 are NotReady and NotReady / total ≥
 * `--unhealthy-zone-threshold`; else Normal. Counts are over the zone's nodes that count (not labelled
 * node.kubernetes.io/exclude-disruption). https://kubernetes.io/docs/concepts/architecture/nodes/#rate-limits-on-eviction
 */
export function computeZoneState(settings: TimeoutSettings, notReady: number, total: number): ZoneState {
  const ready = total - notReady;
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / Math.max(total, 1) >= settings.controllerManager.unhealthyZoneThreshold) return 'PartialDisruption';
  return 'Normal';
}

/**
 * NoExecute tainting rate of a zone in `state`, nodes per second (setLimiterInZone): Normal and FullDisruption →
 * `--node-eviction-rate`; PartialDisruption → `--secondary-node-eviction-rate` when the zone has more than
 * `--large-cluster-size-threshold` nodes, else 0.
 */
export function zoneEvictionRate(settings: TimeoutSettings, state: ZoneState, zoneSize: number): number {
  const cm = settings.controllerManager;
  if (state === 'PartialDisruption') return zoneSize > cm.largeClusterSizeThreshold ? cm.secondaryNodeEvictionRate : 0;
  return cm.nodeEvictionRate;
}
