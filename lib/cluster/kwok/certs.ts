// Certificates and the kubeconfig of a kwok cluster, made locally with the openssl CLI.
// Why openssl and not node:crypto: Node can generate keys but has no API to issue X.509 certificates
// (X509Certificate only parses), and hand-written DER would be more code than this whole tier.
// openssl is in every Debian/Ubuntu base image (`apt-get install openssl` otherwise).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { run } from '../../common/exec.js';
import type { ClusterFiles } from './paths.js';

const OPENSSL_HINT = 'Install openssl (apt-get install -y openssl)';
/** Ten years, in days: a throwaway cluster must not expire mid-run; nothing leaves this machine. */
const VALIDITY_DAYS = '3650';
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(args: string[]): Promise<string> {
  return run('openssl', args, { timeoutMs: 30_000, hint: OPENSSL_HINT });
}

/** A leaf certificate signed by the cluster CA (openssl ≥ 3.0 `req -x509 -CA`). */
function issueLeaf(files: ClusterFiles, keyOut: string, certOut: string, subject: string, extensions: string[]): Promise<string> {
  return openssl([
    'req', '-x509', '-CA', files.caCert, '-CAkey', files.caKey, ...EC_KEY,
    '-keyout', keyOut, '-out', certOut, '-days', VALIDITY_DAYS, '-subj', subject,
    '-addext', 'basicConstraints=critical,CA:FALSE', '-addext', 'keyUsage=critical,digitalSignature,keyEncipherment',
    ...extensions.flatMap((e) => ['-addext', e]),
  ]);
}

/**
 * Writes a CA, the API server's serving certificate (SANs 127.0.0.1, localhost and the in-cluster names), an
 * admin client certificate (CN rebootlab-admin, O system:masters) and the service-account signing key
 * (EC P-256) into `files.pkiDir`.
 * @throws CommandError (InfraError) when openssl is missing or fails.
 */
export async function writeClusterPki(files: ClusterFiles): Promise<void> {
  await mkdir(files.pkiDir, { recursive: true, mode: 0o700 });
  await openssl(['req', '-x509', ...EC_KEY, '-keyout', files.caKey, '-out', files.caCert, '-days', VALIDITY_DAYS, '-subj', '/CN=rebootlab-kwok-ca']);
  await Promise.all([
    issueLeaf(files, files.serverKey, files.serverCert, '/CN=kube-apiserver', [
      'subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc',
      'extendedKeyUsage=serverAuth',
    ]),
    issueLeaf(files, files.adminKey, files.adminCert, '/O=system:masters/CN=rebootlab-admin', ['extendedKeyUsage=clientAuth']),
    // SEC1 "EC PRIVATE KEY": kube-apiserver's --service-account-key-file does not read EC keys in PKCS#8.
    openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', files.serviceAccountKey]),
  ]);
}

/**
 * Writes `files.kubeconfig`: one cluster, user and context named after the cluster, the CA and admin
 * credentials embedded (base64), server `https://127.0.0.1:<apiServerPort>`. Mode 0600.
 * @throws Error when the PKI files cannot be read.
 */
export async function writeKubeconfig(files: ClusterFiles, name: string, apiServerPort: number): Promise<void> {
  const b64 = async (path: string) => (await readFile(path)).toString('base64');
  const [ca, cert, key] = await Promise.all([b64(files.caCert), b64(files.adminCert), b64(files.adminKey)]);
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: `https://127.0.0.1:${apiServerPort}`, 'certificate-authority-data': ca } }],
    users: [{ name: `${name}-admin`, user: { 'client-certificate-data': cert, 'client-key-data': key } }],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin` } }],
    'current-context': name,
  };
  await writeFile(files.kubeconfig, stringify(kubeconfig), { mode: 0o600 });
}

/** The API server port written in a cluster's kubeconfig. @throws Error when the file has no server URL. */
export async function readApiServerPort(files: ClusterFiles): Promise<number> {
  const m = /server:\s*https:\/\/127\.0\.0\.1:(\d+)/.exec(await readFile(files.kubeconfig, 'utf8'));
  if (!m) throw new Error(`${files.kubeconfig} has no https://127.0.0.1:<port> server`);
  return Number(m[1]);
}
