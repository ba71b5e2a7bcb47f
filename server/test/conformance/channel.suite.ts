import { describe, expect, it } from 'vitest';
import type { Channel, ChannelSettings, Destination, NoticeMessage } from '../../src/notify/channel.ts';

/** What one channel's conformance run needs: settings that reach a live local peer, and its inbox. */
export interface ChannelHarness {
  channel: () => Channel;
  settings: () => ChannelSettings;
  to: () => Destination;
  /** Messages the peer accepted (with a verified signature), newest last, as text containing the notice. */
  received: () => Promise<string[]>;
  /** Settings whose peer refuses (wrong secret, error code, HTTP 500) — the send must throw. */
  refused: () => ChannelSettings;
  /** Settings of a peer that does not answer in time — the send must throw within the timeout. */
  silent?: () => ChannelSettings;
}

const message = (n: number): NoticeMessage => ({
  subject: `告警 ${n} 机房A UPS-1 温度`,
  text: `机房A / UPS-1 / 温度: 41.5℃ 超出上限 (#${n})`,
  fields: { site: '机房A', device: 'UPS-1', item: '温度', value: 41.5, unit: '℃', alarm_id: n },
});

/**
 * The conformance suite every notification channel passes (STYLE.md habit 5): a notice reaches a
 * real peer on loopback whose signature check passes, a refusing peer makes the send throw, and a
 * silent peer makes it throw within the timeout (the notifier then retries and logs).
 */
export const describeChannelConformance = (name: string, h: ChannelHarness) => {
  describe(`channel conformance: ${name}`, () => {
    it('delivers a notice the peer accepts, signature and all', async () => {
      const before = (await h.received()).length;
      const detail = await h.channel().send(h.settings(), message(1), h.to());
      expect(typeof detail).toBe('string');
      const got = await h.received();
      expect(got.length).toBe(before + 1);
      expect(got.at(-1)).toContain('UPS-1');
      expect(got.at(-1)).toContain('41.5');
    });

    it('throws when the peer refuses', async () => {
      const before = (await h.received()).length;
      await expect(h.channel().send(h.refused(), message(2), h.to())).rejects.toThrow();
      expect((await h.received()).length).toBe(before);
    });

    if (h.silent) {
      const silent = h.silent;
      it('throws within the timeout when the peer does not answer', async () => {
        const started = Date.now();
        await expect(h.channel().send(silent(), message(3), h.to())).rejects.toThrow();
        expect(Date.now() - started).toBeLessThan(5000);
      });
    }
  });
};
