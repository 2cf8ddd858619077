// The NodePort twin of the cluster DNS Service (lib/workloads/cluster-dns.ts): the same selector and UDP port, so
// the same pods and EndpointSlice semantics behind a port the prober can reach from outside the cluster.
import { expect } from 'chai';
import type { V1Service } from '@kubernetes/client-node';
import { InfraError } from '../../../lib/common/errors.js';
import { renderDnsNodePortService } from '../../../lib/workloads/cluster-dns.js';

/** kube-dns as kubeadm v1.34.4 creates it (cmd/kubeadm/app/phases/addons/dns/manifests.go). */
const KUBE_DNS: V1Service = {
  metadata: { name: 'kube-dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
  spec: {
    clusterIP: '10.96.0.10', selector: { 'k8s-app': 'kube-dns' },
    ports: [
      { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
      { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
      { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
    ],
  },
};

describe('workloads/cluster-dns: the NodePort twin of kube-dns', () => {
  it('copies the selector and the UDP port into a NodePort Service rebootlab-dns in kube-system, labelled managed-by', () => {
    expect(renderDnsNodePortService(KUBE_DNS)).to.deep.equal({
      apiVersion: 'v1', kind: 'Service',
      metadata: { name: 'rebootlab-dns', namespace: 'kube-system', labels: { 'app.kubernetes.io/managed-by': 'rebootlab' } },
      spec: { type: 'NodePort', selector: { 'k8s-app': 'kube-dns' }, ports: [{ name: 'dns', protocol: 'UDP', port: 53, targetPort: 53 }] },
    });
  });

  it('keeps a named targetPort, and refuses a Service without selector or UDP port in one line', () => {
    const named = renderDnsNodePortService({ ...KUBE_DNS, spec: { ...KUBE_DNS.spec, ports: [{ port: 53, protocol: 'UDP', targetPort: 'dns' }] } });
    expect((named.spec as { ports: { targetPort: unknown }[] }).ports[0]!.targetPort).to.equal('dns');
    expect(() => renderDnsNodePortService({ ...KUBE_DNS, spec: { ...KUBE_DNS.spec, selector: {} } })).to.throw(InfraError, 'Service kube-system/kube-dns has no pod selector');
    expect(() => renderDnsNodePortService({ ...KUBE_DNS, spec: { ...KUBE_DNS.spec, ports: [{ port: 53, protocol: 'TCP' }] } })).to.throw(InfraError, 'Service kube-system/kube-dns has no UDP port');
  });
});
