// Measurement: the plain-words answer per workload (lib/analyze/answers.ts), read from the parts measured before it.
import { answerNodes, answerWorkloads } from '../answers.js';
import { secondsSince } from '../clock.js';
import { part, runInterrupted, type Measurement } from '../measurement.js';

/**
 * One sentence per workload (what happened to its pods, when and why, and the data probe) and one per node the fault
 * touched (NotReady, taints, deletion, Ready again). Reports show them first.
 */
export const answersMeasurement: Measurement = {
  name: 'answers',
  describes: 'per workload, one sentence of what happened to its pods and why (timelines, DisruptionTarget conditions, steps, what its Service\'s clients saw, data probe)',
  needs: ['faults', 'steps', 'nodes', 'pods', 'workloads', 'events'],
  // probes is optional (absent when the run probed nothing), read directly, computed earlier in the registry.
  provides: ['answers', 'nodeAnswers'],
  measure: ({ observations, ctx, options }, earlier) => {
    const input = {
      faults: part(earlier, 'faults'), steps: part(earlier, 'steps'), nodes: part(earlier, 'nodes'), pods: part(earlier, 'pods'),
      workloads: part(earlier, 'workloads'), events: part(earlier, 'events'), refs: options.workloads, dataProbes: ctx.dataProbes, probes: earlier.probes ?? [],
      endAfterSeconds: secondsSince(ctx.faultMs, ctx.endMs), interrupted: runInterrupted(observations, options),
    };
    return { answers: answerWorkloads(input), nodeAnswers: answerNodes(input) };
  },
};
