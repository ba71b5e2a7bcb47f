import { Agent } from 'node:https';
import * as acme from 'acme-client';

/** The HTTP-01 answers of this server's own orders in flight: token → key authorization. */
export interface ChallengeStore {
  answer(token: string): string | undefined;
}

export interface AcmeOrder {
  directoryUrl: string;
  /** PEM of the CA signing the directory's HTTPS (a private ACME CA), or ''. */
  directoryCa: string;
  email: string;
  domain: string;
  /** The account key (PEM); '' makes one, returned for the caller to keep sealed. */
  accountKey: string;
}

export interface AcmeResult {
  cert: string;
  key: string;
  accountKey: string;
}

/**
 * Issues a certificate for one domain through acme-client (RFC 8555) with the HTTP-01 challenge,
 * answered by this server at /.well-known/acme-challenge/ (the routes read `challenges`). acme-client
 * retries a rejected nonce (badNonce) itself, up to 5 times per request.
 */
export const createAcmeIssuer = () => {
  const tokens = new Map<string, string>();
  const challenges: ChallengeStore = { answer: (token) => tokens.get(token) };
  // acme-client talks through one axios instance of its own: a private CA's certificate is set on it
  // for the run (runs are one at a time: the service queues them).
  const issue = async (order: AcmeOrder): Promise<AcmeResult> => {
    acme.axios.defaults.httpsAgent = order.directoryCa ? new Agent({ ca: order.directoryCa }) : undefined;
    const accountKey = order.accountKey || (await acme.crypto.createPrivateEcdsaKey()).toString();
    const client = new acme.Client({
      directoryUrl: order.directoryUrl,
      accountKey,
      backoffAttempts: 10,
      backoffMin: 1000,
      backoffMax: 10_000,
    });
    const [key, csr] = await acme.crypto.createCsr({ commonName: order.domain, altNames: [order.domain] });
    const cert = await client.auto({
      csr,
      ...(order.email ? { email: order.email } : {}),
      termsOfServiceAgreed: true,
      challengePriority: ['http-01'],
      // The CA checks from outside; acme-client's own pre-check would ask port 80 of the domain from here.
      skipChallengeVerification: true,
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        if (challenge.type !== 'http-01') throw new Error(`unsupported challenge ${challenge.type}`);
        tokens.set(challenge.token, keyAuthorization);
      },
      challengeRemoveFn: async (_authz, challenge) => {
        tokens.delete(challenge.token);
      },
    });
    return { cert, key: key.toString(), accountKey };
  };
  return { issue, challenges };
};

export type AcmeIssuer = ReturnType<typeof createAcmeIssuer>;
