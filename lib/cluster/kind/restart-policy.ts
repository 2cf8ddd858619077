// Docker restart policies of kind node containers: the one the shutdown action turns off while a node is powered off
// (lib/cluster/kind/actions.ts) and the undo that puts it back, which pending-restore.json may replay
// (lib/faults/restore-commands.ts accepts exactly the values below, nothing else).

/**
 * The `docker update --restart=<value>` values rebootlab puts back, in Docker's own spelling: `no`, `always`,
 * `unless-stopped`, `on-failure`, or `on-failure:N` with N a retry count from 1 to 999 without leading zeros (kind
 * creates its nodes with `on-failure:1`). Anchored: nothing may precede or follow the value.
 */
export const RESTART_POLICY = /^(no|always|unless-stopped|on-failure(:[1-9][0-9]{0,2})?)$/;

/** The Go template of `docker inspect` that prints a container's restart policy as `<Name> <MaximumRetryCount>`. */
export const RESTART_POLICY_FORMAT = '{{.HostConfig.RestartPolicy.Name}} {{.HostConfig.RestartPolicy.MaximumRetryCount}}';

/**
 * The restart policy Docker reported for a container (`name` and `maximumRetryCount` as `docker inspect` prints
 * {@link RESTART_POLICY_FORMAT}'s two fields, e.g. `on-failure` and `1`), as the value of `docker update --restart=`:
 * `on-failure:N` when the retry count N is not 0, the bare name otherwise. Resolves to
 * - `{ policy: null }` when there is no policy to turn off: `no`, or empty (what older Docker prints for none);
 * - `{ policy }` with a value matching {@link RESTART_POLICY};
 * - `{ error }` (one line) for anything else: an unknown name, a count that is not a decimal number, or
 *   `on-failure` with more than 999 retries, a value a restore command could not carry.
 * Never throws.
 */
export function restartPolicyValue(name: string, maximumRetryCount: string): { policy: string | null } | { error: string } {
  if (name === '' || name === 'no') return { policy: null };
  const unknown = { error: `Docker restart policy "${name}" (MaximumRetryCount "${maximumRetryCount}") is not one rebootlab can put back (no, always, unless-stopped, on-failure[:1-999])` };
  if (!/^(0|[1-9][0-9]*)$/.test(maximumRetryCount)) return unknown;
  const policy = name === 'on-failure' && maximumRetryCount !== '0' ? `${name}:${maximumRetryCount}` : name;
  return RESTART_POLICY.test(policy) ? { policy } : unknown;
}

/**
 * The argv that sets container `container`'s restart policy to `policy` (a {@link RESTART_POLICY} value):
 * `docker update --restart=<policy> <container>`, the policy and the flag one word as Docker's CLI accepts it.
 */
export function restartPolicyCommand(container: string, policy: string): string[] {
  return ['docker', 'update', `--restart=${policy}`, container];
}
