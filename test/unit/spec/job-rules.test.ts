// A Job workload the Kubernetes API would refuse, or run with fewer pods than the experiment places, is refused when
// the file is validated (one line per mistake, naming the field), not minutes later when the Job is created.
import { expect } from 'chai';
import { loadExperimentText } from '../../../lib/spec/load.js';
import { inputIssuesOf } from '../../helpers/input-issues.js';

const HEAD = ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}', 'cluster: {workers: 2}', 'fault: {type: power-off, duration: 60s}'];

/** The one-line issues of an experiment with this Job workload (YAML flow mapping), [] when it loads. */
function issuesOf(workload: string): string[] {
  return inputIssuesOf(() => loadExperimentText('e.yaml', [...HEAD, 'workloads:', `  - ${workload}`].join('\n'))).map((line) => line.replace(/^e\.yaml:\d+:\d+: /, ''));
}

const exitCodes = (operator: string, values: string) =>
  `{name: b, kind: Job, replicas: 1, job: {backoffLimit: 0, podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: ${operator}, values: ${values}}}]}}}`;

describe('Job workloads: the Kubernetes API\'s rules, checked before any cluster', () => {
  it('accepts a valid podFailurePolicy and completions ≥ replicas', () => {
    expect(issuesOf(exitCodes('In', '[1, 2, 42]'))).to.deep.equal([]);
    expect(issuesOf(exitCodes('NotIn', '[0]'))).to.deep.equal([]);
    expect(issuesOf('{name: b, kind: Job, replicas: 2, job: {completions: 4}}')).to.deep.equal([]);
  });

  it('refuses exit code 0 with In, a duplicate, a wrong order, a non-integer and a value beyond int32', () => {
    const path = 'workloads[0].job.podFailurePolicy.rules[0].onExitCodes.values';
    expect(issuesOf(exitCodes('In', '[0, 1]'))).to.deep.equal([`${path}[0]: must not be 0 for the In operator (Kubernetes API rule: exit code 0 is success)`]);
    expect(issuesOf(exitCodes('In', '[1, 3, 3]'))).to.deep.equal([`${path}[2]: 3 is listed twice`]);
    expect(issuesOf(exitCodes('In', '[3, 1]'))).to.deep.equal([`${path}: must be in increasing order (Kubernetes API rule)`]);
    expect(issuesOf(exitCodes('In', '[1.5]'))).to.deep.equal([`${path}[0]: 1.5 is not an exit code (a 32-bit integer)`]);
    expect(issuesOf(exitCodes('NotIn', '[4294967297]'))).to.deep.equal([`${path}[0]: 4294967297 is not an exit code (a 32-bit integer)`]);
  });

  it('refuses an onExitCodes.containerName other than the workload\'s one container, with its place in the file', () => {
    const rule = (name: string) => `{name: b, kind: Job, replicas: 1, job: {podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {containerName: ${name}, operator: In, values: [42]}}]}}}`;
    expect(issuesOf(rule('workload'))).to.deep.equal([]);
    expect(inputIssuesOf(() => loadExperimentText('e.yaml', [...HEAD, 'workloads:', `  - ${rule('main')}`].join('\n')))).to.deep.equal([
      'e.yaml:7:119: workloads[0].job.podFailurePolicy.rules[0].onExitCodes.containerName: "main" is no container of this Job\'s pods: the workload\'s container is named "workload"; write containerName: workload or leave it out',
    ]);
  });

  it('refuses more than 20 rules', () => {
    const rule = '{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}';
    const issues = issuesOf(`{name: b, kind: Job, replicas: 1, job: {podFailurePolicy: {rules: [${Array(21).fill(rule).join(', ')}]}}}`);
    expect(issues).to.deep.equal(['workloads[0].job.podFailurePolicy.rules: has 21 rules; the Kubernetes API allows at most 20']);
  });

  it('refuses completions below replicas: the Job would run fewer pods than rebootlab places and predicts', () => {
    expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {completions: 1}}')).to.deep.equal([
      'workloads[0].job.completions: (1) is below replicas (3): the Job controller would run only 1 pod(s) at once, while rebootlab places and predicts replicas pods; set replicas to at most completions',
    ]);
  });

  describe('Indexed Jobs (pkg/apis/batch/validation validateJobSpec, validatePodFailurePolicyRule, the same in v1.34.4 to v1.37.2)', () => {
    const failIndex = '{action: FailIndex, onPodConditions: [{type: DisruptionTarget}]}';

    it('accepts completionMode Indexed with backoffLimitPerIndex and maxFailedIndexes, and FailIndex with backoffLimitPerIndex', () => {
      expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed}}')).to.deep.equal([]);
      expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed, backoffLimitPerIndex: 0, maxFailedIndexes: 3}}')).to.deep.equal([]);
      expect(issuesOf(`{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed, backoffLimitPerIndex: 1, podFailurePolicy: {rules: [${failIndex}]}}}`)).to.deep.equal([]);
    });

    it('refuses FailIndex without backoffLimitPerIndex, in one line naming the rule\'s action and what to set', () => {
      const line = 'workloads[0].job.podFailurePolicy.rules[0].action: FailIndex needs an Indexed Job with backoffLimitPerIndex (Kubernetes API rule); set job.completionMode: Indexed and job.backoffLimitPerIndex, or use FailJob, Ignore or Count';
      expect(issuesOf(`{name: b, kind: Job, replicas: 3, job: {podFailurePolicy: {rules: [${failIndex}]}}}`)).to.deep.equal([line]);
      expect(issuesOf(`{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed, podFailurePolicy: {rules: [${failIndex}]}}}`)).to.deep.equal([line]);
    });

    it('refuses backoffLimitPerIndex and maxFailedIndexes on a NonIndexed Job, maxFailedIndexes without backoffLimitPerIndex or above completions, one line each', () => {
      expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {backoffLimitPerIndex: 1}}')).to.deep.equal([
        'workloads[0].job.backoffLimitPerIndex: needs completionMode: Indexed (Kubernetes API rule: a NonIndexed Job has no indexes); add completionMode: Indexed or remove backoffLimitPerIndex',
      ]);
      expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {completionMode: NonIndexed, maxFailedIndexes: 1, backoffLimitPerIndex: 1}}')).to.have.length(2);
      expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed, maxFailedIndexes: 1}}')).to.deep.equal([
        'workloads[0].job.maxFailedIndexes: needs backoffLimitPerIndex (Kubernetes API rule: only a per-index limit fails indexes); add backoffLimitPerIndex or remove maxFailedIndexes',
      ]);
      expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed, backoffLimitPerIndex: 1, maxFailedIndexes: 4}}')).to.deep.equal([
        'workloads[0].job.maxFailedIndexes: (4) must be at most completions (3) (Kubernetes API rule)',
      ]);
    });

    it('resolves backoffLimit to 2147483647 with backoffLimitPerIndex (SetDefaults_Job), 6 without; completionMode NonIndexed by default', () => {
      const job = (w: string) => loadExperimentText('e.yaml', [...HEAD, 'workloads:', `  - ${w}`].join('\n')).experiment.workloads[0]!.job!;
      expect(job('{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed, backoffLimitPerIndex: 1}}')).to.deep.include({ completionMode: 'Indexed', backoffLimitPerIndex: 1, backoffLimit: 2147483647, maxFailedIndexes: null });
      expect(job('{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed, backoffLimitPerIndex: 1, backoffLimit: 4}}')).to.deep.include({ backoffLimit: 4 });
      expect(job('{name: b, kind: Job, replicas: 3}')).to.deep.include({ completionMode: 'NonIndexed', backoffLimitPerIndex: null, backoffLimit: 6 });
    });

    it('refuses a negative backoffLimitPerIndex and an unknown completionMode (the schema)', () => {
      expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {completionMode: Indexed, backoffLimitPerIndex: -1}}')).to.have.length(1);
      expect(issuesOf('{name: b, kind: Job, replicas: 3, job: {completionMode: indexed}}')).to.have.length(1);
    });
  });
});
