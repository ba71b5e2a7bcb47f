import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPushClient } from './push.ts';

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
}

const start = () => {
  FakeSocket.all = [];
  const client = createPushClient({
    createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    url: () => 'ws://host/api/v1/ws',
    token: () => 'tok',
    setInterval,
    clearInterval,
    setTimeout,
    clearTimeout,
  });
  client.start();
  return client;
};

describe('push client (000 §8, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('authenticates first, pings every 30 s and delivers messages', () => {
    const client = start();
    const seen: string[] = [];
    client.subscribe((m) => seen.push(m.type));
    const ws = FakeSocket.all[0]!;
    ws.open();
    expect(JSON.parse(ws.sent[0]!)).toEqual({ type: 'auth', token: 'tok' });
    ws.onmessage?.({ data: JSON.stringify({ type: 'ready', user_id: 1 }) });
    vi.advanceTimersByTime(30_000);
    expect(JSON.parse(ws.sent[1]!)).toEqual({ type: 'ping' });
    expect(seen).toEqual(['ready']);
    client.stop();
  });

  it('says which sites it watches once ready and again after every reconnect, and tells when it is ready', () => {
    const client = start();
    const states: boolean[] = [];
    client.onState((ready) => states.push(ready));
    client.watch([3, 5]);
    const ws = FakeSocket.all[0]!;
    ws.open();
    expect(ws.sent.map((t) => JSON.parse(t).type)).toEqual(['auth']);
    ws.onmessage?.({ data: JSON.stringify({ type: 'ready', user_id: 1 }) });
    expect(JSON.parse(ws.sent[1]!)).toEqual({ type: 'watch', site_ids: [3, 5] });
    expect(client.ready()).toBe(true);
    client.watch(null);
    expect(JSON.parse(ws.sent[2]!)).toEqual({ type: 'watch', site_ids: null });
    ws.onclose?.();
    expect(client.ready()).toBe(false);
    vi.advanceTimersByTime(2_000);
    const again = FakeSocket.all[1]!;
    again.open();
    again.onmessage?.({ data: JSON.stringify({ type: 'ready', user_id: 1 }) });
    expect(JSON.parse(again.sent[1]!)).toEqual({ type: 'watch', site_ids: null });
    expect(states).toEqual([true, false, true]);
    client.stop();
  });

  it('reconnects 2 s after a close and 1 s after an error', () => {
    const client = start();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.onclose?.();
    vi.advanceTimersByTime(1_999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.onerror?.();
    FakeSocket.all[1]!.onclose?.();
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.all).toHaveLength(3);
    client.stop();
  });

  it('gives up after 100 tries in a row', () => {
    const client = start();
    for (let i = 0; i < 150; i++) {
      const last = FakeSocket.all.at(-1)!;
      last.onerror?.();
      vi.advanceTimersByTime(5_000);
    }
    expect(FakeSocket.all).toHaveLength(100);
    client.stop();
  });
});
