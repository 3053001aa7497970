import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REGION } from './template.ts';

/** The host of Cognito's token issuer, where aws-jwt-verify fetches a pool's keys (not an SDK call: no AWS_ENDPOINT_URL). */
export const ISSUER_HOST = `cognito-idp.${REGION}.amazonaws.com`;

export interface CognitoIssuer {
  /** Pool ids whose keys the issuer serves (moto's pools, once the harness created them). */
  pools: Set<string>;
  /** Every key-set request the functions made, by path: proof that tokens were checked against the pool's keys. */
  requests: string[];
  /** The node option that is this piece of the harness's network: connections to the issuer's host reach this server. */
  nodeArgs: string[];
  /** A file for NODE_EXTRA_CA_CERTS (one file, several certificates): the issuer's test certificate after `others`. */
  trustedWith(...others: string[]): string;
  close(): Promise<void>;
}

/**
 * Cognito's issuer host for the functions, serving `/<poolId>/.well-known/jwks.json` from moto (which signs the
 * tokens it issues with that key set, `iss` being https://cognito-idp.<region>.amazonaws.com/<poolId>). The verifier
 * runs unchanged: https, the real issuer URL, TLS checked against a certificate for that name that the function
 * trusts through NODE_EXTRA_CA_CERTS. A preload (`node --import`, given to the runtime process like the merchant
 * receiver's) routes connections to that host to this server on loopback; nothing else is touched.
 */
export async function startCognitoIssuer(motoEndpoint: string): Promise<CognitoIssuer> {
  const dir = mkdtempSync(join(tmpdir(), 'aws-harness-cognito-'));
  chmodSync(dir, 0o755);
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${ISSUER_HOST}`, '-addext', `subjectAltName=DNS:${ISSUER_HOST}`], { stdio: 'ignore' });
  chmodSync(cert, 0o644);
  const pools = new Set<string>();
  const requests: string[] = [];
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const path = new URL(req.url ?? '/', `https://${ISSUER_HOST}`).pathname;
    requests.push(path);
    const poolId = /^\/([^/]+)\/\.well-known\/jwks\.json$/.exec(path)?.[1];
    if (req.method !== 'GET' || !poolId || !pools.has(poolId)) return void res.writeHead(404).end();
    // moto serves the key set on any path of its server; the Authorization header tells it the service.
    fetch(`${motoEndpoint}/${poolId}/.well-known/jwks.json`, { headers: { Authorization: `AWS4-HMAC-SHA256 Credential=harness/20260101/${REGION}/cognito-idp/aws4_request, SignedHeaders=host, Signature=0` } })
      .then(async (answer) => res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(await answer.text()))
      .catch((error) => res.writeHead(502).end(String(error)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const preload = join(dir, 'issuer-network.mjs');
  writeFileSync(preload, issuerPreload(port));
  chmodSync(preload, 0o644);
  return {
    pools,
    requests,
    nodeArgs: [`--import=${preload}`],
    trustedWith: (...others) => {
      const bundle = join(dir, 'trusted.pem');
      writeFileSync(bundle, [...others, cert].map((file) => readFileSync(file, 'utf8').trim()).join('\n') + '\n');
      chmodSync(bundle, 0o644);
      return bundle;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Connections to the issuer's host go to the local port; TLS still checks the certificate against the host's name. */
function issuerPreload(port: number): string {
  return `
import net from 'node:net';
const HOST = ${JSON.stringify(ISSUER_HOST)};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = args[0];
  if (options && typeof options === 'object' && !Array.isArray(options) && options.host === HOST) args[0] = { ...options, host: '127.0.0.1', port: ${port} };
  return connect.apply(this, args);
};
`;
}
