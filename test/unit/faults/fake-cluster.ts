// A Cluster double that logs every act and undo, for fault unit tests (no Docker).
import type { ActHooks, ActionRecord, Cluster, ClusterNode, EffectiveSettings, NodeAction, NodeActionArgs, Undo } from '../../../lib/cluster/provider.js';

/**
 * A fake cluster: `log` lists `act <action> <node>` / `undo <action> <node>` / `hook ...` in order. `label-node` and
 * `unlabel-node` record the label as absent before; `evict-pods` and `drain` report one pod evicted at once.
 */
export class FakeCluster implements Cluster {
  readonly name = 'fake';
  readonly provider = 'kind' as const;
  readonly kubeconfigPath = '/dev/null';
  readonly supportedActions: ReadonlySet<NodeAction> = new Set<NodeAction>(['pause', 'stop', 'restart', 'disconnect', 'stop-kubelet', 'delete-node-object', 'taint-out-of-service', 'force-delete-pods', 'cordon', 'label-node', 'unlabel-node', 'evict-pods', 'drain']);
  readonly log: string[] = [];
  /** `<action> <node>` pairs whose act (or undo, with prefix `undo `) throws. */
  readonly failing = new Set<string>();
  clockMs = 1_000;

  async nodes(): Promise<ClusterNode[]> {
    return [];
  }

  async effectiveSettings(): Promise<EffectiveSettings> {
    throw new Error('not used');
  }

  async act(node: string, action: NodeAction, hooks: ActHooks = {}, args: NodeActionArgs = {}): Promise<Undo> {
    const record: ActionRecord = {
      node, action, container: node, ipBefore: '172.18.0.3', ipAfter: null, ipAfterUndo: null,
      restoreCommands: [['docker', 'undo-' + action, node]], actedAtMs: null, undoneAtMs: null,
      ...(args.label ? { labelBefore: { key: args.label.key, value: null } } : {}),
    };
    let done = false;
    const undo = Object.assign(async () => {
      if (done) return;
      if (this.failing.has(`undo ${action} ${node}`)) throw new Error(`undo ${action} ${node} failed`);
      done = true;
      this.log.push(`undo ${action} ${node}`);
      record.undoneAtMs = this.clockMs;
    }, { record }) as Undo;
    await hooks.beforeAct?.(undo, record);
    if (this.failing.has(`${action} ${node}`)) throw new Error(`${action} ${node} failed`);
    this.log.push(`act ${action} ${node}`);
    record.actedAtMs = this.clockMs;
    if (args.pods) {
      hooks.onEviction?.({
        node, namespace: 'rebootlab', pod: 'web-0', uid: 'uid-web-0', outcome: 'evicted', attempts: 1, refusals: 0,
        firstAttemptAtMs: this.clockMs, lastAttemptAtMs: this.clockMs, message: null, final: true,
      });
    }
    hooks.afterAct?.(record);
    return undo;
  }
}
