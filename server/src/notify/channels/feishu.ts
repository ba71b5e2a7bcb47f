import { createHmac } from 'node:crypto';
import { type Channel, ChannelError, httpCall, parseJsonObject } from '../channel.ts';

/** Feishu robot signature: base64(HMAC-SHA256 keyed by `${timestamp}\n${secret}` over an empty message). */
export const feishuSign = (secret: string, timestampSeconds: string): string =>
  createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');

/** Feishu (Lark) custom robot: text message; with a secret, `timestamp` and `sign` in the body. */
export const feishuChannel: Channel = {
  kind: 'feishu',
  async send(settings, message) {
    if (settings.kind !== 'feishu') throw new ChannelError('not a Feishu channel');
    const payload: Record<string, unknown> = {
      msg_type: 'text',
      content: { text: `${message.subject}\n${message.text}` },
    };
    if (settings.config.secret) {
      const ts = String(Math.floor(Date.now() / 1000));
      payload.timestamp = ts;
      payload.sign = feishuSign(settings.config.secret, ts);
    }
    const res = await httpCall(settings.config.url, {
      body: JSON.stringify(payload),
      timeoutMs: settings.config.timeout_ms,
    });
    const answer = parseJsonObject(res.text);
    const code = answer.code ?? answer.StatusCode;
    if (code !== 0) throw new ChannelError(`code ${String(code)}`);
    return 'code 0';
  },
};
