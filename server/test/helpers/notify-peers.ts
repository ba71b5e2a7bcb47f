import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface HttpPeer {
  url: string;
  /** Requests whose signature verified, by path: the raw body (or query for GET). */
  accepted: { path: string; body: string }[];
  /** Requests refused (bad signature), by path. */
  refused: { path: string; reason: string }[];
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const percent = (s: string) =>
  encodeURIComponent(s)
    .replace(/\+/g, '%20')
    .replace(/\*/g, '%2A')
    .replace(/%7E/g, '~')
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * One local HTTP peer that plays every robot and gateway, verifying each one's signature the way
 * the real service documents it (written here independently of the channel code):
 * - /webhook: HMAC-SHA256 hex of `${x-sitewatch-timestamp}.${body}` in x-sitewatch-signature
 * - /dingtalk: sign = base64(HMAC-SHA256(secret, `${timestamp}\n${secret}`)), timestamp in ms, within 1 h
 * - /wecom: the key in the URL must match
 * - /feishu: sign = base64(HMAC-SHA256 keyed by `${timestamp}\n${secret}`, empty message)
 * - /sms: Aliyun RPC signature over the sorted query (HMAC-SHA1, secret + '&')
 * - /fail: HTTP 500 always; /slow: never answers
 */
export const startHttpPeer = async (secret: string, wecomKey: string): Promise<HttpPeer> => {
  const accepted: HttpPeer['accepted'] = [];
  const refused: HttpPeer['refused'] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readBody(req);
    const json = (code: number, value: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const refuse = (reason: string, value: unknown) => {
      refused.push({ path: url.pathname, reason });
      json(200, value);
    };
    switch (url.pathname) {
      case '/webhook': {
        const ts = String(req.headers['x-sitewatch-timestamp'] ?? '');
        const want = `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
        if (req.headers['x-sitewatch-signature'] !== want) {
          refused.push({ path: url.pathname, reason: 'signature' });
          res.writeHead(401);
          res.end('bad signature');
          return;
        }
        accepted.push({ path: url.pathname, body });
        return json(200, { ok: true });
      }
      case '/dingtalk': {
        const ts = url.searchParams.get('timestamp') ?? '';
        const sign = url.searchParams.get('sign') ?? '';
        const want = createHmac('sha256', secret).update(`${ts}\n${secret}`).digest('base64');
        if (sign !== want || Math.abs(Date.now() - Number(ts)) > 3_600_000) {
          return refuse('signature', { errcode: 310000, errmsg: 'sign not match' });
        }
        accepted.push({ path: url.pathname, body });
        return json(200, { errcode: 0, errmsg: 'ok' });
      }
      case '/wecom': {
        if (url.searchParams.get('key') !== wecomKey)
          return refuse('key', { errcode: 93000, errmsg: 'invalid webhook url' });
        accepted.push({ path: url.pathname, body });
        return json(200, { errcode: 0, errmsg: 'ok' });
      }
      case '/feishu': {
        const b = JSON.parse(body || '{}') as { timestamp?: string; sign?: string };
        const want = createHmac('sha256', `${b.timestamp}\n${secret}`).update('').digest('base64');
        if (b.sign !== want)
          return refuse('signature', {
            code: 19021,
            msg: 'sign match fail or timestamp is not within one hour from current time',
          });
        accepted.push({ path: url.pathname, body });
        return json(200, { code: 0, msg: 'success' });
      }
      case '/sms': {
        const params = Object.fromEntries(url.searchParams.entries());
        const { Signature, ...rest } = params;
        const canonical = Object.keys(rest)
          .sort()
          .map((k) => `${percent(k)}=${percent(rest[k] ?? '')}`)
          .join('&');
        const want = createHmac('sha1', `${secret}&`)
          .update(`GET&${percent('/')}&${percent(canonical)}`)
          .digest('base64');
        if (Signature !== want) return refuse('signature', { Code: 'SignatureDoesNotMatch', Message: 'bad signature' });
        accepted.push({ path: url.pathname, body: JSON.stringify(rest) });
        return json(200, { Code: 'OK', BizId: '900619746936498440^0', Message: 'OK' });
      }
      case '/fail':
        refused.push({ path: url.pathname, reason: 'fail' });
        res.writeHead(500);
        res.end('down');
        return;
      case '/slow':
        return; // never answers
      default:
        res.writeHead(404);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export interface SmtpPeer {
  port: number;
  messages: { from: string; to: string[]; data: string }[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback (smtp-server) with a user and password; mails are kept in memory. */
export const startSmtpPeer = async (user: string, pass: string): Promise<SmtpPeer> => {
  const messages: SmtpPeer['messages'] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) cb(null, { user });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};
