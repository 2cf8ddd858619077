// Measurement: each Job's status and replacement wait (batch/v1 Job records and its pods), and `jobs.<name>.<field>`.
import type { JobField } from '../../spec/expectation.js';
import { buildJobFacts, buildJobTimelines } from '../jobs.js';
import { part, type Measurement } from '../measurement.js';
import type { JobTimeline } from '../types.js';

const condition = (j: JobTimeline, type: string) => j.conditions.find((c) => c.type === type && c.status === 'True');

const JOB_VALUES: Record<JobField, (j: JobTimeline) => string | number | boolean | null> = {
  active: (j) => j.active,
  ready: (j) => j.ready,
  failed: (j) => j.failed,
  succeeded: (j) => j.succeeded,
  terminating: (j) => j.terminating,
  backoffSeconds: (j) => j.backoffSeconds,
  complete: (j) => condition(j, 'Complete') !== undefined,
  jobFailed: (j) => condition(j, 'Failed') !== undefined,
  failedReason: (j) => condition(j, 'Failed')?.reason ?? null,
};

/** Job records per Job and the pods they owned at time zero; absent from the analysis when the journal has no Job. */
export const jobsMeasurement: Measurement = {
  name: 'jobs',
  describes: 'per Job: status counts and conditions at the end, the wait of its replacements (Job and Pod records)',
  needs: ['pods'],
  provides: ['jobs', 'jobFacts'],
  measure: ({ ctx }, earlier) => {
    const jobFacts = buildJobFacts(ctx);
    const jobs = buildJobTimelines(ctx, jobFacts, part(earlier, 'pods'));
    return jobs.length > 0 ? { jobs, jobFacts } : { jobFacts };
  },
  expectations: {
    scope: 'job',
    values(analysis, s) {
      if (s.scope !== 'job') return 'not a job subject';
      const j = analysis.jobs?.find((x) => x.workload === s.name || x.name === s.name);
      return j ? [{ label: j.name, value: JOB_VALUES[s.field](j) }] : `no Job ${s.name} in the journal`;
    },
  },
  tables: (v) =>
    v.jobs && v.jobs.length > 0
      ? [{
        name: 'jobs',
        title: 'Jobs',
        note: 'batch/v1 Job status at the end of the run; replacement wait = from when the Job controller could replace a pod to the replacement pod.',
        headers: ['Job', 'Replacement policy', 'Failure policy', 'Active', 'Ready', 'Failed', 'Succeeded', 'Terminating', 'Conditions', 'Longest replacement wait'],
        rows: v.jobs.map((j) => [
          `${j.namespace}/${j.name}`, j.podReplacementPolicy, j.podFailurePolicy ? 'yes' : 'no', j.active, j.ready, j.failed, j.succeeded, j.terminating,
          j.conditions.filter((c) => c.status === 'True').map((c) => `${c.type}${c.reason ? ` (${c.reason})` : ''}`).join(', ') || '—', { seconds: j.backoffSeconds },
        ]),
      }]
      : [],
};
