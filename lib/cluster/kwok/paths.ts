// Where a kwok cluster keeps its files, and where the toolchain's binaries are.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../common/errors.js';
import { cacheDir, readToolchainEnv } from '../../common/cache.js';
import { VERSIONS } from '../../common/versions.js';

/** What to run when a binary is missing. */
export const KWOK_TOOLCHAIN_HINT = 'Run: npm run toolchain (builds etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok)';

/** The files of one cluster, all under `dir` (`$REBOOTLAB_CACHE/kwok-clusters/<name>/` by default). */
export interface ClusterFiles {
  dir: string;
  pkiDir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
  serviceAccountKey: string;
  etcdDataDir: string;
  logsDir: string;
  /** JSON {@link import('./processes.js').ProcessTable}: pid and process group of every component. */
  pidsFile: string;
  /** Pid of the process whose exit tears the cluster down (see watchdog.ts); absent for a kept cluster. */
  ownerFile: string;
  /** The cluster's own kubeconfig (admin, system:masters); the user's ~/.kube/config is never touched. */
  kubeconfig: string;
  /** kwok's KwokConfiguration + Stage documents. */
  kwokConfig: string;
  /** The ClusterSpec the cluster was created from, JSON, so `attach` knows its settings. */
  specFile: string;
  /** kwok's work directory (KWOK_WORKDIR), so ~/.kwok/kwok.yaml is never read. */
  kwokWorkDir: string;
}

/** Default parent directory of kwok clusters: `$REBOOTLAB_CACHE/kwok-clusters`. */
export function defaultKwokClustersDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheDir(env), 'kwok-clusters');
}

/** The file layout of cluster `name` under `parent`. */
export function clusterFiles(parent: string, name: string): ClusterFiles {
  const dir = join(parent, name);
  const pki = join(dir, 'pki');
  return {
    dir,
    pkiDir: pki,
    caCert: join(pki, 'ca.crt'),
    caKey: join(pki, 'ca.key'),
    serverCert: join(pki, 'apiserver.crt'),
    serverKey: join(pki, 'apiserver.key'),
    adminCert: join(pki, 'admin.crt'),
    adminKey: join(pki, 'admin.key'),
    serviceAccountKey: join(pki, 'sa.key'),
    etcdDataDir: join(dir, 'etcd'),
    logsDir: join(dir, 'logs'),
    pidsFile: join(dir, 'pids.json'),
    ownerFile: join(dir, 'owner.pid'),
    kubeconfig: join(dir, 'kubeconfig'),
    kwokConfig: join(dir, 'kwok.yaml'),
    specFile: join(dir, 'cluster-spec.json'),
    kwokWorkDir: join(dir, 'kwok-workdir'),
  };
}

/** Absolute paths of the binaries the kwok tier runs. */
export interface KwokBinaries {
  etcd: string;
  kubeApiServer: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kwok: string;
}

/**
 * Finds the binaries: each of `REBOOTLAB_ETCD`, `REBOOTLAB_KUBERNETES_BIN` (a directory), `REBOOTLAB_KWOK` from
 * the environment, else from `$REBOOTLAB_CACHE/toolchain.env`, else the pinned cache paths
 * (`bin/etcd-<etcd>/etcd`, `bin/kubernetes-<kubernetes>/`, `bin/kwok-<kwok>/kwok`, versions from versions.json).
 * @throws InfraError naming every binary that does not exist, with {@link KWOK_TOOLCHAIN_HINT}.
 */
export function findKwokBinaries(env: NodeJS.ProcessEnv = process.env): KwokBinaries {
  const file = readToolchainEnv(env);
  const pick = (key: string, fallback: string) => env[key] || file[key] || fallback;
  const bin = join(cacheDir(env), 'bin');
  const kube = pick('REBOOTLAB_KUBERNETES_BIN', join(bin, `kubernetes-${VERSIONS.kubernetes}`));
  const binaries: KwokBinaries = {
    etcd: pick('REBOOTLAB_ETCD', join(bin, `etcd-${VERSIONS.etcd}`, 'etcd')),
    kubeApiServer: join(kube, 'kube-apiserver'),
    kubeControllerManager: join(kube, 'kube-controller-manager'),
    kubeScheduler: join(kube, 'kube-scheduler'),
    kwok: pick('REBOOTLAB_KWOK', join(bin, `kwok-${VERSIONS.kwok}`, 'kwok')),
  };
  const missing = Object.values(binaries).filter((p) => !existsSync(p));
  if (missing.length > 0) throw new InfraError(`kwok provider: missing ${missing.join(', ')}`, KWOK_TOOLCHAIN_HINT);
  return binaries;
}
