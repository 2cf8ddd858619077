// Attachable volumes (case C18): the attach/detach chain read from recorded kind runs, and the model of
// lib/analyze/predict-volumes.ts (kube-controller-manager's attach/detach reconciler, v1.34.4 to v1.37.2) on them and
// on edited inputs for the branches the runs do not take.
import { expect } from 'chai';
import {
  attachableReplacementReadyWindow, lostNodeDetachWindow, MAX_WAIT_FOR_UNMOUNT_SECONDS, mountRetryBoundSeconds, predictVolumes,
} from '../../../lib/analyze/predict-volumes.js';
import type { PodVolume, VolumeAnalysis } from '../../../lib/analyze/types.js';
import { loadFixtureRun, predictionItem } from './fixture-runs.js';

describe('attachable volumes: recorded runs', function () {
  describe('kind-attachable-force-delete-recorded (power-off, force delete at 60 s; kind v1.37.2)', function () {
    const run = loadFixtureRun('kind-attachable-force-delete-recorded');
    const v = run.analysis.volumes!.pods[0]!;

    it('holds the volume on the dead node for maxWaitForUnmountDuration after the pod was deleted, then force-detaches', function () {
      expect(v.pod).to.equal('rebootlab/db-0');
      expect(v.nodeReadyWhenReleased, 'the node was NotReady').to.equal(false);
      expect(v.mountedWhenReleased, 'the dead kubelet never reported the unmount').to.equal(true);
      // 6 min from the release, plus at most two 100 ms reconciler passes.
      expect(v.detachWaitSeconds).to.be.within(MAX_WAIT_FOR_UNMOUNT_SECONDS, MAX_WAIT_FOR_UNMOUNT_SECONDS + 0.2);
      expect(v.forcedDetach).to.equal('timeout');
    });

    it('reports Multi-Attach on the replacement at once and attaches it to the other node after the detach', function () {
      const rep = v.replacement!;
      expect(rep.node).to.not.equal(v.node);
      expect(rep.multiAttach).to.not.equal(null);
      // v1.37 words it "Waiting for detach" (v1.34 to v1.36: "Multi-Attach error"), reconciler.go reportMultiAttachError.
      expect(rep.multiAttach!.message).to.match(/^Waiting for detach for volume "pvc-/);
      expect(rep.multiAttach!.firstAfterSeconds - rep.scheduledAfterSeconds!).to.be.within(0, 1);
      expect(rep.attachedAfterSeconds! - v.detachedAfterSeconds!).to.be.within(0, 1.5);
      expect(rep.readyAfterSeconds!).to.be.greaterThan(rep.attachedAfterSeconds!);
    });

    it('predicts the forced detach, the Multi-Attach error and the attach, and they held', function () {
      for (const ref of ['volume-detach@db-0', 'multi-attach-error@db-0', 'volume-attach@db-0']) {
        const item = predictionItem(run.analysis, ref)!;
        expect(item, ref).to.not.equal(undefined);
        expect(item.expected, ref).to.equal(true);
        expect(item.held, `${ref}: ${item.because}`).to.equal(true);
      }
      const detach = predictionItem(run.analysis, 'volume-detach@db-0')!;
      expect(detach.window!.fromSeconds).to.equal(Math.round((v.releasedAfterSeconds! + MAX_WAIT_FOR_UNMOUNT_SECONDS - 1) * 1000) / 1000);
      expect(run.analysis.predictions.missed).to.deep.equal([]);
    });

    it('the forecast frozen before the fault held for the replacement\'s Ready (6 min + the kubelet\'s retry)', function () {
      expect(run.analysis.forecast!.frozen).to.equal('journal');
      const ready = run.analysis.forecast!.items.find((i) => i.event === 'replacement-ready' && i.pod === 'rebootlab/db-0')!;
      expect(ready.mechanism).to.equal('attach-detach');
      expect(ready.window!.fromSeconds).to.be.greaterThan(60 + MAX_WAIT_FOR_UNMOUNT_SECONDS - 2);
      expect(ready.held, `observed ${ready.observedSeconds} s, window ${JSON.stringify(ready.window)}`).to.equal(true);
    });
  });

  describe('kind-attachable-out-of-service-recorded (power-off, out-of-service taint at 60 s; kind v1.37.2)', function () {
    const run = loadFixtureRun('kind-attachable-out-of-service-recorded');
    const v = run.analysis.volumes!.pods[0]!;

    it('detaches at the first reconciler pass after PodGC released the pod, forced by the out-of-service taint', function () {
      expect(v.outOfServiceWhenReleased).to.equal(true);
      expect(v.mountedWhenReleased).to.equal(true);
      expect(v.detachWaitSeconds).to.be.within(0, 0.2);
      expect(v.forcedDetach).to.equal('out-of-service');
    });

    it('no Multi-Attach error: the replacement attaches within a second of the detach and is Ready within seconds', function () {
      const rep = v.replacement!;
      expect(rep.multiAttach).to.equal(null);
      expect(rep.attachedAfterSeconds! - v.releasedAfterSeconds!).to.be.within(0, 1.5);
      expect(rep.readyAfterSeconds! - v.releasedAfterSeconds!).to.be.lessThan(15);
      const multi = predictionItem(run.analysis, 'multi-attach-error@db-0')!;
      expect(multi.expected).to.equal(false);
      expect(multi.held).to.equal(true);
      for (const ref of ['volume-detach@db-0', 'volume-attach@db-0']) expect(predictionItem(run.analysis, ref)!.held, ref).to.equal(true);
    });

    it('the forecast frozen before the fault held: the replacement Ready once the taint lets the detach go, evicted by whichever taint came first', function () {
      const f = run.analysis.forecast!;
      expect(f.frozen).to.equal('journal');
      const ready = f.items.find((i) => i.event === 'replacement-ready' && i.pod === 'rebootlab/db-0')!;
      expect(ready.mechanism).to.equal('attach-detach');
      expect(ready.window!.toSeconds).to.be.lessThan(60 + MAX_WAIT_FOR_UNMOUNT_SECONDS);
      expect(ready.held).to.equal(true);
      // The unreachable taint's 30 s toleration ran out before the out-of-service step at 60 s (so it did in the
      // v1.34.4 run whose forecast took the step alone, and missed): the forecast allows either.
      const eviction = f.items.find((i) => i.event === 'pod-eviction' && i.pod === 'rebootlab/db-0')!;
      expect(eviction.observedSeconds).to.be.lessThan(60);
      expect(eviction.held, JSON.stringify(eviction.outcomes)).to.equal(true);
      expect(f.missed).to.deep.equal([]);
    });
  });

  it('a run without attachable volumes has no volumes part and no volume items', function () {
    const run = loadFixtureRun('kind-sts-force-delete-recorded');
    expect(run.analysis.volumes).to.equal(undefined);
    expect(run.analysis.predictions.items.filter((i) => i.event.startsWith('volume-') || i.event === 'multi-attach-error')).to.deep.equal([]);
  });
});

/** A pod volume like the force-delete run's: released at 60 s on a NotReady node that still reports the volume in use. */
function lostPod(overrides: Partial<PodVolume> = {}): PodVolume {
  return {
    pod: 'rebootlab/db-0', uid: 'u1', workload: 'db', claim: 'data-db-0', volume: 'pvc-1', node: 'w1',
    releasedAfterSeconds: 60, nodeReadyWhenReleased: false, mountedWhenReleased: true, outOfServiceWhenReleased: false, outOfServiceTaintReceivedAfterSeconds: null,
    detachStartedAfterSeconds: 420.1, detachedAfterSeconds: 420.11, detachWaitSeconds: 360.1, mountedWhenDetached: true, forcedDetach: 'timeout',
    replacement: { pod: 'rebootlab/db-0', uid: 'u2', node: 'w2', scheduledAfterSeconds: 60.1, multiAttach: { firstAfterSeconds: 60.2, count: 1, message: 'Multi-Attach error' }, attachedAfterSeconds: 420.7, readyAfterSeconds: 423 },
    ...overrides,
  };
}

function items(pod: PodVolume, options: { forceDetachOnTimeout?: boolean; readyAgain?: [string, number][] } = {}) {
  const volumes: VolumeAnalysis = { attachments: [], pods: [pod] };
  const drafts = predictVolumes({ volumes, forceDetachOnTimeout: options.forceDetachOnTimeout ?? true, readyAgainSeconds: new Map(options.readyAgain ?? []) });
  return Object.fromEntries(drafts.map((d) => [d.event, d]));
}

describe('attachable volumes: the model (predict-volumes)', function () {
  it('force-detaches maxWaitForUnmountDuration after the release from a node that is down', function () {
    expect(items(lostPod())['volume-detach']!.window).to.deep.equal({ fromSeconds: 419, toSeconds: 421.2 });
  });

  it('an out-of-service taint during the wait ends it at the taint', function () {
    const detach = items(lostPod({ outOfServiceTaintReceivedAfterSeconds: 200 }))['volume-detach']!;
    expect(detach.window).to.deep.equal({ fromSeconds: 199, toSeconds: 201.2 });
    expect(detach.cause!.event).to.include('out-of-service');
  });

  it('with --disable-force-detach-on-timeout the volume stays attached: no detach, no attach', function () {
    const all = items(lostPod({ detachStartedAfterSeconds: null, detachedAfterSeconds: null }), { forceDetachOnTimeout: false });
    expect(all['volume-detach']!.expected).to.equal(false);
    expect(all['volume-attach']!.expected).to.equal(false);
    expect(all['multi-attach-error']!.expected).to.equal(true);
  });

  it('a pod never released (a StatefulSet pod on a powered-off node) keeps the volume attached', function () {
    const all = items(lostPod({ releasedAfterSeconds: null, replacement: null, detachStartedAfterSeconds: null }));
    expect(all['volume-detach']!.expected).to.equal(false);
    expect(all['volume-detach']!.because).to.include('still exists');
  });

  it('a node Ready again before the deadline hands the decision to its kubelet: not modelled', function () {
    expect(items(lostPod(), { readyAgain: [['w1', 100]] })['volume-detach']!.notModelled).to.match(/^not modelled/);
  });

  it('a replacement created before the release (a ReplicaSet\'s) meets Multi-Attach even when the detach is immediate', function () {
    const all = items(lostPod({ outOfServiceWhenReleased: true, replacement: { ...lostPod().replacement!, scheduledAfterSeconds: 30 } }));
    expect(all['multi-attach-error']!.expected).to.equal(true);
    expect(all['multi-attach-error']!.window).to.deep.equal({ fromSeconds: 29, toSeconds: 31.2 });
  });

  it('the kubelet\'s retry bound follows its backoff: 0.5 s doubling to 122 s', function () {
    expect([0.2, 1, 3, 10, 100, 360, 3600].map(mountRetryBoundSeconds)).to.deep.equal([0.5, 1, 2, 8, 64, 122, 122]);
  });

  it('forecast windows: detach 6 min after the removal, or at the removal with an earlier out-of-service taint', function () {
    expect(lostNodeDetachWindow({ fromSeconds: 59.9, toSeconds: 63 }, null)).to.deep.equal({ fromSeconds: 419.9, toSeconds: 423.2 });
    expect(lostNodeDetachWindow({ fromSeconds: 60, toSeconds: 85 }, 60)).to.deep.equal({ fromSeconds: 60, toSeconds: 85.2 });
    const ready = attachableReplacementReadyWindow({ created: { fromSeconds: 59.8, toSeconds: 66 }, detach: { fromSeconds: 419.9, toSeconds: 423.2 }, statusUpdateSeconds: 10, readySeconds: 5 });
    expect(ready.fromSeconds).to.equal(419.9);
    expect(ready.toSeconds).to.be.closeTo(423.2 + 2 * 0.578 + 0.4 + 1 + 122 + 5, 0.001);
  });
});
