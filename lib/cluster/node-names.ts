// Node names as kind gives them (kwok's simulated nodes copy them): pure, so planning and forecasting need no cluster.

/** `<cluster>-control-plane`, and `<cluster>-worker`, `<cluster>-worker2`, … for `workers` workers. */
export function clusterNodeNames(cluster: string, workers: number): { controlPlane: string; workers: string[] } {
  return {
    controlPlane: `${cluster}-control-plane`,
    workers: Array.from({ length: workers }, (_, i) => `${cluster}-worker${i === 0 ? '' : i + 1}`),
  };
}
