// "The cloud provider deletes the Node object 90 s after power-off": a worker is powered off, and 90 s later
// its Node object is deleted (what a cloud controller manager does once the instance is gone); 60 s after
// that the machine comes back and its kubelet registers a new Node. Compare with the YAML node-delete fault
// (experiments/node-delete-tuned.yaml), which deletes the Node at once: there PodGC removes the pods of the
// deleted node (after its 40 s quarantine) before the NoExecute toleration (30 s) ever runs out... or not:
// the figures in result.json tell.
// Run: rebootlab run experiments/cloud-node-delete.ts
import { experiment } from 'rebootlab';

await experiment({
  name: 'cloud-node-delete',
  description: 'Power off a worker; delete its Node object 90 s later; power it on 60 s after that.',
  cluster: {
    name: 'rebootlab-scripts',
    workers: 2,
    controllerManager: { nodeMonitorGracePeriod: '20s' },
    apiServer: { defaultNotReadyTolerationSeconds: 30, defaultUnreachableTolerationSeconds: 30 },
    kubelet: { nodeLeaseDurationSeconds: 20 },
  },
  workloads: [
    { name: 'web', kind: 'Deployment', replicas: 2, placement: 'target' },
    { name: 'solo', kind: 'Pod', placement: 'target' },
  ],
  expect: [
    'node.notReadyAfterSeconds in [15, 30]',
    // Evicted by the taint, before the Node is deleted: the taint comes in the pass that wrote Ready=Unknown, or one
    // zone token (10 s) later when the tainting loop read the node from its informer cache before that write (the
    // informer-cache race of doNoExecuteTaintingPass; in CI on the cluster the scripts share, Ready=Unknown 23.0 s and
    // eviction 63.2 s), so [15, 41] s; then the 30 s toleration.
    'pods[workload=web].evictedAfterSeconds in [45, 71]',
    'pods[workload=web].outcome == evicted-replaced',
    'pods[workload=solo].outcome == evicted-lost',
    // 90 s after time zero (the start of docker stop, which takes 1 to 11 s here) + the delete call and its watch
    // event (up to 1 s each).
    'node.deletedAfterSeconds in [90, 92]',
    'count(predictions.missed) == 0',
  ],
}, async (lab) => {
  const [target] = await lab.workers();
  await lab.deploy({ placeOn: [target] });
  const powerOff = await lab.inject('power-off', target); // restored below (or by the guard on Ctrl-C)
  await lab.sleep('90s', { since: powerOff.issuedAtMs });
  await lab.act(target, 'delete-node-object');
  await lab.waitFor.nodeDeleted(target);
  lab.mark('node-object-gone', {}, [target]);
  // Pods still bound to the deleted node are orphans: PodGC deletes them (after a 40 s quarantine).
  await lab.waitFor.until('Pod', (pods) => ![...pods.values()].some((p) => p.spec?.nodeName === target), {
    namespace: 'rebootlab', timeoutMs: 120_000, what: `pods of ${target} deleted`,
  });
  lab.mark('orphan-pods-gone', {}, [target]);
  await lab.sleep('10s');
  await powerOff.restore();
  await lab.waitFor.nodeReady(target, { timeoutMs: 180_000 });
  lab.mark('node-registered-again', {}, [target]);
  await lab.waitFor.podsReady('rebootlab.dev/workload=web', { count: 2 });
});
