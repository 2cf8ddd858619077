// Docker node actions against the real engine, on busybox containers labelled like kind nodes.
import { expect } from 'chai';
import { actOnNodeContainer, type DockerActionContext } from '../../../lib/cluster/kind/actions.js';
import { InputError } from '../../../lib/common/errors.js';
import { run } from '../../../lib/common/exec.js';
import { dockerUnavailableReason, ensureTestImage, FakeKindCluster } from './helpers.js';

const skipReason = dockerUnavailableReason();

describe('Docker node actions (integration)', function () {
  this.timeout(180_000);
  let fake: FakeKindCluster;
  let ctx: DockerActionContext;

  before(function () {
    if (skipReason) {
      console.log(`    skipped: ${skipReason}`);
      this.skip();
    }
    ensureTestImage();
  });

  beforeEach(async () => {
    fake = new FakeKindCluster();
    await fake.createNetwork(true);
    ctx = { cluster: fake.cluster, network: fake.network, deleteNodeObject: async () => {} };
  });

  afterEach(async () => fake?.cleanup());

  it('pause then undo leaves the container running', async () => {
    const node = await fake.addNode('worker');
    const undo = await actOnNodeContainer(ctx, node, 'pause');
    expect(await fake.state(node)).to.equal('paused');
    expect(undo.record!.restoreCommands).to.deep.equal([['docker', 'unpause', node]]);
    await undo();
    await undo(); // idempotent
    expect(await fake.state(node)).to.equal('running');
  });

  it('stop then undo starts the container again and records the IPs', async () => {
    const node = await fake.addNode('worker');
    const ipBefore = await fake.ip(node);
    const undo = await actOnNodeContainer(ctx, node, 'stop');
    expect(await fake.state(node)).to.equal('exited');
    expect(undo.record!.ipBefore).to.equal(ipBefore);
    expect(undo.record!.ipAfter).to.equal(null);
    await undo();
    expect(await fake.state(node)).to.equal('running');
    expect(undo.record!.ipAfterUndo).to.match(/^10\./);
  });

  it('restart keeps the container running with a new start time', async () => {
    const node = await fake.addNode('worker');
    const startedBefore = await run('docker', ['inspect', '--format', '{{.State.StartedAt}}', node]);
    const undo = await actOnNodeContainer(ctx, node, 'restart');
    expect(await fake.state(node)).to.equal('running');
    expect(await run('docker', ['inspect', '--format', '{{.State.StartedAt}}', node])).to.not.equal(startedBefore);
    expect(undo.record!.restoreCommands).to.deep.equal([]);
  });

  it('disconnect then undo reconnects with the same IP (network with a user subnet: --ip)', async () => {
    const node = await fake.addNode('worker');
    await fake.addNode('worker2');
    const ipBefore = await fake.ip(node);
    const undo = await actOnNodeContainer(ctx, node, 'disconnect');
    expect(await fake.ip(node)).to.equal('');
    expect(undo.record!.ipAfter).to.equal(null);
    expect(undo.record!.restoreCommands).to.deep.equal([['docker', 'network', 'connect', '--ip', ipBefore, fake.network, node]]);
    await undo();
    expect(await fake.ip(node)).to.equal(ipBefore);
    expect(undo.record!.ipAfterUndo).to.equal(ipBefore);
  });

  it('disconnect then undo still reconnects when another container took the old IP, recording the new one', async () => {
    const node = await fake.addNode('worker');
    const ipBefore = await fake.ip(node);
    const undo = await actOnNodeContainer(ctx, node, 'disconnect');
    await fake.addNode('intruder'); // takes the lowest free address, the old one
    await undo();
    const ipNow = await fake.ip(node);
    expect(ipNow).to.not.equal('');
    expect(ipNow).to.not.equal(ipBefore);
    expect(undo.record!.ipAfterUndo).to.equal(ipNow);
  });

  it('refuses a container without its cluster label and leaves it untouched', async () => {
    const foreign = await fake.addNode('foreign', 'someone-else');
    let error: unknown;
    await actOnNodeContainer(ctx, foreign, 'pause').catch((e) => { error = e; });
    expect(error).to.be.instanceOf(InputError);
    expect((error as Error).message).to.contain(`does not carry io.x-k8s.kind.cluster=${fake.cluster}`);
    expect(await fake.state(foreign)).to.equal('running');
  });
});

describe('Docker node actions on a kind-like network (integration)', function () {
  this.timeout(180_000);
  let fake: FakeKindCluster;

  before(function () {
    if (skipReason) this.skip();
    ensureTestImage();
  });
  afterEach(async () => fake?.cleanup());

  it('disconnect then undo reconnects with the same IP although Docker refuses --ip there', async () => {
    fake = new FakeKindCluster();
    await fake.createNetwork(false);
    const ctx = { cluster: fake.cluster, network: fake.network, deleteNodeObject: async () => {} };
    await fake.addNode('control-plane');
    const node = await fake.addNode('worker');
    await fake.addNode('worker2');
    const ipBefore = await fake.ip(node);
    const undo = await actOnNodeContainer(ctx, node, 'disconnect');
    await undo();
    expect(await fake.ip(node)).to.equal(ipBefore);
  });
});
