// `rebootlab plan` prints each provider's own action plan: the command lines its node actions run and register as
// their undo, chosen by the fault catalogue (lib/spec/faults.ts), never a hand-written Docker line for every provider.
import { expect } from 'chai';
import { planExperiment } from '../../../lib/run/plan.js';
import { loadExperimentText } from '../../../lib/spec/load.js';

function plan(...yaml: string[]): string {
  const loaded = loadExperimentText('e.yaml', ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}', ...yaml].join('\n'));
  return planExperiment(loaded.variants[0]!.experiment).join('\n');
}

describe('run/plan: each provider\'s own action plan', () => {
  it('kind network-partition: leaves and rejoins the Docker network kind with the address it had', () => {
    const text = plan('fault: {type: network-partition, duration: 30s}');
    expect(text).to.contain('\n  docker network disconnect kind {node}\n      undo: docker network connect --ip {IP before} kind {node}');
  });

  it('kwok power-off: heartbeat loss, as the label kwok selects its nodes by', () => {
    const text = plan('cluster: {provider: kwok}', 'fault: {type: power-off, duration: 30s}');
    expect(text).to.match(/\n {2}kubectl --kubeconfig \S+\/rebootlab\/kubeconfig label node \{node\} rebootlab\.dev\/kwok-heartbeat=off --overwrite\n {6}undo: kubectl --kubeconfig \S+ label node \{node\} rebootlab\.dev\/kwok-heartbeat=on --overwrite/);
    expect(text).to.not.contain('docker');
  });

  it('existing: the agent\'s own commands, the user\'s power commands, kubectl for API actions', () => {
    const cluster = 'cluster: {provider: existing, kubeconfig: ./kc, context: prod}';
    const agent = plan(cluster, 'fault: {type: network-partition, duration: 30s, backend: agent}');
    expect(agent).to.contain('agent pod on {node}: iptables -D INPUT -j');
    expect(agent).to.contain('iptables -A REBOOTLAB-PARTITION -s {peer} -j DROP');
    const command = plan(cluster, "fault: {type: power-off, duration: 30s, backend: {command: {off: 'virsh destroy {node}', on: 'virsh start {node}'}}}", 'steps:', '  - {after: 10s, action: cordon}', '  - {after: 20s, action: uncordon}');
    expect(command).to.contain("\n  sh -c 'virsh destroy {node}'\n      undo: sh -c 'virsh start {node}'");
    expect(command).to.match(/at 10 s: kubectl --kubeconfig \S+prod-\w+\.kubeconfig cordon \{node\}\n {4}undo: kubectl --kubeconfig \S+ uncordon \{node\} at the end, if still in place/);
    expect(command).to.match(/at 20 s: kubectl --kubeconfig \S+ uncordon \{node\} \(uncordon\)/);
  });

  it('a fault is planned once its duration rule is said: over at once, undone after the duration, or at the end', () => {
    expect(plan('fault: {type: reboot}')).to.contain('fault reboot on worker-with-most-pods, over when its command returns;');
    expect(plan('fault: {type: node-delete}')).to.contain('fault node-delete on worker-with-most-pods, undone at the end of the run;');
    expect(plan('fault: {type: freeze, duration: 45s}')).to.contain('fault freeze on worker-with-most-pods, undone after 45 s;');
  });
});
