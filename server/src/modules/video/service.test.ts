import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { createSecretBox } from '../../secrets/index.ts';
import { codecsOf, createBoxReader } from './boxes.ts';
import type { ProbeResult } from './ffmpeg.ts';
import { redacted, withCredentials } from './ffmpeg.ts';
import type { VideoRepository, VideoRow } from './repository.ts';
import { createVideoService, type VideoGrant } from './service.ts';

/** Sites only: every channel of them. */
const g = (sites: number[]): VideoGrant => ({ sites, channels: null });

/** The rules of the video service over an in-memory repository and stand-in ffmpeg tools. */
const rig = (tools: { probe?: Partial<ProbeResult>; snapshot?: { jpeg: Buffer } | { reason: string } }) => {
  const rows = new Map<number, VideoRow>();
  const urls: string[] = [];
  let next = 1;
  const repo = {
    list: async () => [...rows.values()].map((r) => ({ ...r, device_group_name: '' })),
    get: async (id: number, sites: number[] | null) => {
      const r = rows.get(id);
      return r && (sites === null || sites.includes(r.device_group_id)) ? r : undefined;
    },
    enabled: async () => [...rows.values()],
    siteExists: async (id: number) => id === 1 || id === 2,
    insert: async (w: Parameters<VideoRepository['insert']>[0]) => {
      const id = next++;
      rows.set(id, {
        ...w,
        id,
        channels: JSON.stringify(w.channels),
        enable: w.enable ? 1 : 0,
        state: 'unchecked',
        state_reason: '',
        state_since: 0,
        video_codec: '',
        audio_codec: '',
        updated_at: 0,
      });
      return id;
    },
    update: async () => undefined,
    remove: async (id: number) => void rows.delete(id),
    setState: async (id: number, s: { state: string; reason: string; video_codec?: string }) => {
      const r = rows.get(id)!;
      const changed = r.state !== s.state;
      rows.set(id, { ...r, state: s.state, state_reason: s.reason, video_codec: s.video_codec ?? r.video_codec });
      return changed;
    },
  } as unknown as VideoRepository;
  const service = createVideoService({
    repo,
    secrets: createSecretBox(randomBytes(32)),
    clock: () => 1_700_000_000_000,
    tools: {
      probe: async (url) => {
        urls.push(url);
        return { ok: true, reason: '', video_codec: 'h264', audio_codec: '', width: 1, height: 1, ...tools.probe };
      },
      snapshot: async (url) => {
        urls.push(url);
        return tools.snapshot ?? { reason: 'none' };
      },
    },
  });
  const add = () =>
    service.create(
      service.input.parse({
        name: 'cam',
        type: 2,
        ip_address: '10.0.0.9',
        port: 554,
        user: 'ad min',
        password: 'p@ss:word',
        device_group: 1,
        channels: [{ channel_no: 1, main_stream: 'rtsp://10.0.0.9/main', sub_stream: 'rtsp://10.0.0.9/sub' }],
      }),
      g([1]),
    );
  return { service, rows, urls, add };
};

const keyOf = (err: unknown) => (err instanceof AppError ? err.key : String(err));

describe('video service', () => {
  it('refuses an answer that is not a JPEG, and passes a JPEG on', async () => {
    const html = rig({ snapshot: { jpeg: Buffer.from('<html>login</html>') } });
    const d = await html.add();
    await expect(html.service.capture(d.id, 1, g([1])).catch(keyOf)).resolves.toBe('video.notImage');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const ok = rig({ snapshot: { jpeg } });
    const d2 = await ok.add();
    expect((await ok.service.capture(d2.id, 1, g([1]))).data).toBe(jpeg.toString('base64'));
  });

  it('puts the credentials into the address only when reading it, escaped', async () => {
    const r = rig({});
    const d = await r.add();
    expect(r.rows.get(d.id)!.secret).toMatch(/^\{"password":"enc:v1:/);
    await r.service.test(d.id, g([1]));
    expect(r.urls).toEqual(['rtsp://ad%20min:p%40ss%3Aword@10.0.0.9/sub']);
    expect(redacted(`failed ${r.urls[0]}`)).toBe('failed rtsp://***@10.0.0.9/sub');
    expect(withCredentials('rtsp://h/x', '', 'p')).toBe('rtsp://h/x');
  });

  it('an H.265 camera is unsupported and its live view refused; an offline one too', async () => {
    const r = rig({ probe: { video_codec: 'hevc' } });
    const d = await r.add();
    expect((await r.service.test(d.id, g([1]))).state).toBe('unsupported');
    await expect(r.service.liveStream(d.id, 1, 2, g([1])).catch(keyOf)).resolves.toBe('video.unsupported');
    const off = rig({ probe: { ok: false, reason: 'Connection refused', video_codec: '' } });
    const d2 = await off.add();
    expect((await off.service.test(d2.id, g([1]))).state).toBe('offline');
    await expect(off.service.liveStream(d2.id, 1, 2, g([1])).catch(keyOf)).resolves.toBe('video.offline');
  });

  it('another site’s device or site is not found', async () => {
    const r = rig({});
    const d = await r.add();
    await expect(r.service.test(d.id, g([2])).catch((e) => (e as AppError).name)).resolves.toBe('notFound');
    const input = r.service.input.parse({
      name: 'x',
      type: 2,
      ip_address: 'cam.local',
      port: 554,
      user: 'u',
      device_group: 2,
      channels: [{ channel_no: 1, main_stream: 'rtsp://cam.local/a' }],
    });
    await expect(r.service.create(input, g([1])).catch((e) => (e as AppError).name)).resolves.toBe('notFound');
  });
});

describe('fMP4 boxes', () => {
  const box = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  it('cuts init and fragments across chunk borders and reads the codec text', () => {
    const avcc = box('avcC', Buffer.from([1, 0x64, 0x00, 0x1f, 0xff]));
    const stream = Buffer.concat([
      box('ftyp', Buffer.from('iso5')),
      box('moov', avcc),
      box('moof', Buffer.from([1])),
      box('mdat', Buffer.from([2, 3])),
    ]);
    const reader = createBoxReader();
    const parts = [...stream].flatMap((byte) => reader.push(Buffer.from([byte])));
    expect(parts.map((p) => p.kind)).toEqual(['init', 'fragment']);
    expect(parts[0]).toMatchObject({ codecs: 'avc1.64001F' });
    expect(codecsOf(Buffer.from('....hvcC'))).toBe('hvc1');
    expect(() => createBoxReader().push(Buffer.from([0, 0, 0, 2, 0x61, 0x61, 0x61, 0x61]))).toThrow(/bad box size/);
  });
});
