// pending-restore.json is only ever replayed as rebootlab's own undo commands on nodes of clusters it made.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RestoreTargets } from '../../../lib/cluster/restore-targets.js';
import { API_PARTITION_UNDO } from '../../../lib/cluster/api-partition.js';
import { shutdownRestoreCommands } from '../../../lib/cluster/kind/actions.js';
import { restartPolicyValue } from '../../../lib/cluster/kind/restart-policy.js';
import { checkRestoreCommand, declareUserUndos, parseRestoreCommand, restoreCommandText } from '../../../lib/faults/restore-commands.js';
import { fillPlaceholders } from '../../../lib/cluster/existing/placeholders.js';
import { findPendingRestoreDirs, lastOutFile, rememberOutDir, restorePending, restoreSearchDirs, writePendingRestore } from '../../../lib/faults/restore-file.js';

const KUBECONFIG = '/root/.cache/rebootlab/clusters/lab.kubeconfig';

describe('faults/restore-commands: parseRestoreCommand', () => {
  const accepted: [string[], string][] = [
    [['docker', 'unpause', 'lab-worker'], 'unpause'],
    [['docker', 'start', 'lab-worker2'], 'start'],
    // The shutdown action's restart policy put back (issue 28): each of Docker's forms, kind's own on-failure:1.
    [['docker', 'update', '--restart=on-failure:1', 'lab-worker'], 'restart-policy'],
    [['docker', 'update', '--restart=on-failure:999', 'lab-worker'], 'restart-policy'],
    [['docker', 'update', '--restart=on-failure', 'lab-worker'], 'restart-policy'],
    [['docker', 'update', '--restart=always', 'lab-control-plane'], 'restart-policy'],
    [['docker', 'update', '--restart=unless-stopped', 'lab-worker'], 'restart-policy'],
    [['docker', 'update', '--restart=no', 'lab-worker'], 'restart-policy'],
    [['docker', 'network', 'connect', 'kind', 'lab-worker'], 'network-connect'],
    [['docker', 'network', 'connect', '--ip', '172.18.0.3', 'kind', 'lab-worker'], 'network-connect'],
    [['docker', 'exec', 'lab-worker', 'systemctl', 'start', 'kubelet'], 'start-kubelet'],
    [['docker', 'exec', 'lab-worker', 'systemctl', 'restart', 'kubelet'], 'restart-kubelet'],
    [['docker', 'exec', 'lab-worker', 'systemctl', 'start', 'containerd'], 'start-containerd'],
    [['docker', 'exec', 'lab-worker', 'sh', '-c', API_PARTITION_UNDO], 'remove-api-partition'],
    [['kubectl', '--kubeconfig', KUBECONFIG, 'uncordon', 'lab-worker'], 'uncordon'],
    [['kubectl', '--kubeconfig', KUBECONFIG, 'taint', 'node', 'lab-worker', 'node.kubernetes.io/out-of-service:NoExecute-'], 'untaint-out-of-service'],
    [['kubectl', '--kubeconfig', '/c/kwok-clusters/k/kubeconfig', 'label', 'node', 'k-worker', 'rebootlab.dev/kwok-heartbeat=on', '--overwrite'], 'relabel-kwok-managed'],
    [['kubectl', '--kubeconfig', '/c/kwok-clusters/k/kubeconfig', 'create', '-f', '/c/kwok-clusters/k/deleted-nodes/k-worker.yaml'], 'recreate-node'],
    // A label a label-node / unlabel-node step changed, put back (its value before, or removed when it had none).
    [['kubectl', '--kubeconfig', KUBECONFIG, 'label', 'node', 'lab-worker', 'rebootlab.dev/pool=blue', '--overwrite'], 'restore-label'],
    [['kubectl', '--kubeconfig', KUBECONFIG, 'label', 'node', 'lab-worker', 'disk=', '--overwrite'], 'restore-label'],
    [['kubectl', '--kubeconfig', KUBECONFIG, 'label', 'node', 'lab-worker', 'rebootlab.dev/pool-'], 'restore-label'],
  ];
  for (const [argv, undo] of accepted) {
    it(`accepts ${argv.join(' ')}`, () => {
      const parsed = parseRestoreCommand(argv);
      expect(parsed).to.not.have.property('error');
      expect(parsed).to.include({ undo });
      expect((parsed as { argv: string[] }).argv).to.deep.equal(argv);
    });
  }

  const refused: unknown[] = [
    ['sh', '-c', 'docker unpause lab-worker'],
    ['docker', 'rm', '-f', 'lab-worker'],
    ['docker', 'unpause', 'lab-worker', 'other'],
    ['docker', 'unpause', '--help'],
    ['docker', 'unpause', 'lab-worker;rm'],
    ['docker', 'exec', 'lab-worker', 'sh', '-c', 'systemctl start kubelet'],
    ['docker', 'exec', 'lab-worker', 'sh', '-c', `${API_PARTITION_UNDO}; rm -rf /`],
    ['docker', 'exec', 'lab-worker;x', 'sh', '-c', API_PARTITION_UNDO],
    ['docker', 'exec', 'lab-worker', 'systemctl', 'stop', 'kubelet'],
    ['docker', 'network', 'connect', '--ip', '999.1.1.1', 'kind', 'lab-worker'],
    // docker update: only --restart=<one of Docker's policies> on a node, as one word, nothing more.
    ['docker', 'update', '--restart=on-failure;rm -rf /', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:1;rm', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:1 ', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:1\n', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:1\nrm -rf /', 'lab-worker'],
    ['docker', 'update', '--restart=$(reboot)', 'lab-worker'],
    ['docker', 'update', '--restart=`reboot`', 'lab-worker'],
    ['docker', 'update', '--restart=no --privileged', 'lab-worker'],
    ['docker', 'update', '--restart=no', '--privileged', 'lab-worker'],
    ['docker', 'update', '--restart=no', 'lab-worker', 'lab-worker2'],
    ['docker', 'update', '--restart=no', 'lab-worker', '--memory=1g'],
    ['docker', 'update', '--memory=1g', 'lab-worker'],
    ['docker', 'update', '--cpus=0.01', 'lab-worker'],
    ['docker', 'update', '--restart', 'no', 'lab-worker'],
    ['docker', 'update', '--restart=', 'lab-worker'],
    ['docker', 'update', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:0', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:01', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:1000', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:-1', 'lab-worker'],
    ['docker', 'update', '--restart=on-failure:', 'lab-worker'],
    ['docker', 'update', '--restart=always:1', 'lab-worker'],
    ['docker', 'update', '--restart=ALWAYS', 'lab-worker'],
    ['docker', 'update', '--restart=sometimes', 'lab-worker'],
    ['docker', 'update', '-restart=no', 'lab-worker'],
    ['docker', 'update', '--restart=no', 'lab-worker;rm'],
    ['docker', 'update', '--restart=no', '--help'],
    ['docker', 'update', '--restart=no', 'Lab-Worker'],
    ['docker', 'update', '--restart=no', '-lab-worker'],
    ['docker', 'container', 'update', '--restart=no', 'lab-worker'],
    ['docker', 'network', 'connect', '--alias', 'x', 'kind', 'lab-worker'],
    ['kubectl', '--kubeconfig', KUBECONFIG, 'delete', 'node', 'lab-worker'],
    ['kubectl', '--kubeconfig', 'relative.kubeconfig', 'uncordon', 'lab-worker'],
    ['kubectl', 'uncordon', 'lab-worker'],
    ['kubectl', '--kubeconfig', KUBECONFIG, 'taint', 'node', 'lab-worker', 'node-role.kubernetes.io/control-plane:NoSchedule-'],
    ['kubectl', '--kubeconfig', KUBECONFIG, 'create', '-f', 'https://example.com/x.yaml'],
    ['kubectl', '--kubeconfig', KUBECONFIG, 'label', 'node', 'lab-worker', 'kubernetes.io/hostname=other', '--overwrite'],
    ['kubectl', '--kubeconfig', KUBECONFIG, 'label', 'node', 'lab-worker', 'node-role.kubernetes.io/control-plane-'],
    ['kubectl', '--kubeconfig', KUBECONFIG, 'label', 'node', 'lab-worker', 'pool=a;b', '--overwrite'],
    ['kubectl', '--kubeconfig', KUBECONFIG, 'label', 'node', 'lab-worker', '--all=x', '--overwrite'],
    ['kubectl', '--kubeconfig', KUBECONFIG, 'label', 'node', 'lab-worker', 'pool=blue'],
    'docker unpause lab-worker',
    [],
    [['docker'], ['unpause']],
  ];
  for (const argv of refused) {
    it(`refuses ${JSON.stringify(argv)}`, () => {
      expect(parseRestoreCommand(argv)).to.have.property('error').that.is.a('string').and.does.not.include('\n');
    });
  }

  it('names a refused command on one line, a word with a control character or line separator quoted and escaped', () => {
    expect(parseRestoreCommand(['docker', 'update', '--restart=no\nrm -rf /', 'lab-worker'])).to.deep.equal({ error: 'not one of rebootlab\'s undo commands: docker update "--restart=no\\nrm -rf /" lab-worker' });
    expect(restoreCommandText(['docker', 'start', 'a\u0085b\u2028c\u007f\r'])).to.equal('docker start "a\\u0085b\\u2028c\\u007f\\r"');
    expect(restoreCommandText(['docker', 'start', 'lab-worker'])).to.equal('docker start lab-worker');
    // A refused command is shown for the user to run by hand: a word a shell would split or expand is single-quoted
    // (doctor printed `docker start rebootlab-worker; touch /tmp/PWNED`: hostile-input tryout, 8 Dec 2026).
    expect(restoreCommandText(['docker', 'start', "rebootlab-worker; touch /tmp/PWNED"])).to.equal("docker start 'rebootlab-worker; touch /tmp/PWNED'");
    expect(restoreCommandText(['docker', 'start', "it's $(id)"])).to.equal("docker start 'it'\\''s $(id)'");
  });

  it('quotes and escapes a word with a bidirectional formatting character, so a refused command shows its words in stored order', () => {
    // U+202E shows "/tmp/\u202elmay.rekrow-bal" as "/tmp/lab-worker.yaml" reversed: the line must show the escape, not the illusion.
    expect(parseRestoreCommand(['kubectl', '--kubeconfig', KUBECONFIG, 'create', '-f', '/tmp/\u202elmay.rekrow-bal'])).to.deep.equal({
      error: `not one of rebootlab's undo commands: kubectl --kubeconfig ${KUBECONFIG} create -f "/tmp/\\u202elmay.rekrow-bal"`,
    });
    for (const c of ['\u200e', '\u200f', '\u061c', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(restoreCommandText(['docker', 'start', `a${c}b`])).to.equal(`docker start "a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b"`);
    }
  });
});

describe('faults/restore-commands: checkRestoreCommand', () => {
  const targets: RestoreTargets = {
    kindNodeContainer: async (c) => (c.startsWith('lab-') ? { ok: true, cluster: 'lab' } : { ok: false, reason: 'cluster foreign was not created by rebootlab; use kind delete cluster --name foreign' }),
    clusterOfKubeconfig: async (path) =>
      path === KUBECONFIG
        ? { ok: true, cluster: 'lab', nodes: new Set(['lab-control-plane', 'lab-worker']), manifestDir: null }
        : path === '/c/kwok-clusters/k/kubeconfig'
          ? { ok: true, cluster: 'k', nodes: null, manifestDir: '/c/kwok-clusters/k/deleted-nodes' }
          : { ok: false, reason: `${path} is not the kubeconfig of a cluster rebootlab made` },
  };

  it('passes an undo on a node of an owned cluster', async () => {
    expect(await checkRestoreCommand(['docker', 'unpause', 'lab-worker'], targets)).to.deep.equal({ argv: ['docker', 'unpause', 'lab-worker'] });
    expect(await checkRestoreCommand(['kubectl', '--kubeconfig', KUBECONFIG, 'uncordon', 'lab-worker'], targets)).to.deep.equal({ argv: ['kubectl', '--kubeconfig', KUBECONFIG, 'uncordon', 'lab-worker'] });
  });

  it('refuses the nodes of a cluster rebootlab did not create, with the one-line kind hint', async () => {
    expect(await checkRestoreCommand(['docker', 'start', 'foreign-worker'], targets)).to.deep.equal({ error: 'cluster foreign was not created by rebootlab; use kind delete cluster --name foreign' });
    expect(await checkRestoreCommand(['docker', 'update', '--restart=on-failure:1', 'foreign-worker'], targets)).to.deep.equal({ error: 'cluster foreign was not created by rebootlab; use kind delete cluster --name foreign' });
  });

  it('passes a restart policy put back on a node of an owned cluster, and refuses a policy outside Docker\'s forms before asking who owns it', async () => {
    expect(await checkRestoreCommand(['docker', 'update', '--restart=on-failure:1', 'lab-worker'], targets)).to.deep.equal({ argv: ['docker', 'update', '--restart=on-failure:1', 'lab-worker'] });
    const asked: string[] = [];
    const recording: RestoreTargets = { ...targets, kindNodeContainer: async (c) => (asked.push(c), targets.kindNodeContainer(c)) };
    expect(await checkRestoreCommand(['docker', 'update', '--restart=on-failure;rm -rf /', 'lab-worker'], recording)).to.deep.equal({ error: 'not one of rebootlab\'s undo commands: docker update \'--restart=on-failure;rm -rf /\' lab-worker' });
    expect(asked).to.deep.equal([]);
  });

  it('refuses a node the owned cluster does not have, a foreign kubeconfig, and a manifest outside the cluster', async () => {
    expect(await checkRestoreCommand(['kubectl', '--kubeconfig', KUBECONFIG, 'uncordon', 'lab-worker9'], targets)).to.have.property('error').that.match(/lab-worker9 is not a node of cluster lab/);
    expect(await checkRestoreCommand(['kubectl', '--kubeconfig', '/home/u/.kube/config', 'uncordon', 'lab-worker'], targets)).to.have.property('error').that.match(/not the kubeconfig of a cluster rebootlab made/);
    expect(await checkRestoreCommand(['kubectl', '--kubeconfig', '/c/kwok-clusters/k/kubeconfig', 'create', '-f', '/tmp/k-worker.yaml'], targets)).to.have.property('error').that.match(/not a node manifest rebootlab saved/);
  });
});

describe('faults/restore-commands: the shutdown action\'s restore commands round-trip (issue 28)', () => {
  const targets: RestoreTargets = {
    kindNodeContainer: async (c) => (c.startsWith('lab-') ? { ok: true, cluster: 'lab' } : { ok: false, reason: 'cluster foreign was not created by rebootlab; use kind delete cluster --name foreign' }),
    clusterOfKubeconfig: async () => ({ ok: false, reason: 'not used' }),
  };

  it('restartPolicyValue: what docker inspect prints, as the value of --restart= (null: nothing to turn off)', () => {
    expect(restartPolicyValue('on-failure', '1')).to.deep.equal({ policy: 'on-failure:1' });
    expect(restartPolicyValue('on-failure', '0')).to.deep.equal({ policy: 'on-failure' });
    expect(restartPolicyValue('always', '0')).to.deep.equal({ policy: 'always' });
    expect(restartPolicyValue('unless-stopped', '0')).to.deep.equal({ policy: 'unless-stopped' });
    expect(restartPolicyValue('no', '0')).to.deep.equal({ policy: null });
    expect(restartPolicyValue('', '0')).to.deep.equal({ policy: null });
    for (const [name, count] of [['on-failure', '1000'], ['on-failure', '-1'], ['on-failure', ''], ['on-failure', '01'], ['sometimes', '0'], ['on-failure;rm', '1'], ['always', '1 x']]) {
      expect(restartPolicyValue(name!, count!), `${name} ${count}`).to.have.property('error').that.is.a('string').and.does.not.include('\n');
    }
  });

  it('records the policy undo before docker start, only when the node had a policy to turn off', () => {
    expect(shutdownRestoreCommands('lab-worker', 'on-failure:1')).to.deep.equal([['docker', 'update', '--restart=on-failure:1', 'lab-worker'], ['docker', 'start', 'lab-worker']]);
    expect(shutdownRestoreCommands('lab-worker', null)).to.deep.equal([['docker', 'start', 'lab-worker']]);
  });

  it('every policy the action may record parses back to the same argv and passes the ownership check', async () => {
    for (const [name, count] of [['on-failure', '1'], ['on-failure', '999'], ['on-failure', '0'], ['always', '0'], ['unless-stopped', '0'], ['no', '0'], ['', '0']]) {
      const read = restartPolicyValue(name!, count!);
      expect(read, `${name} ${count}`).to.have.property('policy');
      const recorded = shutdownRestoreCommands('lab-worker', (read as { policy: string | null }).policy);
      for (const argv of recorded) {
        const parsed = parseRestoreCommand(JSON.parse(JSON.stringify(argv)));
        expect(parsed, argv.join(' ')).to.not.have.property('error');
        expect((parsed as { argv: string[] }).argv).to.deep.equal(argv);
        expect(await checkRestoreCommand(argv, targets)).to.deep.equal({ argv });
      }
    }
  });

  it('doctor --restore after a kill -9: pending-restore.json puts the policy back, then starts the node, and is removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-restore-policy-'));
    try {
      writePendingRestore(dir, [{ label: 'shutdown lab-worker', nodes: ['lab-worker'], commands: shutdownRestoreCommands('lab-worker', 'on-failure:1') }]);
      const ran: string[] = [];
      const [report] = await restorePending({ runDir: dir }, { force: true, targets, exec: async (argv) => void ran.push(argv.join(' ')) });
      expect(ran).to.deep.equal(['docker update --restart=on-failure:1 lab-worker', 'docker start lab-worker']);
      expect(report!.failed).to.deep.equal([]);
      expect(report!.restored).to.deep.equal(ran);
      expect(findPendingRestoreDirs(dir)).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a tampered policy in pending-restore.json is refused as bad input and never run; the file stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-restore-policy-'));
    try {
      const tampered = [['docker', 'update', '--restart=no --privileged', 'lab-worker'], ['docker', 'start', 'lab-worker']];
      writePendingRestore(dir, [{ label: 'shutdown lab-worker', nodes: ['lab-worker'], commands: tampered }]);
      const ran: string[] = [];
      const [report] = await restorePending({ runDir: dir }, { force: true, targets, exec: async (argv) => void ran.push(argv.join(' ')) });
      expect(ran).to.deep.equal(['docker start lab-worker']);
      expect(report!.failed).to.deep.equal([{
        command: 'docker update \'--restart=no --privileged\' lab-worker',
        error: 'refused: not one of rebootlab\'s undo commands: docker update \'--restart=no --privileged\' lab-worker',
        cause: 'input',
      }]);
      expect(findPendingRestoreDirs(dir)).to.deep.equal([dir]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('faults/restore-file: where pending-restore.json is looked for', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'rebootlab-restore-dirs-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds files at any depth (single run, matrix variant, the directory itself), not in symlinked directories', () => {
    const single = join(dir, 'freeze-20261201T000000Z');
    const variant = join(dir, 'sweep-20261201T000000Z', 'sweep--type-freeze-r0');
    const deep = join(dir, 'a', 'b', 'c', 'd');
    for (const d of [single, variant, deep]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'pending-restore.json'), '{}');
    }
    mkdirSync(join(dir, 'sweep-20261201T000000Z', 'sweep--type-pause-r0'));
    expect(findPendingRestoreDirs(dir)).to.deep.equal([deep, single, variant].sort());
    expect(findPendingRestoreDirs(variant)).to.deep.equal([variant]);
    expect(findPendingRestoreDirs(join(dir, 'missing'))).to.deep.equal([]);
  });

  it('searches the given directory, the default reports directory and the last --out remembered in the cache', () => {
    const env = { REBOOTLAB_CACHE: join(dir, 'cache') };
    expect(restoreSearchDirs(['out'], 'reports', env)).to.deep.equal([join(process.cwd(), 'out'), join(process.cwd(), 'reports')]);
    rememberOutDir(join(dir, 'matrix-out'), env);
    expect(lastOutFile(env)).to.equal(join(dir, 'cache', 'last-out'));
    expect(restoreSearchDirs(['reports'], 'reports', env)).to.deep.equal([join(process.cwd(), 'reports'), join(dir, 'matrix-out')]);
  });
});

describe('faults/restore-commands: user command undos (fault.backend.command.on)', () => {
  const targets = {} as RestoreTargets; // never asked: a user undo is checked against the declared ones only
  const left = ['rebootlab-user-undo', 'prod', 'virsh start {node}', 'vm-1', '', '', '10.0.0.7'];
  const declare = (template: string, current: { node: string; providerID: string; zone: string; internalIP: string } | null) =>
    declareUserUndos([{ context: 'prod', template, currentFacts: async () => current, fill: fillPlaceholders }]);
  afterEach(() => declareUserUndos([]));

  it('is refused when no experiment being run declares it (doctor --restore, another experiment): run by hand', async () => {
    expect(await checkRestoreCommand(left, targets)).to.deep.equal({
      error: 'user command undo "virsh start {node}" for node vm-1 of context prod is replayed only by a run of an experiment declaring it with --allow-faults-on prod; run it by hand',
    });
  });

  it('is refused when the declared on differs from the one in the file', async () => {
    declare('virsh start --force {node}', null);
    expect(await checkRestoreCommand(left, targets)).to.have.property('error');
  });

  it('runs as sh -c with the current facts of the node when declared', async () => {
    declare('virsh start {node}', { node: 'vm-1', providerID: '', zone: '', internalIP: '10.0.0.8' });
    expect(await checkRestoreCommand(left, targets)).to.deep.equal({ argv: ['sh', '-c', 'virsh start vm-1'] });
  });

  it('a value a shell would interpret is refused even when declared (Node gone: the file facts are used)', async () => {
    declare('ipmitool -H {internalIP} power on', null);
    const tampered = ['rebootlab-user-undo', 'prod', 'ipmitool -H {internalIP} power on', 'vm-1', '', '', '$(reboot)'];
    expect(await checkRestoreCommand(tampered, targets)).to.deep.equal({
      error: 'user command undo "ipmitool -H {internalIP} power on" for node vm-1 of context prod: fault.backend.command: {internalIP} of node vm-1 is "$(reboot)", which rebootlab will not put into a shell command',
    });
  });

  it('a template or context holding what validation refuses in an experiment is not one rebootlab wrote: refused, even when declared', async () => {
    const multiLine = ['rebootlab-user-undo', 'prod', 'virsh start {node}\n\tvirsh resume {node}', 'vm-1', '', '', ''];
    expect(parseRestoreCommand(multiLine)).to.deep.include({ via: 'user-command', template: 'virsh start {node}\n\tvirsh resume {node}' });
    for (const [context, template] of [['prod', 'virsh start {node} #\u202e'], ['prod', 'virsh start {node}\u2066'], ['prod', 'virsh\u0000 start'], ['prod\u001b[2J', 'virsh start {node}'], ['', 'virsh start {node}']]) {
      declareUserUndos([{ context, template, currentFacts: async () => null, fill: fillPlaceholders }]);
      const argv = ['rebootlab-user-undo', context, template, 'vm-1', '', '', ''];
      expect(parseRestoreCommand(argv), JSON.stringify(argv)).to.deep.equal({ error: `not one of rebootlab's undo commands: ${restoreCommandText(argv)}` });
      expect(await checkRestoreCommand(argv, targets)).to.have.property('error');
    }
  });
});
