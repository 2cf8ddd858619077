// Rolling reboot of every worker, the way an operator patches a cluster: cordon, drain through the Eviction
// API (the PodDisruptionBudget keeps 3 of 4 web pods Ready), reboot, wait until the kubelet heartbeats again
// and the node is Ready, uncordon. Measures each node's recovery and the worst availability dip.
// Run: rebootlab run experiments/rolling-reboot.ts   (or, after npm run build: node dist/experiments/rolling-reboot.js)
import { experiment } from 'rebootlab';

const WEB = 'rebootlab.dev/workload=web';

await experiment({
  name: 'rolling-reboot',
  description: 'Cordon, drain, reboot, wait Ready, uncordon each worker in turn; web keeps >= 3 of 4 pods Ready (PDB minAvailable 3).',
  // The same tuned cluster as the other scripts, so one cluster serves all three (--reuse-cluster).
  cluster: {
    name: 'rebootlab-scripts',
    workers: 2,
    controllerManager: { nodeMonitorGracePeriod: '20s' },
    apiServer: { defaultNotReadyTolerationSeconds: 30, defaultUnreachableTolerationSeconds: 30 },
    kubelet: { nodeLeaseDurationSeconds: 20 },
  },
  workloads: [{ name: 'web', kind: 'Deployment', replicas: 4, placement: 'any', podDisruptionBudget: { minAvailable: 3 } }],
  expect: [
    'workloads.web.minimumReady >= 3', // the budget held through every drain
    'workloads.web.readyAtEnd == 4',
    'node.readyAtEnd == true',
    'count(predictions.missed) == 0',
  ],
}, async (lab) => {
  await lab.deploy();
  for (const node of await lab.workers()) {
    const startedAtMs = Date.now();
    const uncordon = await lab.cordon(node);
    const evicted = await lab.drain(node, { timeout: '3m' });
    await lab.waitFor.podsReady(WEB, { count: 4, timeoutMs: 120_000 }); // replacements Ready elsewhere before the reboot
    const reboot = await lab.inject('reboot', node);
    // A reboot this short never turns the Node NotReady: require a Lease renewed after the restart.
    await lab.waitFor.nodeReady(node, { heartbeatAfterMs: reboot.injectedAtMs, timeoutMs: 180_000 });
    const readyAtMs = Date.now();
    await uncordon();
    lab.mark('node-recovered', {
      evictedPods: evicted.length,
      drainSeconds: (reboot.injectedAtMs - startedAtMs) / 1000,
      recoverySeconds: (readyAtMs - reboot.injectedAtMs) / 1000, // reboot command returned → heartbeat + Ready
      cycleSeconds: (Date.now() - startedAtMs) / 1000,
    }, [node]);
  }
  await lab.waitFor.podsReady(WEB, { count: 4 });
});
