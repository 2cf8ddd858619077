// Starts the kwok tier's processes in order (etcd → kube-apiserver → kube-controller-manager,
// kube-scheduler, kwok → watchdog) on loopback ports and waits until each answers.
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { InfraError } from '../../common/errors.js';
import type { ClusterSpec } from '../../spec/types.js';
import type { Status } from '../provider.js';
import { writeKubeconfig } from './certs.js';
import { apiServerArgs, controllerManagerArgs, etcdArgs, kwokArgs, schedulerArgs, type ClusterPorts, type ScaleOptions } from './flags.js';
import type { ClusterFiles, KwokBinaries } from './paths.js';
import { isAlive, logTail, startProcess, writeProcessTable, type ProcessRecord, type ProcessTable } from './processes.js';
import { WATCHDOG_SCRIPT } from './watchdog.js';

/** A free TCP port on 127.0.0.1, chosen by the kernel (port 0) and released at once. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** GET `url` once; resolves to the HTTP status, or 0 when the connection fails. */
function probe(url: string, tls?: { ca: Buffer; cert: Buffer; key: Buffer }): Promise<number> {
  return new Promise((resolve) => {
    const req = (tls ? httpsRequest : httpRequest)(url, { ...(tls ?? {}), timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * Polls `check` every 200 ms until it resolves true, failing fast when `record`'s process exits.
 * @throws InfraError naming the component, with the tail of its log, after `timeoutMs` milliseconds or on exit.
 */
async function waitFor(what: string, record: ProcessRecord, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isAlive(record)) {
      throw new InfraError(`${what} exited during startup: ${await logTail(record.log, 1)}`, `See ${record.log}`);
    }
    if (await check()) return;
    if (Date.now() > deadline) throw new InfraError(`${what} not ready after ${timeoutMs} ms`, `See ${record.log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Options of {@link startControlPlane}. */
export interface StartOptions {
  spec: ClusterSpec;
  files: ClusterFiles;
  binaries: KwokBinaries;
  scale: ScaleOptions;
  status: Status;
  /** Give up on one component after this many milliseconds. */
  componentTimeoutMs: number;
  /** Called after each start with the table so far, so a failure halfway can still be cleaned up. */
  onStarted(table: ProcessTable): Promise<void>;
}

/**
 * Starts every process of a kwok cluster whose PKI and kwok config are already written, writes the
 * kubeconfig and pids.json, and resolves once the API server is ready (`/readyz` 200) and kwok runs.
 * The controller manager and scheduler are checked to be running; readiness of their work is checked
 * by the caller through the API (default ServiceAccount, Ready nodes).
 * @throws InfraError naming the component that failed, with its log tail; started processes are in pids.json.
 */
export async function startControlPlane(o: StartOptions): Promise<{ ports: ClusterPorts; table: ProcessTable }> {
  const { files, binaries, spec } = o;
  const ports: ClusterPorts = { etcdClient: await freePort(), etcdPeer: await freePort(), apiServer: await freePort() };
  const table: ProcessTable = {};
  const start = async (name: string, binary: string, args: string[], env?: NodeJS.ProcessEnv) => {
    const record = startProcess(name, binary, args, files.logsDir, env);
    table[name] = record;
    await writeProcessTable(files.pidsFile, table);
    await o.onStarted(table);
    return record;
  };

  o.status.step(`kwok cluster ${spec.name}: starting etcd on 127.0.0.1:${ports.etcdClient}`);
  const etcd = await start('etcd', binaries.etcd, etcdArgs(files, ports));
  await waitFor('etcd', etcd, o.componentTimeoutMs, async () => (await probe(`http://127.0.0.1:${ports.etcdClient}/health`)) === 200);

  o.status.step(`kwok cluster ${spec.name}: starting kube-apiserver on https://127.0.0.1:${ports.apiServer}`);
  await writeKubeconfig(files, spec.name, ports.apiServer);
  const apiServer = await start('kube-apiserver', binaries.kubeApiServer, apiServerArgs(spec, files, ports, o.scale));
  const tls = { ca: await readFile(files.caCert), cert: await readFile(files.adminCert), key: await readFile(files.adminKey) };
  await waitFor('kube-apiserver', apiServer, o.componentTimeoutMs, async () => (await probe(`https://127.0.0.1:${ports.apiServer}/readyz`, tls)) === 200);

  o.status.step(`kwok cluster ${spec.name}: starting kube-controller-manager, kube-scheduler and kwok`);
  await start('kube-controller-manager', binaries.kubeControllerManager, controllerManagerArgs(spec, files, o.scale));
  await start('kube-scheduler', binaries.kubeScheduler, schedulerArgs(spec, files, o.scale));
  await start('kwok', binaries.kwok, kwokArgs(spec, files), { ...process.env, KWOK_WORKDIR: files.kwokWorkDir });
  await start('watchdog', process.execPath, [WATCHDOG_SCRIPT, files.dir]);
  return { ports, table };
}
