// Thawing the nested frozen cgroups of a kind node (a `runc init` left frozen when the node was killed inside runc's
// freeze window blocks `docker rm -f` of the node), on a cgroupfs-shaped directory tree: v1 freezer and v2 unified.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFrozen, nodeCgroupDirs, thawNestedFrozenCgroups } from '../../../lib/cluster/kind/frozen-cgroups.js';

const ID = 'f8b3074b2566e9879298ee98e02e0937aefb44eec1743c852b9ec476811c6283';
/** /proc/<pid>/cgroup of a kind node on this machine's cgroup v1 host (read 3 Dec 2026), trimmed. */
const V1 = `12:freezer:/docker/${ID}\n11:cpu,cpuacct:/docker/${ID}\n1:name=systemd:/docker/${ID}\n0::/system.slice/containerd.service\n`;
const V2 = `0::/system.slice/docker-${ID}.scope\n`;

describe('kind nodes: nested frozen cgroups', function () {
  let root = '';
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'rebootlab-cgroups-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the node\'s freezer (v1) and unified (v2) cgroup directories on the host', () => {
    expect(nodeCgroupDirs(V1, '/sys/fs/cgroup')).to.deep.equal([
      { dir: `/sys/fs/cgroup/freezer/docker/${ID}`, file: 'freezer.state' },
      { dir: '/sys/fs/cgroup/system.slice/containerd.service', file: 'cgroup.freeze' },
    ]);
    expect(nodeCgroupDirs(V2, '/sys/fs/cgroup')).to.deep.equal([{ dir: `/sys/fs/cgroup/system.slice/docker-${ID}.scope`, file: 'cgroup.freeze' }]);
    expect(isFrozen('freezer.state', 'FROZEN\n')).to.equal(true);
    expect(isFrozen('freezer.state', 'THAWED\n')).to.equal(false);
    expect(isFrozen('cgroup.freeze', '1\n')).to.equal(true);
  });

  it('thaws every frozen cgroup below the node (v1), never the node\'s own (that is docker pause)', async () => {
    const node = join(root, 'freezer/docker', ID);
    const stuck = join(node, 'kubelet.slice/kubelet-kubepods.slice/cri-containerd-1f1b.scope');
    const running = join(node, 'kubelet.slice/kubelet-kubepods.slice/cri-containerd-2a2a.scope');
    for (const d of [stuck, running]) mkdirSync(d, { recursive: true });
    writeFileSync(join(node, 'freezer.state'), 'FROZEN\n');
    writeFileSync(join(node, 'kubelet.slice/freezer.state'), 'THAWED\n');
    writeFileSync(join(stuck, 'freezer.state'), 'FROZEN\n');
    writeFileSync(join(running, 'freezer.state'), 'THAWED\n');
    const proc = join(root, 'proc');
    mkdirSync(join(proc, '4242'), { recursive: true });
    writeFileSync(join(proc, '4242/cgroup'), V1);
    expect(await thawNestedFrozenCgroups(4242, root, proc)).to.deep.equal([stuck]);
    expect(readFileSync(join(stuck, 'freezer.state'), 'utf8')).to.equal('THAWED');
    expect(readFileSync(join(node, 'freezer.state'), 'utf8')).to.equal('FROZEN\n');
    expect(readFileSync(join(running, 'freezer.state'), 'utf8')).to.equal('THAWED\n');
  });

  it('thaws a frozen v2 cgroup below the node; a process it cannot read thaws nothing', async () => {
    const node = join(root, `system.slice/docker-${ID}.scope`);
    const stuck = join(node, 'kubelet.slice/cri-containerd-1f1b.scope');
    mkdirSync(stuck, { recursive: true });
    writeFileSync(join(stuck, 'cgroup.freeze'), '1\n');
    const proc = join(root, 'proc');
    mkdirSync(join(proc, '7'), { recursive: true });
    writeFileSync(join(proc, '7/cgroup'), V2);
    expect(await thawNestedFrozenCgroups(8, root, proc)).to.deep.equal([]);
    expect(await thawNestedFrozenCgroups(7, root, proc)).to.deep.equal([stuck]);
    expect(readFileSync(join(stuck, 'cgroup.freeze'), 'utf8')).to.equal('0');
  });
});
