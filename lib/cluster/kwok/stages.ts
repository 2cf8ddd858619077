// kwok's node Stages (kwok.x-k8s.io/v1alpha1), rendered so a simulated node's status heartbeat follows the
// kubelet settings of the experiment; Lease renewals come from kwok's flag (see flags.ts, kwokArgs).
import { stringify } from 'yaml';
import type { TimeoutSettings } from '../../spec/settings.js';

/**
 * Node status as kwok's `node-initialize` stage writes it (kustomize/stage/node/fast in kwok v0.7), except
 * that `lastTransitionTime` is now: the node has just become Ready (at creation, or when heartbeats resume).
 */
const INITIALIZE_TEMPLATE = `{{ $now := Now }}
conditions:
{{ range NodeConditions }}
- lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}
  message: {{ .message | Quote }}
  reason: {{ .reason | Quote }}
  status: {{ .status | Quote }}
  type: {{ .type | Quote }}
{{ end }}
addresses:
{{ with .status.addresses }}
{{ YAML . 1 }}
{{ else }}
{{ with NodeIP }}
- address: {{ . | Quote }}
  type: InternalIP
{{ end }}
{{ with NodeName }}
- address: {{ . | Quote }}
  type: Hostname
{{ end }}
{{ end }}
allocatable:
{{ with .status.allocatable }}
{{ YAML . 1 }}
{{ else }}
  cpu: 1k
  memory: 1Ti
  pods: 1M
{{ end }}
capacity:
{{ with .status.capacity }}
{{ YAML . 1 }}
{{ else }}
  cpu: 1k
  memory: 1Ti
  pods: 1M
{{ end }}
{{ $nodeInfo := .status.nodeInfo }}
{{ $kwokVersion := printf "kwok-%s" Version }}
nodeInfo:
  architecture: {{ or $nodeInfo.architecture "amd64" }}
  bootID: {{ or $nodeInfo.bootID \`""\` }}
  containerRuntimeVersion: {{ or $nodeInfo.containerRuntimeVersion $kwokVersion }}
  kernelVersion: {{ or $nodeInfo.kernelVersion $kwokVersion }}
  kubeProxyVersion: {{ or $nodeInfo.kubeProxyVersion $kwokVersion }}
  kubeletVersion: {{ or $nodeInfo.kubeletVersion $kwokVersion }}
  machineID: {{ or $nodeInfo.machineID \`""\` }}
  operatingSystem: {{ or $nodeInfo.operatingSystem "linux" }}
  osImage: {{ or $nodeInfo.osImage \`""\` }}
  systemUUID: {{ or $nodeInfo.systemUUID \`""\` }}
phase: Running
`;

/** Refreshes every condition's lastHeartbeatTime and keeps the rest, as a kubelet status report with no change. */
const HEARTBEAT_TEMPLATE = `{{ $now := Now }}
conditions:
{{ range .status.conditions }}
- lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ .lastTransitionTime | Quote }}
  message: {{ .message | Quote }}
  reason: {{ .reason | Quote }}
  status: {{ .status | Quote }}
  type: {{ .type | Quote }}
{{ end }}
`;

const READY_STATUS = '.status.conditions.[] | select( .type == "Ready" ) | .status';

/** One kwok Stage document. */
function stage(name: string, matchExpressions: object[], next: object, delay?: object): object {
  return {
    apiVersion: 'kwok.x-k8s.io/v1alpha1',
    kind: 'Stage',
    metadata: { name },
    spec: { resourceRef: { apiGroup: 'v1', kind: 'Node' }, selector: { matchExpressions }, ...(delay ? { delay } : {}), next },
  };
}

/**
 * The status heartbeat period of a simulated node, milliseconds: [min, max] of the delay between two
 * status reports. A kubelet with node leases (Kubernetes ≥ 1.17) computes its status every
 * `nodeStatusUpdateFrequency` (default 10 s) but POSTS it only when something changed or
 * `nodeStatusReportFrequency` (default 5 min) passed (pkg/kubelet/kubelet_node_status.go, tryUpdateNodeStatus);
 * a simulated node never changes, so it reports after `nodeStatusReportFrequency`, rounded up to the next
 * update tick: kwok picks a delay uniformly in [report, report + update].
 */
export function statusHeartbeatWindowMs(kubelet: TimeoutSettings['kubelet']): { minMs: number; maxMs: number } {
  return { minMs: kubelet.nodeStatusReportFrequencyMs, maxMs: kubelet.nodeStatusReportFrequencyMs + kubelet.nodeStatusUpdateFrequencyMs };
}

/**
 * kwok's config file (`--config`): two node Stages that replace kwok's defaults. `node-initialize` makes a node
 * Ready at once when it is not; `node-heartbeat` refreshes the conditions' lastHeartbeatTime every
 * {@link statusHeartbeatWindowMs}. kwok's default `node-heartbeat-with-lease` waits 600–1210 s, and kwokctl's
 * heartbeat factor (default 5) multiplies lease duration, status frequency and the controller manager's
 * monitor periods; neither is used here, so every knob keeps its Kubernetes meaning. Pod stages are kwok's
 * defaults (pod-ready, pod-complete, pod-delete from kustomize/stage/pod/fast).
 * @returns multi-document YAML.
 */
export function renderKwokConfig(settings: TimeoutSettings): string {
  const { minMs, maxMs } = statusHeartbeatWindowMs(settings.kubelet);
  const docs = [
    stage('node-initialize', [{ key: READY_STATUS, operator: 'NotIn', values: ['True'] }], { statusTemplate: INITIALIZE_TEMPLATE }),
    stage(
      'node-heartbeat',
      [{ key: '.status.phase', operator: 'In', values: ['Running'] }, { key: READY_STATUS, operator: 'In', values: ['True'] }],
      { statusTemplate: HEARTBEAT_TEMPLATE },
      { durationMilliseconds: minMs, jitterDurationMilliseconds: maxMs },
    ),
  ];
  return docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}
