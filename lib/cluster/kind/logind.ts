// systemd-logind for the kubelet's graceful node shutdown on kind nodes. The kubelet's shutdown manager
// (k8s.io/kubernetes pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go, v1.37.2, `managerImpl.start`) connects to
// logind on the system D-Bus once, when the kubelet starts with shutdownGracePeriod > 0: it sets logind's
// InhibitDelayMaxSec to the grace period (/etc/systemd/logind.conf.d/99-kubelet.conf), takes a delay inhibitor lock
// and acts on PrepareForShutdown. kind's node image installs dbus and systemd-logind but enables neither, so without
// them the manager fails to start ("Failed to start node shutdown manager", not fatal) and no shutdown is graceful.
// The node image is left as it is: a kubelet drop-in pulls both in before the kubelet (at every boot of the
// container, so a node started again after a fault has them too); they are started now and the kubelet restarted.
import type { ClusterSpec } from '../../spec/types.js';
import { docker, writeInNode } from './docker.js';

/** The kubelet unit's drop-in rebootlab writes on a kind node whose kubelet has a shutdownGracePeriod. */
export const KUBELET_LOGIND_DROPIN = '/etc/systemd/system/kubelet.service.d/20-rebootlab-logind.conf';

/** Its text: dbus and logind start with the kubelet, before it. */
export const KUBELET_LOGIND_DROPIN_TEXT = [
  '# rebootlab: the kubelet\'s graceful node shutdown needs systemd-logind on the system D-Bus when it starts',
  '[Unit]',
  'Wants=dbus.service systemd-logind.service',
  'After=dbus.service systemd-logind.service',
  '',
].join('\n');

/** Whether the kubelet of `spec` uses graceful node shutdown (shutdownGracePeriod > 0), so its nodes need logind. */
export function kubeletNeedsLogind(spec: Pick<ClusterSpec, 'settings'>): boolean {
  return spec.settings.kubelet.shutdownGracePeriodMs > 0;
}

/**
 * Makes dbus and systemd-logind run on node container `node`, before any later kubelet start: writes the drop-in (when
 * its text differs), reloads systemd, starts both. Does not restart the kubelet: the caller does.
 * @returns whether the drop-in was written now (false: it was in place already).
 * @throws InfraError (CommandError) when Docker or systemctl fails.
 */
export async function ensureLogind(node: string): Promise<boolean> {
  const current = await docker(['exec', node, 'cat', KUBELET_LOGIND_DROPIN]).catch(() => null);
  const written = current?.trim() !== KUBELET_LOGIND_DROPIN_TEXT.trim();
  if (written) {
    await writeInNode(node, KUBELET_LOGIND_DROPIN, KUBELET_LOGIND_DROPIN_TEXT);
    await docker(['exec', node, 'systemctl', 'daemon-reload']);
  }
  await docker(['exec', node, 'systemctl', 'start', 'dbus', 'systemd-logind']);
  return written;
}
