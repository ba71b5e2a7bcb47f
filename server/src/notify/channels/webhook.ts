import { createHmac } from 'node:crypto';
import { type Channel, ChannelError, httpCall } from '../channel.ts';

/** HMAC-SHA256 of `${timestamp}.${body}` as hex, the webhook's signature (docs/alarms.md). */
export const webhookSignature = (secret: string, timestamp: string, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** Webhook: a JSON POST of the notice; signed with `x-sitewatch-signature` when a secret is set. */
export const webhookChannel: Channel = {
  kind: 'webhook',
  async send(settings, message) {
    if (settings.kind !== 'webhook') throw new ChannelError('not a webhook channel');
    const body = JSON.stringify({ subject: message.subject, text: message.text, ...message.fields });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers: Record<string, string> = { 'x-sitewatch-timestamp': timestamp };
    if (settings.config.secret) {
      headers['x-sitewatch-signature'] = `sha256=${webhookSignature(settings.config.secret, timestamp, body)}`;
    }
    const res = await httpCall(settings.config.url, { body, headers, timeoutMs: settings.config.timeout_ms });
    return `HTTP ${res.status}`;
  },
};
