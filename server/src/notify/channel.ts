import type { ChannelConfig, ChannelKind, EmailService } from '@sitewatch/contract/notify';
import { guardedRequest, OutboundRefused } from './outbound.ts';

/** One notice as every channel receives it (rendered from notice_tpl / recover_tpl). */
export interface NoticeMessage {
  subject: string;
  text: string;
  /** Structured fields for channels that carry JSON (webhook). */
  fields: Record<string, string | number | null>;
}

/** Where a notice goes: an address (e-mail, phone number) or the channel's own URL (robots). */
export interface Destination {
  /** E-mail address or phone number; '' for robots and webhooks. */
  address: string;
  name: string;
}

/** Settings a channel sends with: a /alarm_push channel's config, or the mail service. */
export type ChannelSettings =
  | { kind: Exclude<ChannelKind, 'email'>; config: ChannelConfig }
  | { kind: 'email'; config: EmailService };

/**
 * A notification channel (e-mail, webhook, DingTalk, WeCom, Feishu, SMS, voice): one send, which
 * resolves with a short detail on success and throws on failure. Retries, logging and the flood
 * limiter are the notifier's; every channel passes server/test/conformance/channel.suite.ts.
 */
export interface Channel {
  kind: ChannelKind;
  send(settings: ChannelSettings, message: NoticeMessage, to: Destination): Promise<string>;
}

/** Raised for an answer that says the message was refused (robot error codes, HTTP errors). */
export class ChannelError extends Error {}

/**
 * POSTs or GETs with a timeout through the outbound guard and returns the answer's text; non-2xx
 * throws with the status only: the remote body never reaches an API answer or log (finding 8).
 */
export const httpCall = async (
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; timeoutMs: number },
): Promise<{ status: number; text: string }> => {
  let res: { status: number; text: string };
  try {
    res = await guardedRequest(url, {
      method: init.method ?? 'POST',
      headers: init.body !== undefined ? { 'content-type': 'application/json', ...init.headers } : (init.headers ?? {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
      timeoutMs: init.timeoutMs,
    });
  } catch (err) {
    // A short class only: the socket error's text would map the internal network.
    if (err instanceof OutboundRefused) throw new ChannelError('destination not allowed');
    throw new ChannelError(err instanceof Error && err.message === 'timeout' ? 'timeout' : 'connection failed');
  }
  if (res.status < 200 || res.status >= 300) throw new ChannelError(`HTTP ${res.status}`);
  return res;
};

/** A channel's JSON answer as an object (none when it is not one). */
export { readJsonObject as parseJsonObject } from '../db/json.ts';
