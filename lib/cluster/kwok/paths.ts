// Where a kwok cluster keeps its files, and where the toolchain's binaries are.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../common/errors.js';
import { cacheDir, readToolchainEnv } from '../../common/cache.js';
import { toolchainCommandFor, VERSIONS } from '../../common/versions.js';

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

/** The kwok binary: `REBOOTLAB_KWOK`, else `$REBOOTLAB_CACHE/bin/kwok-<pinned>/kwok` (versions.json `kwok`; one for every Kubernetes version). */
export function kwokBinary(env: NodeJS.ProcessEnv = process.env): string {
  return env['REBOOTLAB_KWOK'] || join(cacheDir(env), 'bin', `kwok-${VERSIONS.kwok}`, 'kwok');
}

/**
 * Finds the binaries of Kubernetes `kubernetesVersion`: each of `REBOOTLAB_ETCD`, `REBOOTLAB_KUBERNETES_BIN`
 * (a directory) from the environment (an override for every version), else from that version's toolchain file
 * (`$REBOOTLAB_CACHE/toolchain/<version>.env`), else `bin/kubernetes-<version>/`; etcd is the version that
 * Kubernetes version's kubeadm deploys, known only from the toolchain file. kwok: {@link kwokBinary}.
 * @throws InfraError naming every binary that does not exist, with the hint that builds this version
 *   (`Run: npm run toolchain -- --kubernetes <version>`).
 */
export function findKwokBinaries(kubernetesVersion: string, env: NodeJS.ProcessEnv = process.env): KwokBinaries {
  const file = readToolchainEnv(kubernetesVersion, env);
  const pick = (key: string, fallback: string) => env[key] || file[key] || fallback;
  const kube = pick('REBOOTLAB_KUBERNETES_BIN', join(cacheDir(env), 'bin', `kubernetes-${kubernetesVersion}`));
  const binaries: KwokBinaries = {
    etcd: pick('REBOOTLAB_ETCD', `etcd of Kubernetes ${kubernetesVersion}`),
    kubeApiServer: join(kube, 'kube-apiserver'),
    kubeControllerManager: join(kube, 'kube-controller-manager'),
    kubeScheduler: join(kube, 'kube-scheduler'),
    kwok: kwokBinary(env),
  };
  const missing = Object.values(binaries).filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new InfraError(`kwok provider: Kubernetes ${kubernetesVersion} is not built here (missing ${missing.join(', ')})`, `Run: ${toolchainCommandFor(kubernetesVersion)}`);
  }
  return binaries;
}
