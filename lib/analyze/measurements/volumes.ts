// Measurement: attachable volumes through the fault (VolumeAttachments journaled by runs that use them).
import { part, type Measurement } from '../measurement.js';
import { buildVolumeAnalysis } from '../volume-timeline.js';

const forcedText = { timeout: 'forced: maxWaitForUnmountDuration ran out', 'out-of-service': 'forced: out-of-service taint' } as const;

/** Per pod that held an attachable volume at the fault: release, detach, Multi-Attach, attach to the replacement's node. */
export const volumesMeasurement: Measurement = {
  name: 'volumes',
  describes: 'attachable volumes: each VolumeAttachment\'s attach and detach; per pod the release, the detach wait and whether it was forced, the Multi-Attach error on the replacement and the attach to its node (VolumeAttachment, PersistentVolume, Node, Pod and FailedAttachVolume Event records)',
  needs: ['pods'],
  provides: ['volumes'],
  measure: ({ observations, ctx }, earlier) => ({ volumes: buildVolumeAnalysis(observations, ctx.faultMs, part(earlier, 'pods')) ?? undefined }),
  tables: (v) =>
    v.volumes && v.volumes.pods.length > 0
      ? [{
          name: 'volumes',
          title: 'Attachable volumes (attach/detach controller)',
          note: 'From the VolumeAttachments: "released" is when the old pod left the controller\'s desired state (Failed or deleted), "detach" when its node\'s VolumeAttachment got a deletionTimestamp, "detached" when it was gone.',
          headers: ['Pod', 'Volume', 'Node', 'Released', 'Detach', 'Waited', 'Why', 'Detached', 'Replacement', 'Multi-Attach error', 'Attached there', 'Replacement Ready'],
          rows: v.volumes.pods.map((p) => [
            p.pod, p.volume, p.node ?? '—', { seconds: p.releasedAfterSeconds }, { seconds: p.detachStartedAfterSeconds },
            p.detachWaitSeconds === null ? '—' : `${p.detachWaitSeconds} s`,
            p.detachStartedAfterSeconds === null ? '—' : p.forcedDetach ? forcedText[p.forcedDetach] : 'unmounted',
            { seconds: p.detachedAfterSeconds },
            p.replacement ? `${p.replacement.pod} on ${p.replacement.node ?? '(not scheduled)'}` : '—',
            p.replacement?.multiAttach ? `${p.replacement.multiAttach.firstAfterSeconds} s (×${p.replacement.multiAttach.count})` : '—',
            { seconds: p.replacement?.attachedAfterSeconds ?? null }, { seconds: p.replacement?.readyAfterSeconds ?? null },
          ]),
        }]
      : [],
};
