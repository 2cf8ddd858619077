// The existing provider's pieces that need no cluster: placeholders, the command backend plan, the namespace name,
// and the one-context kubeconfig copy.
import { expect } from 'chai';
import type { V1Node } from '@kubernetes/client-node';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { fillPlaceholders, nodeFacts, REBOOTLAB_NAMESPACE, writeContextKubeconfig } from '../../../lib/cluster/index.js';
import { createCommandBackend } from '../../../lib/cluster/existing/command-backend.js';
import { agentCommands, agentScript, parseHostAddresses, renderAgentPod } from '../../../lib/cluster/existing/agent-backend.js';
import { InputError } from '../../../lib/common/errors.js';
import { WORKLOAD_NAMESPACE } from '../../../lib/workloads/index.js';

/** A GKE Node as the API returns it (fields trimmed to what the backend reads). */
const gkeNode: V1Node = {
  metadata: { name: 'gke-lab-pool-1-abcd', labels: { 'topology.kubernetes.io/zone': 'europe-west1-b' } },
  spec: { providerID: 'gce://lab-project/europe-west1-b/gke-lab-pool-1-abcd' },
  status: { addresses: [{ type: 'InternalIP', address: '10.132.0.7' }, { type: 'Hostname', address: 'gke-lab-pool-1-abcd' }] },
};

describe('cluster/existing', () => {
  it('fills {node}, {providerID}, {zone} and {internalIP} from the Node object', () => {
    expect(fillPlaceholders('gcloud compute instances stop {node} --zone {zone} # {providerID} {internalIP}', nodeFacts(gkeNode))).to.equal(
      'gcloud compute instances stop gke-lab-pool-1-abcd --zone europe-west1-b # gce://lab-project/europe-west1-b/gke-lab-pool-1-abcd 10.132.0.7',
    );
  });

  it('refuses an empty placeholder and a value a shell would interpret', () => {
    const facts = { ...nodeFacts(gkeNode), zone: '' };
    expect(() => fillPlaceholders('x --zone {zone}', facts)).to.throw(InputError, 'fault.backend.command: {zone} is empty for node gke-lab-pool-1-abcd; use another placeholder');
    expect(() => fillPlaceholders('x {providerID}', { ...facts, providerID: 'a;rm -rf /' })).to.throw(InputError, /which rebootlab will not put into a shell command$/);
  });

  it('command backend: the undo (on) exists before off runs, and runs on undo', async () => {
    const ran: string[] = [];
    const backend = createCommandBackend({ off: 'virsh destroy {node}', on: 'virsh start {node}' }, 'prod', async (c) => (ran.push(c), ''));
    const plan = await backend.plan(gkeNode, 'stop');
    expect(plan.restoreCommands).to.deep.equal([['rebootlab-user-undo', 'prod', 'virsh start {node}', 'gke-lab-pool-1-abcd', 'gce://lab-project/europe-west1-b/gke-lab-pool-1-abcd', 'europe-west1-b', '10.132.0.7']]);
    expect(ran).to.deep.equal([]);
    await plan.act();
    await plan.undo();
    expect(ran).to.deep.equal(['virsh destroy gke-lab-pool-1-abcd', 'virsh start gke-lab-pool-1-abcd']);
    await backend.plan(gkeNode, 'stop-kubelet').then(() => expect.fail('planned'), (e: unknown) => expect(e).to.be.instanceOf(InputError));
  });

  it('uses the same namespace as the workloads', () => {
    expect(REBOOTLAB_NAMESPACE).to.equal(WORKLOAD_NAMESPACE);
  });

  it('writes a 0600 kubeconfig holding only the chosen context, current; a missing context lists the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-kc-'));
    const source = join(dir, 'config');
    writeFileSync(source, [
      'apiVersion: v1', 'kind: Config', 'current-context: a',
      'clusters: [{name: ca, cluster: {server: "https://a:6443"}}, {name: cb, cluster: {server: "https://b:6443"}}]',
      'users: [{name: ua, user: {token: ta}}, {name: ub, user: {token: tb}}]',
      'contexts: [{name: a, context: {cluster: ca, user: ua}}, {name: b, context: {cluster: cb, user: ub}}]',
    ].join('\n'));
    const file = writeContextKubeconfig({ kubeconfig: source, context: 'b' }, { REBOOTLAB_CACHE: dir });
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    const copy = parse(readFileSync(file, 'utf8')) as { 'current-context': string; clusters: { name: string }[]; users: { name: string }[] };
    expect(copy['current-context']).to.equal('b');
    expect(copy.clusters.map((c) => c.name)).to.deep.equal(['cb']);
    expect(copy.users.map((u) => u.name)).to.deep.equal(['ub']);
    expect(() => writeContextKubeconfig({ kubeconfig: source, context: 'c' }, { REBOOTLAB_CACHE: dir })).to.throw(InputError, `cluster.context: no context "c" in ${source}; it has a, b`);
  });
});

