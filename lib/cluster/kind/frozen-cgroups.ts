// A kind node that Docker cannot stop: a process inside it sits in a frozen cgroup below the node's own (seen here
// twice on a cgroup v1 host: a `runc init` of a pod container created just after the node was started again, its
// cgroup FROZEN, as runc leaves it when it is interrupted inside the window where it freezes a container's cgroup to
// rewrite its device rules). A frozen task cannot act on SIGKILL, so `docker kill`/`docker rm -f` of the node waits
// forever ("did not receive an exit event"). Thawing the nested cgroups lets it die. The node's own top cgroup is
// left alone: frozen there means `docker pause` (the freeze fault), undone by unpause.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { docker, KIND_CLUSTER_LABEL } from './docker.js';

/** Where cgroups are mounted on the Docker host. */
const CGROUP_ROOT = '/sys/fs/cgroup';

/**
 * The node's cgroup directories on the host from the `/proc/<pid>/cgroup` lines of its init process: the cgroup v1
 * freezer hierarchy (`N:freezer:/docker/<id>` → /sys/fs/cgroup/freezer/docker/<id>) and the cgroup v2 unified one
 * (`0::/system.slice/docker-<id>.scope` → /sys/fs/cgroup/system.slice/docker-<id>.scope). Pure.
 * @param procCgroup the text of /proc/<pid>/cgroup, read from the host (its paths are the host's).
 * @returns the directories with the file that freezes each: `freezer.state` (v1) or `cgroup.freeze` (v2).
 */
export function nodeCgroupDirs(procCgroup: string, root = CGROUP_ROOT): { dir: string; file: 'freezer.state' | 'cgroup.freeze' }[] {
  const dirs: { dir: string; file: 'freezer.state' | 'cgroup.freeze' }[] = [];
  for (const line of procCgroup.split('\n')) {
    const m = /^\d+:([^:]*):(\/.*)$/.exec(line.trim());
    if (!m) continue;
    const [, controllers, path] = m;
    if (controllers!.split(',').includes('freezer')) dirs.push({ dir: join(root, 'freezer', path!), file: 'freezer.state' });
    else if (controllers === '') dirs.push({ dir: join(root, path!), file: 'cgroup.freeze' });
  }
  return dirs;
}

/** Whether a freezer file's content says frozen (v1 `FROZEN`/`FREEZING`, v2 `1`). */
export function isFrozen(file: 'freezer.state' | 'cgroup.freeze', content: string): boolean {
  const value = content.trim();
  return file === 'freezer.state' ? value === 'FROZEN' || value === 'FREEZING' : value === '1';
}

/** Every cgroup directory strictly below `dir`, depth first. Unreadable directories are skipped. */
async function descendants(dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const child = join(dir, e.name);
    found.push(child, ...(await descendants(child)));
  }
  return found;
}

/**
 * Thaws every frozen cgroup below the cgroup of the process `pid` (a kind node's init, `docker inspect
 * .State.Pid`), leaving its own cgroup as it is. Best effort: a host whose cgroups this process cannot read or write
 * (not root) thaws nothing.
 * @returns the cgroup directories thawed (empty when none was frozen or none could be written).
 */
export async function thawNestedFrozenCgroups(pid: number, root = CGROUP_ROOT, procRoot = '/proc'): Promise<string[]> {
  if (!Number.isInteger(pid) || pid <= 0) return [];
  const procCgroup = await readFile(join(procRoot, String(pid), 'cgroup'), 'utf8').catch(() => '');
  const thawed: string[] = [];
  for (const { dir, file } of nodeCgroupDirs(procCgroup, root)) {
    for (const child of await descendants(dir)) {
      const state = await readFile(join(child, file), 'utf8').catch(() => null);
      if (state === null || !isFrozen(file, state)) continue;
      const ok = await writeFile(join(child, file), file === 'freezer.state' ? 'THAWED' : '0').then(() => true, () => false);
      if (ok) thawed.push(child);
    }
  }
  return thawed;
}

/**
 * Thaws the nested frozen cgroups of every node container of kind cluster `cluster` (see
 * {@link thawNestedFrozenCgroups}); nodes not running are skipped.
 * @returns the cgroup directories thawed.
 * @throws InfraError when Docker fails.
 */
export async function thawClusterNodes(cluster: string): Promise<string[]> {
  const ids = (await docker(['ps', '-q', '--no-trunc', '--filter', `label=${KIND_CLUSTER_LABEL}=${cluster}`])).split('\n').map((l) => l.trim()).filter(Boolean);
  if (ids.length === 0) return [];
  const pids = (await docker(['inspect', '--format', '{{.State.Pid}}', ...ids])).split('\n').map((l) => Number(l.trim())).filter((p) => p > 0);
  const thawed: string[] = [];
  for (const pid of pids) thawed.push(...(await thawNestedFrozenCgroups(pid)));
  return thawed;
}
