import type { ChannelKind } from '@sitewatch/contract/notify';
import type { Channel } from '../channel.ts';
import { dingtalkChannel } from './dingtalk.ts';
import { emailChannel } from './email.ts';
import { feishuChannel } from './feishu.ts';
import { smsChannel, voiceChannel } from './sms.ts';
import { webhookChannel } from './webhook.ts';
import { wecomChannel } from './wecom.ts';

export type ChannelRegistry = Record<ChannelKind, Channel>;

/** Every channel kind by name. */
export const createChannels = (): ChannelRegistry => ({
  email: emailChannel,
  webhook: webhookChannel,
  dingtalk: dingtalkChannel,
  wecom: wecomChannel,
  feishu: feishuChannel,
  sms: smsChannel,
  voice: voiceChannel,
});