describe('cluster/existing: the agent backend\'s node commands', () => {
  it('schedules the undo on the node before the action (accurate to 100 ms, not systemd\'s 1 min default), the action delayed so the exec answer gets back', () => {
    const script = agentScript('rebootlab-x', agentCommands('stop-kubelet', []), 20);
    expect(script).to.equal("systemd-run --unit rebootlab-x-undo --on-active=21s --timer-property=AccuracySec=100ms sh -c 'systemctl start kubelet' && systemd-run --unit rebootlab-x-act sh -c 'sleep 1; systemctl stop kubelet'");
  });

  it('a partition drops traffic to and from every peer in its own chain, and the undo removes the chain', () => {
    const { act, undo } = agentCommands('disconnect', ['172.18.0.2', '172.18.0.4']);
    expect(act).to.contain('iptables -A REBOOTLAB-PARTITION -s 172.18.0.2 -j DROP && iptables -A REBOOTLAB-PARTITION -d 172.18.0.2 -j DROP');
    expect(act).to.match(/iptables -I INPUT -j REBOOTLAB-PARTITION && iptables -I OUTPUT -j REBOOTLAB-PARTITION$/);
    expect(undo).to.equal('iptables -D INPUT -j REBOOTLAB-PARTITION; iptables -D OUTPUT -j REBOOTLAB-PARTITION; iptables -F REBOOTLAB-PARTITION; iptables -X REBOOTLAB-PARTITION; true');
  });

  it('a partition with IPv6 peers drops them in an ip6tables chain of the same name, removed by the same undo', () => {
    const { act, undo } = agentCommands('disconnect', ['172.18.0.8', 'fc00:f853:ccd:e793::8']);
    expect(act).to.contain('iptables -A REBOOTLAB-PARTITION -s 172.18.0.8 -j DROP');
    expect(act).to.contain('ip6tables -N REBOOTLAB-PARTITION && ip6tables -A REBOOTLAB-PARTITION -s fc00:f853:ccd:e793::8 -j DROP && ip6tables -A REBOOTLAB-PARTITION -d fc00:f853:ccd:e793::8 -j DROP');
    expect(act).to.not.match(/iptables -A \S+ -[sd] fc00/);
    expect(act).to.match(/ip6tables -I INPUT -j REBOOTLAB-PARTITION && ip6tables -I OUTPUT -j REBOOTLAB-PARTITION$/);
    expect(undo).to.equal('iptables -D INPUT -j REBOOTLAB-PARTITION; iptables -D OUTPUT -j REBOOTLAB-PARTITION; iptables -F REBOOTLAB-PARTITION; iptables -X REBOOTLAB-PARTITION; '
      + 'ip6tables -D INPUT -j REBOOTLAB-PARTITION; ip6tables -D OUTPUT -j REBOOTLAB-PARTITION; ip6tables -F REBOOTLAB-PARTITION; ip6tables -X REBOOTLAB-PARTITION; true');
  });

  it('reads the addresses a kind node resolves its peers to (getent ahosts, recorded on a kind node), without mapped or link-local ones', () => {
    const recorded = ['fc00:f853:ccd:e793::8 STREAM rbl-existing-control-plane', 'fc00:f853:ccd:e793::8 DGRAM  ', 'fc00:f853:ccd:e793::8 RAW    ',
      '172.18.0.8      STREAM rbl-existing-control-plane', '::ffff:172.18.0.7 STREAM rbl-existing-worker2', 'fe80::42:acff:fe12:7 STREAM x', ''].join('\n');
    expect(parseHostAddresses(recorded)).to.deep.equal(['172.18.0.8', 'fc00:f853:ccd:e793::8']);
  });

  it('an instant action has no undo to schedule; a timed one needs the duration', () => {
    expect(agentScript('u', agentCommands('restart', []), null)).to.equal("systemd-run --unit u-act sh -c 'sleep 1; systemctl reboot'");
    expect(() => agentScript('u', agentCommands('stop-runtime', []), null)).to.throw(InputError, 'fault.duration is required');
  });

  it('the agent pod is privileged, on the host PID and network namespaces, pinned to the node, tolerating every taint', () => {
    const pod = renderAgentPod('rebootlab-agent-w1', 'w1', 'debian:bookworm-slim');
    expect(pod.spec).to.deep.include({ nodeName: 'w1', hostPID: true, hostNetwork: true, restartPolicy: 'Never', tolerations: [{ operator: 'Exists' }] });
    expect(pod.spec!.containers[0]!.securityContext).to.deep.equal({ privileged: true });
    expect(pod.metadata!.namespace).to.equal('rebootlab');
  });
});
