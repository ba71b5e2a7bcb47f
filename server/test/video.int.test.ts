import type { AddressInfo } from 'node:net';
import { videoBase } from '@sitewatch/contract/video';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { offlineAlarmHoldMs } from '../src/modules/video/area.ts';
import type { StreamHub } from '../src/modules/video/hub.ts';
import { areaAlarms } from './helpers/area-alarms.ts';
import { fakeTokens, useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';
import { type RtspSource, startRtspSource } from './helpers/rtsp-source.ts';

/**
 * The video area against a real RTSP source and no cameras (docs/video.md, "Tests"): GStreamer's
 * RTSP server on loopback (H.264 with a key frame a second, a PCMA track, basic authentication),
 * read by Debian's ffmpeg. Device rows, sealed credentials, validation, the connection test, a
 * snapshot, and the live stream /ws/live of 001 §4 byte for byte; on SQLite and PostgreSQL.
 */

const headers = { authorization: 'Bearer admin-token', 'accept-language': 'zh-CN' };
const url = (path: string) => `${videoBase}${path}`;

/** Where the first sample of a `moof`+`mdat` fragment says whether it is a sync (key) sample. */
const firstSampleIsKey = (frag: Buffer) => {
  const trun = frag.indexOf('trun', 0, 'latin1');
  const tfhd = frag.indexOf('tfhd', 0, 'latin1');
  if (trun < 0) return false;
  const trunFlags = frag.readUInt32BE(trun + 4) & 0xffffff;
  // trun: version/flags, sample_count, [data_offset], [first_sample_flags]
  let p = trun + 12;
  if (trunFlags & 0x1) p += 4;
  let flags: number | null = null;
  if (trunFlags & 0x4) flags = frag.readUInt32BE(p);
  else if (trunFlags & 0x400) {
    // per-sample flags: skip duration and size of the first sample when present
    if (trunFlags & 0x100) p += 4;
    if (trunFlags & 0x200) p += 4;
    flags = frag.readUInt32BE(p);
  } else if (tfhd >= 0) {
    const tf = frag.readUInt32BE(tfhd + 4) & 0xffffff;
    let q = tfhd + 12;
    for (const bit of [0x1, 0x2, 0x8, 0x10]) if (tf & bit) q += bit === 0x1 ? 8 : 4;
    if (tf & 0x20) flags = frag.readUInt32BE(q);
  }
  return flags !== null && (flags & 0x10000) === 0;
};

/** A socket to /ws/live collecting its messages; `next(n)` waits for the n-th. */
const viewer = (base: string, path: string) => {
  const messages: Buffer[] = [];
  const waiters: Array<() => void> = [];
  const ws = new WebSocket(`${base}${path}`);
  let closed: { code: number; reason: string } | null = null;
  ws.on('message', (data: Buffer) => {
    messages.push(data);
    for (const w of waiters.splice(0)) w();
  });
  ws.on('close', (code, reason) => {
    closed = { code, reason: reason.toString() };
    for (const w of waiters.splice(0)) w();
  });
  const next = (n: number, timeoutMs = 20_000) =>
    new Promise<Buffer>((resolve, reject) => {
      const check = () => {
        if (messages.length >= n) return resolve(messages[n - 1]!);
        if (closed) return reject(new Error(`closed ${closed.code} ${closed.reason}`));
        waiters.push(check);
      };
      setTimeout(
        () => reject(new Error(`no message ${n} after ${timeoutMs} ms (${messages.length})`)),
        timeoutMs,
      ).unref();
      check();
    });
  const whenClosed = () =>
    new Promise<{ code: number; reason: string }>((resolve) => {
      if (closed) return resolve(closed);
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  return { ws, messages, next, whenClosed };
};

/** The live view journey: one camera, two viewers, a slow one, ffmpeg killed, the last viewer leaving. */
const liveViewJourney = async (o: {
  call: (method: 'GET' | 'DELETE', path: string, payload?: unknown) => Promise<import('light-my-request').Response>;
  base: string;
  id: number;
  hub: () => StreamHub;
  advance: (ms: number) => Promise<unknown>;
}) => {
  const { call, base, id, hub } = o;
  const open = async () => {
    const res = await call('GET', `/preview?DeviceID=${id}&ChannelNo=1&Quality=2`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { Url: string; LiveID: string; AccessToken: string; Protocol: string };
  };
  expect((await call('GET', '/other/rtsp2fmp4_address')).json().data.address).toMatch(/^localhost|^127\.0\.0\.1/);
  const p = await open();
  expect(p.Protocol).toBe('ws-fmp4');
  // The suuid alone opens nothing.
  const bare = viewer(base, `/ws/live?suuid=${p.LiveID}`);
  expect((await bare.whenClosed()).code).toBe(4401);
  const v = viewer(base, p.Url);
  const first = await v.next(1);
  expect(first[0]).toBe(9);
  expect(first.subarray(1).toString()).toMatch(/^avc1\.42[0-9A-F]{4}$/);
  const init = await v.next(2);
  expect(init.toString('latin1', 4, 8)).toBe('ftyp');
  expect(init.includes('moov', 0, 'latin1')).toBe(true);
  const frag = await v.next(3);
  expect(frag.toString('latin1', 4, 8)).toBe('moof');
  expect(firstSampleIsKey(frag)).toBe(true);
  expect((await v.next(4)).toString('latin1', 4, 8)).toBe('moof');
  // A ticket opens once.
  const again = viewer(base, p.Url);
  expect((await again.whenClosed()).code).toBe(4401);

  // A second viewer gets the codec, init and the last key-frame fragment at once, from the same ffmpeg.
  const p2 = await open();
  const started = Date.now();
  const v2 = viewer(base, p2.Url);
  await v2.next(3);
  expect(Date.now() - started).toBeLessThan(900);
  expect(v2.messages[0]![0]).toBe(9);
  expect(v2.messages[1]!.toString('latin1', 4, 8)).toBe('ftyp');
  expect(hub().status()).toEqual([expect.objectContaining({ viewers: 2, running: true, restarts: 0 })]);

  // A slow viewer (its socket never drains) skips fragments; the others go on.
  let slowGot = 0;
  const removeSlow = hub().add(hub().status()[0]!.key, '', {
    send: () => {
      slowGot++;
    },
    buffered: () => 64 * 1024 * 1024,
    close: () => {},
  });
  const have = v.messages.length;
  await v.next(have + 2);
  expect(slowGot).toBe(3); // only what a new viewer gets at once
  removeSlow();

  // ffmpeg killed: restarted after the back-off on the kernel's clock; viewers start again from a new init.
  const pid = hub().status()[0]!.pid!;
  const had = v.messages.length;
  process.kill(pid, 'SIGKILL');
  await expect.poll(() => hub().status()[0]?.running, { timeout: 5000 }).toBe(false);
  await o.advance(1000);
  await expect.poll(() => hub().status()[0]?.pid, { timeout: 5000 }).not.toBe(pid);
  const header = await v.next(had + 1);
  expect(header[0]).toBe(9);
  expect((await v.next(had + 2)).toString('latin1', 4, 8)).toBe('ftyp');
  expect((await v.next(had + 3)).toString('latin1', 4, 8)).toBe('moof');
  expect(hub().status()[0]!.restarts).toBe(1);

  // Released views: the stream stops a grace period after the last viewer leaves.
  expect((await call('DELETE', '/preview', { DeviceID: id, LiveID: p.LiveID })).json().data.released).toBe(true);
  await v.whenClosed();
  v2.ws.close();
  await v2.whenClosed();
  await expect.poll(() => hub().status()[0]?.viewers, { timeout: 5000 }).toBe(0);
  expect(hub().status()[0]!.running).toBe(true);
  await o.advance(10_000);
  expect(hub().status()).toEqual([]);
};

describeEachDatabase('video: devices, test, snapshot and live view against a real RTSP source', (dialect) => {
  const t = useManualTestApp(dialect);
  let source: RtspSource;
  let site = 0;
  let otherSite = 0;
  let base = '';

  beforeAll(async () => {
    source = await startRtspSource();
    const mk = async (name: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/setting/device_groups',
          headers,
          payload: { name, weight: 1 },
        })
      ).json().data.id as number;
    site = await mk('视频站点A');
    otherSite = await mk('视频站点B');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.sitewatch.start();
    base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await source?.stop();
  });

  const camera = (over: Record<string, unknown> = {}) => ({
    name: '机房1摄像机',
    brand: 'hikvision',
    protocol: 'rtsp',
    type: 2,
    ip_address: '127.0.0.1',
    port: source.port,
    user: source.user,
    password: source.password,
    device_group: site,
    channels: [{ channel_no: 1, name: '通道1', main_stream: source.url, sub_stream: '' }],
    ...over,
  });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, token = 'admin-token') =>
    t.app.inject({
      method,
      url: url(path),
      headers: { ...headers, authorization: `Bearer ${token}` },
      payload: payload as object,
    });
  const count = async () =>
    Number(
      (
        await t.database.db.kysely
          .selectFrom('video_devices')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  let id = 0;
  it('adds a camera with its password sealed at rest and never answered', async () => {
    const res = await call('POST', '/device', camera());
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    id = data.id;
    expect(data).toMatchObject({ name: '机房1摄像机', device_group: site, state: 'unchecked', type: 2 });
    expect(res.body).not.toContain(source.password);
    const row = await t.database.db.kysely
      .selectFrom('video_devices')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/"password":"enc:v1:/);
    expect(row.secret).not.toContain(source.password);
    // An edit without a password keeps the stored one (the test below still connects).
    const edit = await call('PUT', '/device', { ...camera({ password: '' }), id });
    expect(edit.statusCode, edit.body).toBe(200);
  });

  it('refuses bad input with the message and changes nothing', async () => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ user: '' }, '用户名不能为空！'],
      [{ device_group: 0 }, '请选择站点！'],
      [{ port: 70000 }, '端口须为1到65535的整数！'],
      [{ ip_address: '1.2.3.999' }, 'IP地址格式不正确！'],
      [{ channels: [] }, '请至少添加一个通道！'],
      [{ channels: [{ channel_no: 1, main_stream: 'http://x/y' }] }, '码流地址格式不正确，须以 rtsp:// 开头！'],
      [
        { channels: [{ channel_no: 1, main_stream: 'rtsp://a:b@127.0.0.1/x' }] },
        '码流地址中不能包含用户名和密码，请填写在设备的用户名和密码中！',
      ],
      [
        {
          channels: [
            { channel_no: 1, main_stream: source.url },
            { channel_no: 1, main_stream: source.url },
          ],
        },
        '通道号不能重复！',
      ],
    ];
    for (const [patch, message] of cases) {
      const res = await call('POST', '/device', camera(patch));
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.body, JSON.stringify(patch)).toContain(message);
    }
    // A site that does not exist is as one not granted: 404, nothing said of it.
    expect((await call('POST', '/device', camera({ device_group: 999_999 }))).statusCode).toBe(404);
    expect(await count()).toBe(before);
  });

  it('a user of another site sees nothing of the camera and cannot add one to its site', async () => {
    const k = t.database.db.kysely;
    const funcs = await k.selectFrom('functions').select('id').where('menu_id', 'in', [821, 822]).execute();
    const role = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/roles',
        headers,
        payload: {
          name: '站点B角色',
          site_ids: [otherSite],
          menu_ids: [821, 822],
          function_ids: funcs.map((f) => f.id),
        },
      })
    ).json().data as { id: number };
    // User 1 sees every site: on a fresh database the first user made is 1.
    await createUser(t.database.db, 'video-first', 'Some-Pass-123');
    const userId = await createUser(t.database.db, 'video-b', 'Some-Pass-123', [role.id]);
    expect(userId).not.toBe(1);
    fakeTokens['video-b-token'] = { user_id: userId, user_name: 'video-b', session_id: 9100 };
    const list = await call('GET', '/device', undefined, 'video-b-token');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([]);
    expect((await call('POST', `/device/${id}/test`, undefined, 'video-b-token')).statusCode).toBe(404);
    expect((await call('GET', `/preview?DeviceID=${id}&ChannelNo=1`, undefined, 'video-b-token')).statusCode).toBe(404);
    expect((await call('DELETE', `/device/${id}`, undefined, 'video-b-token')).statusCode).toBe(404);
    expect((await call('POST', '/device', camera(), 'video-b-token')).statusCode).toBe(404);
  });

  it('tests the connection: H.264 with a G.711 track, online', async () => {
    const res = await call('POST', `/device/${id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      ok: true,
      state: 'online',
      video_codec: 'h264',
      audio_codec: 'pcm_alaw',
      width: 640,
      height: 360,
    });
    const [dev] = (await call('GET', '/device')).json().data;
    expect(dev).toMatchObject({ state: 'online', video_codec: 'h264' });
    expect(dev.channels[0]).toMatchObject({ ID: id * 1000 + 1, ChannelNo: 1, Capacity: { Preview: true } });
  });

  it('a wrong password or a dead address is offline with the reason, and the check on the clock finds it', async () => {
    const bad = await call('POST', '/device', camera({ name: '错误密码', password: 'wrong' }));
    const dead = await call(
      'POST',
      '/device',
      camera({ name: '无人应答', channels: [{ channel_no: 1, main_stream: 'rtsp://127.0.0.1:1/x' }] }),
    );
    const probe = await call('POST', `/device/${bad.json().data.id}/test`);
    expect(probe.json().data).toMatchObject({ ok: false, state: 'offline' });
    expect(probe.json().data.reason).toMatch(/401|Unauthorized/i);
    expect(probe.body).not.toContain('wrong');
    // The periodic check (60 s on the kernel's clock) records the dead one without anyone asking.
    await t.clock.advance(60_000);
    const list = (await call('GET', '/device')).json().data as Array<{
      id: number;
      state: string;
      state_reason: string;
      channels: Array<{ Capacity: { Preview: boolean } }>;
    }>;
    const row = list.find((d) => d.id === dead.json().data.id)!;
    expect(row.state).toBe('offline');
    expect(row.state_reason).toMatch(/refused/i);
    expect(row.channels[0]!.Capacity.Preview).toBe(false);
    expect((await call('GET', `/preview?DeviceID=${row.id}&ChannelNo=1`)).body).toContain('设备离线状态！');
    // Each is an open communication alarm of its site once still down after the hold-off, named
    // after it; removed, each recovers.
    const alarmsOf = (d: typeof bad) => areaAlarms(t, `video:${d.json().data.id}`);
    expect(await alarmsOf(dead)).toEqual([]);
    await t.clock.advance(offlineAlarmHoldMs);
    expect(await alarmsOf(bad)).toEqual([
      {
        kind: 'communication',
        device_name: '错误密码',
        item_name: '',
        info: expect.stringMatching(/401|Unauthorized/i),
        open: true,
      },
    ]);
    expect(await alarmsOf(dead)).toEqual([
      {
        kind: 'communication',
        device_name: '无人应答',
        item_name: '',
        info: expect.stringMatching(/refused/i),
        open: true,
      },
    ]);
    for (const d of [bad, dead]) expect((await call('DELETE', `/device/${d.json().data.id}`)).statusCode).toBe(200);
    for (const d of [bad, dead]) expect((await alarmsOf(d)).map((a) => a.open)).toEqual([false]);
  });

  it('grabs a JPEG from the stream', async () => {
    const res = await call('POST', '/image/capture_on_device', { DeviceID: id, ChannelNo: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const jpeg = Buffer.from(res.json().data.data, 'base64');
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(jpeg.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect((await call('POST', '/image/capture_on_device', { DeviceID: id, ChannelNo: 9 })).body).toContain(
      '通道不存在！',
    );
  });

  it('live view: byte 9 and the codec, then the init segment, then fragments starting on a key frame', async () => {
    const hub = () => (t.sitewatch.services as unknown as { video: { hub: StreamHub } }).video.hub;
    await liveViewJourney({ call, base, id, hub, advance: (ms) => t.clock.advance(ms) });
  }, 90_000);
});
