// Tests for lib/cluster/api-partition.ts: the control-plane partition's rules (only the API server's traffic, both
// directions and the kubelet port, IPv4 and IPv6, FORWARD for pods), its constant undo, and what reaches the shell.
import { expect } from 'chai';
import { API_PARTITION_CHAIN, API_PARTITION_UNDO, apiPartitionScript, kubeconfigServer } from '../../../lib/cluster/api-partition.js';
import { agentCommands } from '../../../lib/cluster/existing/agent-backend.js';

describe('cluster/api-partition: network-partition scope control-plane', () => {
  it('drops TCP to and from each API server endpoint and its connections to the kubelet port, hooked into INPUT, OUTPUT and FORWARD', () => {
    const rules = apiPartitionScript([{ ip: '172.18.0.3', port: 6443 }, { ip: 'fc00:f853:ccd:e793::3', port: 6443 }]).split(' && ');
    expect(rules[0]).to.equal(API_PARTITION_UNDO);
    expect(rules.slice(1)).to.deep.equal([
      `iptables -N ${API_PARTITION_CHAIN}`,
      `iptables -A ${API_PARTITION_CHAIN} -p tcp -d 172.18.0.3 --dport 6443 -j DROP`,
      `iptables -A ${API_PARTITION_CHAIN} -p tcp -s 172.18.0.3 --sport 6443 -j DROP`,
      `iptables -A ${API_PARTITION_CHAIN} -p tcp -s 172.18.0.3 --dport 10250 -j DROP`,
      `iptables -A ${API_PARTITION_CHAIN} -p tcp -d 172.18.0.3 --sport 10250 -j DROP`,
      `iptables -I INPUT -j ${API_PARTITION_CHAIN}`, `iptables -I OUTPUT -j ${API_PARTITION_CHAIN}`, `iptables -I FORWARD -j ${API_PARTITION_CHAIN}`,
      `ip6tables -N ${API_PARTITION_CHAIN}`,
      `ip6tables -A ${API_PARTITION_CHAIN} -p tcp -d fc00:f853:ccd:e793::3 --dport 6443 -j DROP`,
      `ip6tables -A ${API_PARTITION_CHAIN} -p tcp -s fc00:f853:ccd:e793::3 --sport 6443 -j DROP`,
      `ip6tables -A ${API_PARTITION_CHAIN} -p tcp -s fc00:f853:ccd:e793::3 --dport 10250 -j DROP`,
      `ip6tables -A ${API_PARTITION_CHAIN} -p tcp -d fc00:f853:ccd:e793::3 --sport 10250 -j DROP`,
      `ip6tables -I INPUT -j ${API_PARTITION_CHAIN}`, `ip6tables -I OUTPUT -j ${API_PARTITION_CHAIN}`, `ip6tables -I FORWARD -j ${API_PARTITION_CHAIN}`,
    ]);
  });

  it('the undo unhooks and deletes the chain for both families and never fails', () => {
    expect(API_PARTITION_UNDO).to.match(/; true$/);
    for (const tool of ['iptables', 'ip6tables']) {
      for (const hook of ['INPUT', 'OUTPUT', 'FORWARD']) expect(API_PARTITION_UNDO).to.include(`${tool} -D ${hook} -j ${API_PARTITION_CHAIN} 2>/dev/null`);
      expect(API_PARTITION_UNDO).to.include(`${tool} -X ${API_PARTITION_CHAIN} 2>/dev/null`);
    }
  });

  it('refuses what is not an address and a port before it reaches the shell, and an empty list', () => {
    expect(() => apiPartitionScript([{ ip: '1.2.3.4; rm -rf /', port: 6443 }])).to.throw('is not an address and port');
    expect(() => apiPartitionScript([{ ip: '1.2.3.4', port: 0 }])).to.throw('is not an address and port');
    expect(() => apiPartitionScript([])).to.throw('no API server endpoint');
  });

  it('reads the server of a kubelet kubeconfig (kind names the control-plane container)', () => {
    expect(kubeconfigServer('    server: https://lab-control-plane:6443\n')).to.deep.equal({ host: 'lab-control-plane', port: 6443 });
    expect(kubeconfigServer('server: https://[fc00::3]:6443')).to.deep.equal({ host: 'fc00::3', port: 6443 });
    expect(kubeconfigServer('server: https://api.example.com')).to.deep.equal({ host: 'api.example.com', port: 443 });
    expect(kubeconfigServer('no server here')).to.equal(null);
  });

  it('the agent runs the same rules and schedules the same undo', () => {
    const { act, undo } = agentCommands('partition-api-server', [], [{ ip: '10.0.0.2', port: 443 }]);
    expect(act).to.equal(apiPartitionScript([{ ip: '10.0.0.2', port: 443 }]));
    expect(undo).to.equal(API_PARTITION_UNDO);
  });
});
