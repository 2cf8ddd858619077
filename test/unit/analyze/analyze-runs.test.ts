// Table-driven analyzer tests: one row per run directory in test/fixtures/runs, each with its expected values.
// To add a run recorded on a real cluster: copy its run directory (observations.jsonl + run.json) to
// test/fixtures/runs/<name>/ and add one row below.
import { expect } from 'chai';
import { loadFixtureRun, valueAt } from './fixture-runs.js';

interface Row {
  scenario: string;
  /** Why these values: the Kubernetes behaviour each one pins down. */
  why: string;
  expected: Record<string, unknown>;
}

const ROWS: Row[] = [
  {
    scenario: 'kind-reboot-quick-recorded',
    why: 'recorded on a real kind cluster (rebootlab/node:v1.34.4): docker restart is back long before the 50 s grace period, so the node never turns NotReady and nothing is tainted; every pod on it restarts in place with restartCount +1 and a new IP from the same podCIDR',
    expected: {
      'node:rebootlab-worker.faultTarget': true,
      'node:rebootlab-worker.notReadyAfterSeconds': null,
      'node:rebootlab-worker.noExecuteTaintAfterSeconds': null,
      'node:rebootlab-worker.internalIPChanged': false,
      'node:rebootlab-worker.readyAtEnd': true,
      'pod:web-5f5b5b77d7-c7r2h.outcome': 'restarted-in-place',
      'pod:web-5f5b5b77d7-c7r2h.restartCountDelta': 1,
      'pod:web-5f5b5b77d7-c7r2h.podIPBefore': '10.244.2.10',
      'pod:web-5f5b5b77d7-c7r2h.podIPAfter': '10.244.2.5',
      'pod:web-5f5b5b77d7-c7r2h.evictedAfterSeconds': null,
      'pod:db-0.outcome': 'restarted-in-place',
      'pod:solo.outcome': 'restarted-in-place',
      'pod:agent-slhws.outcome': 'restarted-in-place', // the DaemonSet pod on the target
      'pod:agent-k8vkh.outcome': 'unaffected', // the DaemonSet pod on the other worker
      'workload:web.minimumReady': 0,
      // Time zero is the start of `docker restart`, which took 3.23 s: clients lost the pods then, the API saw them
      // NotReady only later.
      'run.timeZero': 'fault-injecting',
      'run.faults.0.commandSeconds': 3.23,
      'run.faults.0.effectiveAfterSeconds': 3.23,
      'workload:web.unavailableSeconds': 11.585,
      'workload:web.apiUnavailableSeconds': 4.819,
      'workload:web.recoveredAfterSeconds': 11.585,
      // The heartbeat never stopped longer than the 50 s grace period: no NotReady predicted, none happened.
      'item:node-not-ready@rebootlab-worker.expected': false,
      'item:node-not-ready@rebootlab-worker.held': true,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-outage-tuned-recorded',
    why: 'recorded on a real kind cluster: power-off 120 s with grace 20 s, lease 20 s (renew 5 s), default tolerations 30 s: Unknown inside [15, 25] s with both taints at once, evictions 30 s later, replacements Ready within 2.4 s on the other worker, the standalone pod lost',
    expected: {
      'node:rebootlab-worker.notReadyStatus': 'Unknown',
      'node:rebootlab-worker.notReadyReason': 'NodeStatusUnknown',
      'run.faults.0.commandSeconds': 2.608, // docker stop; every instant below is 2.608 s later than from its return
      'run.faults.0.lastLeaseRenewBeforeFault.afterSeconds': -1.029,
      'node:rebootlab-worker.notReadyAfterSeconds': 22.05,
      'node:rebootlab-worker.notReadyReceivedAfterSeconds': 22.188,
      'node:rebootlab-worker.noExecuteTaintAfterSeconds': 22.05,
      'node:rebootlab-worker.readyAgainAfterSeconds': 131.05,
      'pod:web-5f5b5b77d7-dg2wh.outcome': 'evicted-replaced',
      'pod:web-5f5b5b77d7-dg2wh.evictedAfterSeconds': 52.318,
      'pod:web-5f5b5b77d7-dg2wh.tolerations.unreachableTolerationSeconds': 30,
      'pod:web-5f5b5b77d7-dg2wh.replacement.readyAfterSeconds': 54.671,
      'pod:web-5f5b5b77d7-dg2wh.replacement.node': 'rebootlab-worker2',
      'pod:web-5f5b5b77d7-s6gw8.outcome': 'evicted-replaced',
      'pod:solo.outcome': 'evicted-lost',
      'pod:solo.evictedAfterSeconds': 52.314,
      'workload:web.unavailableSeconds': 54.671, // from time zero: the pods died with the node
      'workload:web.apiUnavailableSeconds': 32.303,
      'workload:web.recoveredAfterSeconds': 54.671,
      'workload:solo.recoveredAfterSeconds': null,
      // Detection from the last Lease renewal (−1.029 s) + grace 20 s: [R + G − 1, R + G + 2 × 5 s + 1].
      'item:node-not-ready@rebootlab-worker.window': { fromSeconds: 17.971, toSeconds: 29.971 },
      'item:node-not-ready@rebootlab-worker.held': true,
      'item:no-execute-taint/unreachable@rebootlab-worker.held': true,
      // Eviction 30 s (toleration) after the controller saw the taint: no earlier than its server timeAdded (22.050 s,
      // later than receipt 22.383 s − 1 s of watch latency), no later than receipt + 1 s + latency.
      'item:pod-eviction@web-5f5b5b77d7-dg2wh.window': { fromSeconds: 52.05, toSeconds: 54.383 },
      'item:pod-eviction@web-5f5b5b77d7-dg2wh.held': true,
      'item:replacement-created@web-5f5b5b77d7-dg2wh.held': true,
      'item:replacement-created@solo.expected': false,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-sts-force-delete-recorded',
    why: 'recorded on a real kind cluster (catalog sts-recovery-force-delete): power-off with grace 20 s and tolerations 30 s; the StatefulSet pod is evicted at ≈48 s and stuck Terminating until the force-delete-pods step at 60 s, then recreated on the other worker and Ready 1.6 s later',
    expected: {
      'run.steps.0.action': 'force-delete-pods',
      'run.steps.0.node': 'rl-cat-e2e-worker',
      'run.faults.0.commandSeconds': 1.858,
      'run.steps.0.afterSeconds': 62.425,
      'node:rl-cat-e2e-worker.notReadyAfterSeconds': 20.162,
      'pod:db-0.evictedAfterSeconds': 50.331,
      'pod:db-0.deletedAfterSeconds': 62.271,
      'pod:db-0.outcome': 'evicted-replaced',
      'pod:db-0.replacement.readyAfterSeconds': 63.885,
      'pod:db-0.replacement.node': 'rl-cat-e2e-worker2',
      'pod:db-0.phaseWhenNotReady': 'Running',
      'pod:web-679799b85f-9n5jf.replacement.readyAfterSeconds': 51.83,
      'workload:db.recoveredAfterSeconds': 63.885,
      // The StatefulSet pod is deleted by the step, and only then recreated.
      'item:pod-deleted@db-0.cause.event': 'force-delete-pods step on rl-cat-e2e-worker started',
      'item:pod-deleted@db-0.held': true,
      'item:replacement-created@db-0.cause.event': 'db-0 deleted (received)',
      'item:replacement-created@db-0.held': true,
      // DaemonSet pods tolerate unreachable forever: the step's delete is not an eviction.
      'item:pod-eviction@kube-proxy-4frrn.expected': false,
      'item:pod-eviction@kube-proxy-4frrn.held': true,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-kubelet-restart-recorded',
    why: 'recorded on a real kind cluster (experiments/catalog/kubelet-restart.yaml, v1.34.4): systemctl restart kubelet on the node of a one-replica web behind a Service (readiness probe every 10 s). No container restart, same pod IP, the node never NotReady; the restarted kubelet reported the pod not ready until its first probe, so the EndpointSlice dropped and regained the endpoint (14 ms apart here), and the prober through another worker failed for about a second after it (kube-proxy applies a slice change up to its sync period later)',
    expected: {
      'node:rl-cat-e2e-clients-worker.notReadyAfterSeconds': null,
      'run.faults.0.commandSeconds': 0.588,
      'pod:web-774648d964-dq7t2.outcome': 'unaffected',
      'pod:web-774648d964-dq7t2.restartCountDelta': 0,
      'pod:web-774648d964-dq7t2.podIPBefore': '10.244.2.2',
      'pod:web-774648d964-dq7t2.podIPAfter': '10.244.2.2',
      'pod:web-774648d964-dq7t2.endpointNotReadyAfterSeconds': 5.625,
      'pod:web-774648d964-dq7t2.endpointReadyAgainAfterSeconds': 5.639,
      'workload:web.endpoints.minimumReady': 0,
      'run.probes.0.sent': 783,
      'run.probes.0.errors': 21,
      'run.probes.0.lostRecords': 0,
      'run.probes.0.failingBackends.0.cause': 'no-ready-endpoint',
      'run.probes.0.failingBackends.0.failed': 21,
      'run.probes.0.failingBackends.0.firstAfterSeconds': 5.853,
      'run.probes.0.failingBackends.0.lastAfterSeconds': 6.865,
    },
  },
  {
    scenario: 'kind-control-plane-cut-off-recorded',
    why: 'recorded on a real kind cluster (experiments/catalog/control-plane-cut-off.yaml, case C14, v1.34.4): the kubelet of all three workers stopped for 90 s. All three Unknown in one pass; 3 of 4 NotReady turns the zone PartialDisruption (rate 0) after the one token went to the first worker; the pods tolerate 300 s, so none is evicted, but every pod is marked Ready=False and the Service has no ready endpoint until the kubelets report again; the prober through the control-plane node fails every request meanwhile although every container serves',
    expected: {
      'node:rl-cat-e2e-clients-worker.notReadyAfterSeconds': 22.484,
      'node:rl-cat-e2e-clients-worker2.notReadyAfterSeconds': 22.484,
      'node:rl-cat-e2e-clients-worker3.notReadyAfterSeconds': 22.484,
      'node:rl-cat-e2e-clients-worker.noExecuteTaintAfterSeconds': 22.484,
      'node:rl-cat-e2e-clients-worker2.noExecuteTaintAfterSeconds': null,
      'node:rl-cat-e2e-clients-worker3.noExecuteTaintAfterSeconds': null,
      'pod:web-564df6b664-2pcdm.evictedAfterSeconds': null,
      'pod:web-564df6b664-2pcdm.restartCountDelta': 0,
      'pod:web-564df6b664-2pcdm.podIPAfter': '10.244.2.3',
      'pod:web-564df6b664-f4ntv.endpointNotReadyAfterSeconds': 23.747,
      'pod:web-564df6b664-f4ntv.endpointReadyAgainAfterSeconds': 97.135,
      'workload:web.endpoints.readyAtFault': 3,
      'workload:web.endpoints.minimumReady': 0,
      'workload:web.endpoints.noReadyEndpointAfterSeconds': 23.747,
      'workload:web.endpoints.noReadyEndpointSeconds': 73.388,
      'run.faultRestoredAfterSeconds': 95.41,
      'run.probes.0.errors': 1263,
      'run.probes.0.lostRecords': 0,
      'run.probes.0.failingBackends.length': 1,
      'run.probes.0.failingBackends.0.cause': 'no-ready-endpoint',
      'run.probes.0.failingBackends.0.firstAfterSeconds': 25.061,
      'run.probes.0.failingBackends.0.lastAfterSeconds': 96.072,
    },
  },
  {
    scenario: 'kind-service-outage-recorded',
    why: 'recorded on a real kind cluster (test/fixtures/e2e/service-outage.yaml, v1.34.4; times from the start of docker stop, which took 2.814 s): power-off with grace 20 s and tolerations 30 s; web (2 pods on the target) and api (spread) behind ClusterIP Services. Each endpoint turns not ready once the node lifecycle controller marks its pod NotReady, terminating at the taint eviction, and leaves the slice when the returning kubelet reports the old container terminated; web has no ready endpoint from its second pod\'s NotReady until the first replacement is Ready, api keeps the pod on the other worker',
    expected: {
      'node:rl-endpoints-worker.notReadyAfterSeconds': 18.25,
      'node:rl-endpoints-worker.readyAgainAfterSeconds': 96.25,
      'pod:web-ff48466b5-2vbnq.notReadyReceivedAfterSeconds': 19.084,
      'pod:web-ff48466b5-2vbnq.endpointReadyAtFault': true,
      'pod:web-ff48466b5-2vbnq.endpointNotReadyAfterSeconds': 19.034,
      'pod:web-ff48466b5-2vbnq.evictedAfterSeconds': 49.017,
      'pod:web-ff48466b5-2vbnq.endpointTerminatingAfterSeconds': 49.107,
      'pod:web-ff48466b5-2vbnq.endpointRemovedAfterSeconds': 98.173,
      'pod:web-ff48466b5-2vbnq.deletedAfterSeconds': 99.401,
      'pod:web-ff48466b5-2vbnq.endpointReadyAgainAfterSeconds': 52.427,
      'pod:web-ff48466b5-6rwb4.endpointNotReadyAfterSeconds': 19.102,
      'pod:web-ff48466b5-6rwb4.endpointReadyAgainAfterSeconds': 51.491,
      'pod:web-ff48466b5-6rwb4.replacement.readyAfterSeconds': 51.459,
      'pod:api-7d54775566-nxqk7.outcome': 'unaffected',
      'pod:api-7d54775566-nxqk7.endpointNotReadyAfterSeconds': null,
      'workload:web.endpoints.noReadyEndpointSeconds': 32.389,
      'workload:web.endpoints.noReadyEndpointAfterSeconds': 19.102,
      // Clients lose both web pods at time zero (the node is off) until the first replacement is Ready; the API
      // figure counts from the pods' NotReady.
      'workload:web.unavailableSeconds': 51.484,
      'workload:web.apiUnavailableSeconds': 32.4,
      'workload:api.endpoints.minimumReady': 1,
      'workload:api.endpoints.noReadyEndpointSeconds': 0,
    },
  },
  {
    scenario: 'kind-staggered-workers-recorded',
    why: 'recorded on a real kind cluster (experiments/catalog/staggered-workers.yaml, case C9): 1 control plane + 3 workers powered off 15 s apart, grace 20 s, tolerations 30 s. Each worker is detected alone in a monitor pass and takes the zone\'s token; in this run the third did so before the end of its pass turned the zone PartialDisruption (3 of 4 NotReady, rate 0), so all three are tainted at their own detection and all six pods evicted 30 s later; the model predicts each from the observed detection and none is missed',
    expected: {
      'node:rl-rec3-worker.notReadyAfterSeconds': 19.977,
      'node:rl-rec3-worker2.notReadyAfterSeconds': 34.977,
      'node:rl-rec3-worker3.notReadyAfterSeconds': 49.977,
      'node:rl-rec3-worker3.noExecuteTaintAfterSeconds': 49.977,
      'item:no-execute-taint/unreachable@rl-rec3-worker.held': true,
      'item:no-execute-taint/unreachable@rl-rec3-worker2.held': true,
      'item:no-execute-taint/unreachable@rl-rec3-worker3.held': true,
      'pod:web-86d667ffd6-8s7pz.evictedAfterSeconds': 50.272,
      'pod:web-86d667ffd6-922sm.evictedAfterSeconds': 80.591,
      'item:pod-eviction@web-86d667ffd6-922sm.held': true,
      // Every worker is down: the replacements have nowhere to go but the tainted control plane.
      'pod:web-86d667ffd6-922sm.outcome': 'pending-unschedulable',
      'run.predictions.heldCount': 27,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-out-of-service-early-recorded',
    why: 'recorded on a real kind cluster (experiments/catalog/out-of-service-early.yaml, case C10): the out-of-service taint 2 s after a power-off evicts the Deployment and StatefulSet pods at once (no toleration for it); the Deployment\'s replacement runs at once, the StatefulSet pod waits until pod garbage collection force-deletes it at its first pass after the node is also NotReady; the out-of-service taint is not reported as the unreachable one',
    expected: {
      'node:rl-rec2-worker.outOfServiceTaintAfterSeconds': 2.963,
      'node:rl-rec2-worker.noExecuteTaintAfterSeconds': 22.917,
      'node:rl-rec2-worker.notReadyAfterSeconds': 22.917,
      'pod:web-7bff6f7d6d-5cwsw.evictedAfterSeconds': 2.998,
      'pod:web-7bff6f7d6d-5cwsw.replacement.readyAfterSeconds': 4.395,
      'pod:db-0.evictedAfterSeconds': 3.081,
      'pod:db-0.deletedAfterSeconds': 27.918,
      'pod:db-0.outcome': 'evicted-replaced',
      'item:pod-deleted@db-0.held': true,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-sts-delete-node-recorded',
    why: 'recorded on a real kind cluster (experiments/catalog/sts-recovery-delete-node.yaml, catalog cluster under load from parallel builds): power-off, Node object deleted at 60 s. The taint eviction controller marked db-0 and the web pod 30 s after the unreachable taint (db-0 0.13 s before our receipt of the taint + 30 s: the controller saw the taint first); pod garbage collection deleted every pod of the deleted Node 42 s after the deletion, the DaemonSet pods included: their deletionTimestamp came from PodGC, not from an eviction they tolerate forever',
    expected: {
      'node:rl-cat-e2e-worker.deletedAfterSeconds': 61.008,
      'pod:db-0.evictedAfterSeconds': 50.515,
      'pod:db-0.deletedAfterSeconds': 103.856,
      'pod:kube-proxy-shbv4.evictedAfterSeconds': 104.223,
      'item:pod-eviction@db-0.held': true,
      'item:pod-eviction@kube-proxy-shbv4.expected': false,
      'item:pod-eviction@kube-proxy-shbv4.held': true,
      'item:pod-deleted@kube-proxy-shbv4.held': true,
      'item:pod-deleted@db-0.held': true,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-runtime-stop-recorded',
    why: 'recorded on a real kind cluster (experiments/catalog/runtime-stop.yaml): containerd stopped for 90 s while the kubelet runs. The kubelet reports Ready=False itself (KubeletNotReady), so the node lifecycle controller adds the not-ready taints (NoExecute at its next monitor pass, 2.1 s after the kubelet\'s update) and the pods\' not-ready toleration (30 s) decides the eviction; the containers keep running through their shims, and the old pods are deleted only once containerd is back',
    expected: {
      'node:rl-rec2-worker.notReadyStatus': 'False',
      'node:rl-rec2-worker.notReadyReason': 'KubeletNotReady',
      'node:rl-rec2-worker.notReadyAfterSeconds': 34.369,
      'node:rl-rec2-worker.noExecuteTaintAfterSeconds': 36.369,
      'item:no-execute-taint/not-ready@rl-rec2-worker.held': true,
      'item:no-execute-taint/not-ready@rl-rec2-worker.taintKey': 'node.kubernetes.io/not-ready',
      'pod:web-7bff6f7d6d-58fwh.evictedAfterSeconds': 66.829,
      'pod:web-7bff6f7d6d-58fwh.restartCountDelta': 0,
      'pod:web-7bff6f7d6d-58fwh.deletedAfterSeconds': 103.089,
      'item:pod-eviction/not-ready@web-7bff6f7d6d-58fwh.held': true,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-status-update-frequency-recorded',
    why: 'recorded on a real kind cluster (experiments/catalog/status-update-frequency.yaml, 3 Dec 2026): the kubelet sets only nodeStatusUpdateFrequency 4s, so it defaults nodeStatusReportFrequency to 4 s (read back from configz) and posts its status every ~4 s; grace 20 s, monitor period 2 s. Its last heartbeat before the power-off was a status post (Ready lastHeartbeatTime -0.582 s), 7 s after its last Lease renewal (-7.558 s): Ready=Unknown at 22.418 s is inside the window from the post [18.418, 24.617] and would be 5 s late from the Lease alone',
    expected: {
      'run.predictions.missed': [],
      'node:mech-worker.notReadyStatus': 'Unknown',
      'node:mech-worker.notReadyAfterSeconds': 22.418,
      'item:node-not-ready@mech-worker.cause.atSeconds': -0.582,
      'item:node-not-ready@mech-worker.window': { fromSeconds: 18.418, toSeconds: 24.617 },
      'item:node-not-ready@mech-worker.held': true,
    },
  },
  {
    scenario: 'kind-network-partition-120-recorded',
    why: 'recorded on a real kind cluster (3 Dec 2026, grace 20 s, lease 20 s, nodeStatusUpdateFrequency 10 s): a 120 s network-partition. The kubelet\'s HTTP/2 connection was closed by client-go\'s health check 44.7 s in; its Lease renewals resumed 6.5 s after the heal, but Ready=True came only 13.6 s after it: the kubelet patches its status against its own Node informer, which relisted at its reflector\'s next retry 4.9 s after the heal (kubelet-node-informer.log: attempts 2.8, 4.7, 7.1, 19.9 and 46.6 s apart), and the next status sync posted Ready. No status post between the heal and Ready=True',
    expected: {
      'run.predictions.missed': [],
      'node:mech-worker.notReadyStatus': 'Unknown',
      'node:mech-worker.readyAgainAfterSeconds': 134.478,
      'run.faults.0.restoredAfterSeconds': 120.876,
      'item:node-ready-again@mech-worker.held': true,
      'item:node-ready-again@mech-worker.window': { fromSeconds: 119.307, toSeconds: 192.276 },
    },
  },
  {
    scenario: 'kind-jobs-node-lost-recorded',
    why: 'recorded on a real kind cluster (experiments/catalog/jobs-node-lost.yaml, 3 Dec 2026): node-delete of the worker holding two Jobs of 3 pods, backoffLimit 2. PodGC marked the 6 pods Failed at 42.4 s; `plain` counted 3 failures > 2 and failed (BackoffLimitExceeded); `tolerant` (podFailurePolicy Ignore on DisruptionTarget) counted none but backed off 40 s (3 failures since the last success) from the deletionTimestamp PodGC set, replacing its pods at 82.46–82.48 s',
    expected: {
      'run.predictions.missed': [],
      'run.jobs.0.name': 'plain',
      'run.jobs.0.failed': 3,
      'run.jobs.1.name': 'tolerant',
      'run.jobs.1.failed': 0,
      'run.jobs.1.active': 3,
      'run.jobs.1.backoffSeconds': 40.071,
    },
  },
  {
    scenario: 'kind-node-delete-podgc-recorded',
    why: 'recorded on a real kind cluster (experiments/node-delete-tuned.yaml): power-off and the Node object deleted at once; pod garbage collection marks each orphaned pod Failed at ≈43 s (its 40 s quarantine), the ReplicaSet creates a replacement at once, and only then is the pod deleted: both web pods are paired, each with its own replacement',
    expected: {
      'pod:web-8cf899bcf-k85dq.outcome': 'evicted-replaced',
      'pod:web-8cf899bcf-k85dq.replacement.name': 'web-8cf899bcf-j99rr',
      'pod:web-8cf899bcf-7p765.outcome': 'evicted-replaced',
      'pod:web-8cf899bcf-7p765.replacement.name': 'web-8cf899bcf-57xwb',
      'pod:web-8cf899bcf-7p765.evictedAfterSeconds': 45.433,
      'pod:solo.outcome': 'evicted-lost',
      'workload:web.recoveredAfterSeconds': 47.532,
      'workload:web.unavailableSeconds': 47.532,
      'workload:web.apiUnavailableSeconds': 2.306,
      // The Node that registered again after the restore (new UID, at 157 s) is a new Node, not this one's outage.
      'node:rl-api-e2e-worker.deletedAfterSeconds': 2.093,
      'node:rl-api-e2e-worker.recreatedAfterSeconds': 157.061,
      'node:rl-api-e2e-worker.notReadyAfterSeconds': null,
      'item:node-not-ready@rl-api-e2e-worker.expected': false,
      // PodGC: Node deleted at 2.093 s + 40 s quarantine, passes every 20 s.
      'item:pod-deleted@web-8cf899bcf-7p765.window': { fromSeconds: 42.093, toSeconds: 83.093 },
      'item:pod-deleted@web-8cf899bcf-7p765.held': true,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'reboot-quick',
    why: 'docker restart: kubelet reports Ready=False itself within seconds, pods restart in place with new IPs, nothing is evicted',
    expected: {
      'node:kind-worker.faultTarget': true,
      'node:kind-worker.notReadyStatus': 'False',
      'node:kind-worker.notReadyReason': 'KubeletNotReady',
      'node:kind-worker.notReadyAfterSeconds': 6.2, // lastTransitionTime has 1 s resolution; time zero 0.2 s before the whole second
      'node:kind-worker.notReadyReceivedAfterSeconds': 6.612,
      'node:kind-worker.readyAgainAfterSeconds': 9.2,
      'node:kind-worker.noExecuteTaintAfterSeconds': 6.2, // not-ready:NoExecute, timeAdded
      'node:kind-worker.internalIPChanged': false,
      'pod:web-7c9f8d6b5-abcde.outcome': 'restarted-in-place',
      'pod:web-7c9f8d6b5-abcde.restartCountDelta': 1,
      'pod:web-7c9f8d6b5-abcde.podIPBefore': '10.244.1.5',
      'pod:web-7c9f8d6b5-abcde.podIPAfter': '10.244.1.9',
      'pod:web-7c9f8d6b5-abcde.nodeAfter': 'kind-worker',
      'pod:web-7c9f8d6b5-abcde.evictedAfterSeconds': null,
      'pod:web-7c9f8d6b5-fghij.outcome': 'restarted-in-place',
      'workload:web.minimumReady': 0,
      'workload:web.unavailableSeconds': 12.7, // clients lose the pods at the restart (time zero) until Ready again at 12.7 s
      'workload:web.apiUnavailableSeconds': 5.395, // 7.305 → 12.700
      'workload:web.recoveredAfterSeconds': 12.7,
      'item:node-not-ready@kind-worker.expected': false, // the Lease was never silent for the 50 s grace period
      'item:node-not-ready-kubelet@kind-worker.notModelled':
        'not modelled: when a live kubelet reports Ready=False depends on the kubelet and its container runtime, not on a controller setting',
      // The kubelet-reported NotReady gets the not-ready taint (not unreachable) in the same pass.
      'item:no-execute-taint/not-ready@kind-worker.held': true,
      'item:pod-eviction@web-7c9f8d6b5-abcde.expected': false, // the taint was removed long before 300 s
      'run.predictions.missed': [],
      'run.recovered': true,
    },
  },
  {
    scenario: 'power-off-past-toleration',
    why: 'grace 20 s, lease 20 s (renew 5 s), tolerations 30 s: Unknown at ≈22 s, evictions at ≈52.7 s; Deployment replaced, standalone pod lost, StatefulSet pod stuck, DaemonSet pod kept',
    expected: {
      'node:kind-worker.notReadyStatus': 'Unknown',
      'node:kind-worker.notReadyReason': 'NodeStatusUnknown',
      'node:kind-worker.notReadyAfterSeconds': 22.3,
      'node:kind-worker.notReadyReceivedAfterSeconds': 22.731,
      'node:kind-worker.lastLeaseRenewBeforeDetection.afterSeconds': -1.8,
      'node:kind-worker.noScheduleTaintAfterSeconds': 22.3,
      'node:kind-worker.noExecuteTaintAfterSeconds': 22.3,
      'node:kind-worker.readyAgainAfterSeconds': null,
      'node:kind-worker.readyAtEnd': false,
      'pod:web-5d8b7c9f4-aaaaa.outcome': 'evicted-replaced',
      'pod:web-5d8b7c9f4-aaaaa.evictedAfterSeconds': 53.001,
      'pod:web-5d8b7c9f4-aaaaa.tolerations.unreachableTolerationSeconds': 30,
      'pod:web-5d8b7c9f4-aaaaa.replacement.name': 'web-5d8b7c9f4-ccccc',
      'pod:web-5d8b7c9f4-aaaaa.replacement.createdAfterSeconds': 53.045,
      'pod:web-5d8b7c9f4-aaaaa.replacement.scheduledAfterSeconds': 53.06,
      'pod:web-5d8b7c9f4-aaaaa.replacement.readyAfterSeconds': 55.601,
      'pod:web-5d8b7c9f4-aaaaa.replacement.node': 'kind-worker2',
      'pod:web-5d8b7c9f4-bbbbb.outcome': 'unaffected',
      'pod:solo.outcome': 'evicted-lost',
      'pod:db-0.outcome': 'stuck-terminating',
      'pod:db-0.deletedAfterSeconds': null,
      'pod:agent-x7k2p.outcome': 'not-evicted',
      'pod:agent-x7k2p.tolerations.unreachableTolerationSeconds': null, // DaemonSet: tolerates forever
      'pod:agent-x7k2p.notReadyAfterSeconds': 22.3,
      'pod:agent-m4q9z.outcome': 'unaffected',
      'pod:kube-proxy-8xk2l.workload': null, // on the target node, not ours: listed anyway
      'workload:web.unavailableSeconds': 55.601, // clients: 0 → 55.601 (the pod died with the node)
      'workload:web.apiUnavailableSeconds': 32.689, // API: 22.912 → 55.601
      'workload:web.recoveredAfterSeconds': 55.601,
      'workload:db.recovered': false,
      'workload:agent.desired': 2, // no desiredReplicas: Ready count at the fault
      'workload:agent.minimumReady': 1,
      'item:node-not-ready@kind-worker.held': true,
      'item:no-execute-taint/unreachable@kind-worker.held': true,
      'item:pod-eviction@web-5d8b7c9f4-aaaaa.held': true,
      'item:pod-eviction@agent-x7k2p.expected': false, // DaemonSet: tolerates unreachable forever
      'item:pod-eviction@agent-x7k2p.held': true,
      'item:replacement-created@db-0.expected': false, // StatefulSet: not while db-0 is still Terminating
      'run.predictions.missed': [],
      'run.recovered': false,
    },
  },
  {
    scenario: 'partition-short',
    why: 'a 10 s partition is shorter than grace − renew (40 s): the node is never marked NotReady and no pod is touched',
    expected: {
      'node:kind-worker.notReadyAfterSeconds': null,
      'node:kind-worker.noExecuteTaintAfterSeconds': null,
      'node:kind-worker.lastLeaseRenewBeforeDetection.afterSeconds': -3.2, // never detected: last renewal before the restore
      'pod:web-6f7d9c8b4-qqqqq.outcome': 'unaffected',
      'pod:web-6f7d9c8b4-rrrrr.outcome': 'unaffected',
      'workload:web.unavailableSeconds': 10, // clients cannot reach the partitioned node's pods for the 10 s
      'workload:web.apiUnavailableSeconds': 0,
      'workload:web.recoveredAfterSeconds': 10,
      'run.timeZero': 'fault-injected', // synthetic journal without a fault-injecting marker
      'item:node-not-ready@kind-worker.expected': false,
      'item:node-not-ready@kind-worker.held': true,
      'run.faultRestoredAfterSeconds': 10,
      'run.gaps.length': 1,
      'run.recovered': true,
    },
  },
  {
    scenario: 'kind-power-off-blackhole-recorded',
    why: 'recorded on kind (experiments/catalog/power-off-blackhole.yaml): one of three web pods on a powered-off worker; its endpoint stays ready until the node is detected (Unknown received 22.919 s, endpoint not ready 23.016 s), so about a third of the requests fail meanwhile (the blackhole); evicted 30 s after the taint and replaced',
    expected: {
      'node:rl-bh-worker.notReadyReceivedAfterSeconds': 22.919,
      'pod:web-6d649457bf-tfr5d.outcome': 'evicted-replaced',
      'pod:web-6d649457bf-tfr5d.endpointNotReadyAfterSeconds': 23.016,
      'pod:web-6d649457bf-tfr5d.evictedAfterSeconds': 53.138,
      'pod:web-6d649457bf-76bv8.outcome': 'unaffected',
      'run.probes.0.sent': 2186,
      'run.probes.0.lostRecords': 0,
      'run.probes.0.blackhole.fromSeconds': 0.411,
      'run.probes.0.blackhole.toSeconds': 23.006,
      'run.probes.0.blackhole.failed': 142,
      'run.probes.0.blackhole.sent': 442,
      'run.probes.0.failingBackends.2.cause': 'reused-conntrack-entry',
      'run.predictions.missed.length': 0,
    },
  },
  {
    scenario: 'kind-dns-coredns-node-recorded',
    why: 'case C16, recorded on kind (experiments/catalog/dns-coredns-node.yaml, 3 Dec 2026): one of two CoreDNS replicas moved onto a worker that is powered off; UDP queries through the DNS pods time out about one in two from when the replica died during docker stop (5.2 s; the command took 5.6 s) until its endpoint was not ready at detection (Unknown received 22.283 s), each explained by the endpoint still ready on the down node; none after: kube-proxy cleared the UDP conntrack entries toward it with the rules',
    expected: {
      'node:rl-dns-worker.notReadyReceivedAfterSeconds': 22.283,
      'pod:coredns-66bc5c9577-slt48.outcome': 'evicted-replaced',
      'pod:coredns-66bc5c9577-slt48.evictedAfterSeconds': 52.372,
      'pod:coredns-66bc5c9577-wzz8f.outcome': 'unaffected',
      'run.probes.0.type': 'dns',
      'run.probes.0.service': 'rebootlab-dns',
      'run.probes.0.sent': 2103,
      'run.probes.0.lostRecords': 0,
      'run.probes.0.backends.length': 0,
      'run.probes.0.blackhole.fromSeconds': 5.226,
      'run.probes.0.blackhole.toSeconds': 23.388,
      'run.probes.0.blackhole.failed': 174,
      'run.probes.0.blackhole.sent': 351,
      'run.probes.0.failingBackends.length': 1,
      'run.probes.0.failingBackends.0.cause': 'endpoint-ready-on-down-node',
      'run.probes.0.failingBackends.0.pods.0': 'coredns-66bc5c9577-slt48',
      'run.predictions.missed.length': 0,
    },
  },
  {
    scenario: 'node-delete-local-volume',
    why: 'case C7: Node object deleted while stopped; pod GC removes its pods ≈ 40 s later; the Deployment pod is replaced, the StatefulSet pod with a local PV stays Pending',
    expected: {
      'node:kind-worker.deletedAfterSeconds': 1.204,
      'node:kind-worker.recreatedAfterSeconds': null,
      'node:kind-worker.readyAtEnd': false,
      'node:kind-worker.notReadyAfterSeconds': null, // deleted before the lifecycle controller noticed
      'pod:web-84c6d5f7b9-aaaaa.outcome': 'evicted-replaced',
      'pod:web-84c6d5f7b9-aaaaa.deletedAfterSeconds': 41.502,
      'pod:web-84c6d5f7b9-aaaaa.replacement.readyAfterSeconds': 43.877,
      'pod:db-0.outcome': 'pending-unschedulable',
      'pod:db-0.replacement.name': 'db-0', // a StatefulSet recreates the same name with a new UID
      'pod:db-0.replacement.scheduledAfterSeconds': null,
      'pod:db-0.replacement.pendingReason':
        'Unschedulable: 0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had volume node affinity conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      'workload:web.unavailableSeconds': 43.877, // clients: 0 → 43.877
      'workload:web.apiUnavailableSeconds': 2.375, // API: 41.502 → 43.877
      'workload:db.recovered': false,
      'run.faultRestoredAfterSeconds': null,
      'run.warnings': [
        'journal has no fault-injecting marker (recorded before rebootlab wrote one): time zero is when the first fault command returned, not when it started',
        'no fault-restored marker: the fault was not undone during observation',
      ],
    },
  },
  {
    scenario: 'kwok-eviction-rate-large-zone-recorded',
    why: 'recorded on kwok (experiments/eviction-rate-large-zone.yaml): 10 of 100 workers in one zone lose heartbeats together; zone-a stays Normal (10 % < 55 %), so one NoExecute taint per --node-eviction-rate token (10 s). Which waiting node takes each token is the order of the latest monitor pass (markNodeForTainting re-queues every untainted NotReady node in its lister\'s order), not their names: worker10 first, worker (the first target) last. worker16 was written a second after the others in the same pass. The second taint was received 9.38 s after the first, so the first was received at least 0.62 s after it was written, so a window chained on a received taint opens one observation latency early',
    expected: {
      'node:rebootlab-worker10.noExecuteTaintAfterSeconds': 22.121,
      'node:rebootlab-worker16.notReadyAfterSeconds': 23.121,
      'node:rebootlab-worker16.noExecuteTaintAfterSeconds': 62.121,
      'node:rebootlab-worker.noExecuteTaintAfterSeconds': 113.121,
      'item:no-execute-taint/unreachable@rebootlab-worker10.held': true,
      'item:no-execute-taint/unreachable@rebootlab-worker14.held': true,
      'item:no-execute-taint/unreachable@rebootlab-worker16.held': true,
      'item:no-execute-taint/unreachable@rebootlab-worker.held': true,
      'run.predictions.heldCount': 84,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-staggered-workers-third-untainted-recorded',
    why: 'recorded on kind (experiments/catalog/staggered-workers.yaml, campaign of 2 Dec 2026, run r2): the same three workers 15 s apart, but the third lost the race: its monitor pass ended (3 of 4 NotReady: PartialDisruption, rate 0) before the 100 ms tainting loop tainted it. The first two are tainted at their detection (the second one after its pass, at the zone\'s next token); the third is never tainted and its pods are never evicted, predicted as such and held',
    expected: {
      'node:rebootlab-worker.noExecuteTaintAfterSeconds': 23.326,
      'node:rebootlab-worker2.noExecuteTaintAfterSeconds': 34.326,
      'node:rebootlab-worker3.notReadyAfterSeconds': 49.326,
      'node:rebootlab-worker3.noExecuteTaintAfterSeconds': null,
      'item:no-execute-taint/unreachable@rebootlab-worker.held': true,
      'item:no-execute-taint/unreachable@rebootlab-worker2.held': true,
      'item:no-execute-taint/unreachable@rebootlab-worker3.expected': false,
      'item:no-execute-taint/unreachable@rebootlab-worker3.held': true,
      'run.predictions.zoneStates.0.state': 'PartialDisruption',
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kwok-zone-partial-disruption-recorded',
    why: 'recorded on kwok (experiments/zone-partial-disruption.yaml, campaign of 2 Dec 2026, run r1): 3 of 4 nodes of zone-a Ready=Unknown in one monitor pass and none tainted. The controller queues a node mid-pass and its tainting loop runs every 100 ms, but the end of this short pass swapped the zone\'s limiter to rate 0 (PartialDisruption, ≤ 50 nodes) first; the other two runs of the campaign had one taint. So no node is predicted tainted, the race is named, and no pod is evicted',
    expected: {
      'node:rebootlab-worker.notReadyAfterSeconds': 21.79,
      'node:rebootlab-worker.noExecuteTaintAfterSeconds': null,
      'node:rebootlab-worker2.noExecuteTaintAfterSeconds': null,
      'node:rebootlab-worker3.noExecuteTaintAfterSeconds': null,
      'item:no-execute-taint/unreachable@rebootlab-worker.expected': false,
      'item:no-execute-taint/unreachable@rebootlab-worker.held': true,
      'item:no-execute-taint/unreachable@rebootlab-worker2.held': true,
      'item:no-execute-taint/unreachable@rebootlab-worker3.held': true,
      'run.predictions.zoneStates.0.state': 'PartialDisruption',
      'run.predictions.zoneStates.0.evictionRatePerSecond': 0,
      'run.predictions.heldCount': 15,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-controller-manager-restart-recorded',
    why: 'recorded on kind (experiments/controller-manager-restart.ts, campaign of 2 Dec 2026, run r0): the worker tainted at 20.1 s, kube-controller-manager killed about 15 s later (its last Lease renewal 35.587 s, its container started again at 36.1 s), the new holder acquired the Lease at 52.794 s once the old one expired (15 s). The 30 s toleration countdown died with the old leader. The new leader\'s first pass (RegisteredNode received 54.319 s) removed and re-added the unreachable taint (markNodeAsReachable on every node it had not seen, then the taint queue): evictions 30 s after the re-added taint (84.5 s instead of about 50.4 s), predicted from it and held. The model before this fixture named the leader change only from its acquisition, 0.4 s after the old window closed, and reported both evictions missed',
    expected: {
      'node:rebootlab-scripts-worker.noExecuteTaintAfterSeconds': 20.102,
      'pod:web-6f7f997c64-n9kdv.evictedAfterSeconds': 84.498,
      'node:rebootlab-scripts-worker.taints.1.removedAfterSeconds': 54.343,
      'node:rebootlab-scripts-worker.taints.2.addedReceivedAfterSeconds': 54.438,
      'item:pod-eviction@web-6f7f997c64-n9kdv.window': { fromSeconds: 84.102, toSeconds: 86.438 },
      'item:pod-eviction@web-6f7f997c64-n9kdv.held': true,
      'item:pod-eviction@web-6f7f997c64-n9kdv.cause': { event: 'NoExecute taint change on rebootlab-scripts-worker seen by the taint eviction controller (received)', atSeconds: 54.438 },
      'item:pod-eviction@web-6f7f997c64-pcnbj.held': true,
      'run.warnings': ["kube-controller-manager leader changed (old holder's last renewal 35.587 s, new holder acquired 52.794 s): countdowns pending across it restart from its first pass (RegisteredNode received 54.319 s)"],
      'run.predictions.heldCount': 9,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-rolling-reboot-recorded',
    why: 'recorded on kind (experiments/rolling-reboot.ts, campaign of 2 Dec 2026, run r0): time zero is the first worker\'s reboot; the second worker is drained after it. Its four web pods are evicted by the drain through the Eviction API (DisruptionTarget EvictionByEvictionAPI), not by the taint eviction controller: "no taint eviction" holds (the eviction is named), instead of a miss because the node never got a NoExecute taint',
    expected: {
      'pod:web-74b9845856-dx58g.evictedAfterSeconds': 5.232,
      'item:pod-eviction@web-74b9845856-dx58g.because': 'no NoExecute taint was observed on rebootlab-scripts-worker2: the taint eviction controller has nothing to act on; the pod was evicted through the Eviction API at 5.083 s (DisruptionTarget reason EvictionByEvictionAPI: a drain or another client), not by the taint eviction controller',
      'item:pod-eviction@web-74b9845856-dx58g.held': true,
      'item:replacement-created@web-74b9845856-dx58g.held': true,
      'item:node-not-ready@rebootlab-scripts-worker2.expected': false,
      'item:node-not-ready@rebootlab-scripts-worker2.held': true,
      'run.predictions.heldCount': 14,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-pdb-drain-refused-recorded',
    why: 'case C12 recorded on kind (experiments/catalog/pdb-drain-refused.yaml, 3 Dec 2026): a drain started with the power-off is refused by the minAvailable 2 budget (HTTP 429 every 5 s for 30 s: the pods count healthy until detection, then the budget is unhealthy), yet the taint eviction controller, which does not use the Eviction API, evicts both pods at the unreachable taint + 30 s',
    expected: {
      'pod:web-677dc6b7c4-96bf6.evictionApi.outcome': 'refused',
      'pod:web-677dc6b7c4-96bf6.evictionApi.refusals': 6,
      'pod:web-677dc6b7c4-96bf6.evictionApi.firstAttemptAfterSeconds': 1.351,
      'pod:web-677dc6b7c4-96bf6.evictionApi.lastAttemptAfterSeconds': 26.54,
      'pod:web-677dc6b7c4-96bf6.outcome': 'evicted-replaced',
      'pod:web-677dc6b7c4-96bf6.evictedAfterSeconds': 48.691,
      'node:rl-q28-pdb-drain-refused-worker.noExecuteTaintAfterSeconds': 17.995,
      'item:pod-eviction@web-677dc6b7c4-96bf6.held': true,
      'run.evictions.length': 2,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-label-removed-kubelet-restart-recorded',
    why: 'case C17 recorded on kind (experiments/catalog/label-removed-kubelet-restart.yaml, 3 Dec 2026; run.json carries the expectations as renamed since): the first kubelet restart leaves the pod running (label present); after the label is removed the second restart re-admits it, rejects it (Event NodeAffinity) and stops its container, which exits 0, so the pod ends Succeeded; the ReplicaSet replaces it on the labelled worker',
    expected: {
      'pod:web-c8f6ff5cb-rh6h6.outcome': 'terminated-replaced',
      'pod:web-c8f6ff5cb-rh6h6.terminatedPhase': 'Succeeded',
      'pod:web-c8f6ff5cb-rh6h6.terminatedReason': 'NodeAffinity',
      'pod:web-c8f6ff5cb-rh6h6.terminatedAfterSeconds': 25.439,
      'pod:web-c8f6ff5cb-rh6h6.evictedAfterSeconds': null,
      'pod:web-c8f6ff5cb-rh6h6.replacement.node': 'rl-q28-label-removed-kubelet-restart-worker2',
      'pod:web-c8f6ff5cb-rh6h6.replacement.createdAfterSeconds': 25.483,
      'item:replacement-created@web-c8f6ff5cb-rh6h6.held': true,
      'run.steps.0.action': 'unlabel-node',
      'run.steps.1.action': 'restart-kubelet',
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-control-plane-partition-recorded',
    why: 'case C14 the network way, recorded on kind (experiments/catalog/control-plane-partition.yaml, 3 Dec 2026): every worker loses only its traffic with the API server for 120 s; Unknown at its last renewal + 20 s, one taint before the zone turns PartialDisruption, no eviction; every endpoint gone while every container serves (the probe failures are no ready endpoint, not a down node: the node still serves), back within 3.3 s of the restore',
    expected: {
      'run.faults.0.scope': 'control-plane',
      'node:rl-q28-cpp-worker3.notReadyAfterSeconds': 20.002,
      'node:rl-q28-cpp-worker3.noExecuteTaintAfterSeconds': 20.002,
      'node:rl-q28-cpp-worker.noExecuteTaintAfterSeconds': null,
      'workload:web.endpoints.noReadyEndpointAfterSeconds': 26.62,
      'workload:web.endpoints.noReadyEndpointSeconds': 98.042,
      // Clients reach the pods all along: the client figure is the API figure.
      'workload:web.unavailableSeconds': 105.086,
      'workload:web.apiUnavailableSeconds': 105.086,
      'run.probes.0.failingBackends.length': 1,
      'run.probes.0.failingBackends.0.cause': 'no-ready-endpoint',
      'run.probes.0.failingBackends.0.failed': 1888,
      'run.predictions.missed': [],
    },
  },
  {
    scenario: 'kind-not-ready-pod-kubelet-restart-recorded',
    why: 'case C19 recorded on kind (experiments/catalog/not-ready-pod-kubelet-restart.yaml, 3 Dec 2026): pods failing readiness on purpose (HTTP and exec probes) flip Ready 1.2 to 1.3 s after a kubelet restart, before their first probe (v1.34 reports a container without a readiness worker yet as ready); an Eviction API request refused at 61.2 s goes through on its retry at 66.4 s for one pod of each minAvailable 1 budget',
    expected: {
      'pod:api-865479d6d5-5c2bj.evictionApi.outcome': 'evicted',
      'pod:api-865479d6d5-5c2bj.evictionApi.refusals': 1,
      'pod:api-865479d6d5-5c2bj.evictionApi.lastAttemptAfterSeconds': 66.352,
      'pod:api-865479d6d5-5c2bj.evictedAfterSeconds': 66.772,
      'pod:api-865479d6d5-f5j6b.evictionApi.outcome': 'refused',
      'pod:web-578fcf6d8d-pjhv9.outcome': 'evicted-replaced',
      'pod:web-578fcf6d8d-wg5dl.evictionApi.outcome': 'refused',
      'run.steps.0.action': 'restart-kubelet',
      'run.steps.1.action': 'evict-pods',
      'run.predictions.missed': [],
    },
  },
];

describe('analyze: fixture runs', () => {
  for (const row of ROWS) {
    describe(`${row.scenario}: ${row.why}`, () => {
      const run = loadFixtureRun(row.scenario);
      for (const [path, value] of Object.entries(row.expected)) {
        it(`${path} = ${JSON.stringify(value)}`, () => {
          expect(valueAt(run.analysis, path), path).to.deep.equal(value);
        });
      }
      it('gives every pod exactly one outcome, every expectation of run.json passes and the status is passed', () => {
        expect(run.analysis.expectations.map((r) => r.text)).to.deep.equal(run.info.expectations.map((t) => t.trim()));
        expect(run.analysis.expectations.filter((r) => !r.passed).map((r) => `${r.text}: ${r.message}`)).to.deep.equal([]);
        expect(run.analysis.status).to.equal('passed');
      });
    });
  }
});
