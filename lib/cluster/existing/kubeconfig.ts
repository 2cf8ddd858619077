// The one-context kubeconfig file of an existing cluster: the user's file is read, never written, and its
// current context never used; rebootlab works through a copy that holds only the experiment's context.
import { KubeConfig } from '@kubernetes/client-node';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheDir } from '../../common/cache.js';
import { InputError } from '../../common/errors.js';
import type { ExistingClusterRef } from '../../spec/types.js';

/**
 * Writes `<cache>/existing/<context>-<hash>.kubeconfig` (mode 0600) holding only `ref.context` of `ref.kubeconfig`
 * with its cluster and user (relative certificate paths made absolute by client-node; exec credential plugins
 * such as gke-gcloud-auth-plugin kept as they are) and that context current. Resolves to its path.
 * @throws InputError (one line) when the file cannot be read or has no such context, listing the contexts it has.
 */
export function writeContextKubeconfig(ref: ExistingClusterRef, env: NodeJS.ProcessEnv = process.env): string {
  const source = new KubeConfig();
  try {
    source.loadFromFile(ref.kubeconfig);
  } catch (error) {
    throw new InputError(`cluster.kubeconfig: cannot read ${ref.kubeconfig}: ${((error as Error).message ?? String(error)).split('\n')[0]}`, undefined, { cause: error });
  }
  const context = source.getContextObject(ref.context);
  if (!context) {
    const names = source.getContexts().map((c) => c.name);
    throw new InputError(`cluster.context: no context "${ref.context}" in ${ref.kubeconfig}; it has ${names.length > 0 ? names.join(', ') : 'none'}`);
  }
  const cluster = source.getCluster(context.cluster);
  const user = source.getUser(context.user);
  if (!cluster) throw new InputError(`cluster.context: context "${ref.context}" in ${ref.kubeconfig} names cluster "${context.cluster}", which the file does not define`);
  const copy = new KubeConfig();
  copy.loadFromOptions({ clusters: [cluster], users: user ? [user] : [], contexts: [context], currentContext: context.name });
  const file = contextKubeconfigPath(ref, env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, copy.exportConfig(), { mode: 0o600 });
  return file;
}

/** Where {@link writeContextKubeconfig} writes the copy of `ref`: `<cache>/existing/<context>-<hash>.kubeconfig`. Touches nothing. */
export function contextKubeconfigPath(ref: ExistingClusterRef, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256').update(`${ref.kubeconfig}\0${ref.context}`).digest('hex').slice(0, 12);
  return join(cacheDir(env), 'existing', `${ref.context.replace(/[^A-Za-z0-9_.-]/g, '_')}-${hash}.kubeconfig`);
}
