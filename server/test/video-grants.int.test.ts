import { videoBase } from '@sitewatch/contract/video';
import { beforeAll, expect, it } from 'vitest';
import { fakeTokens, useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

/**
 * Video grants (docs/video.md, "Video grants"): a restricted user reaches only the channels their
 * roles grant (`role_videos`, channel id = device id × 1000 + channel number); without a grant, no
 * video at all. No camera is read: the addresses are closed ports, and a preview of an unchecked
 * device is answered without starting ffmpeg. SQLite and PostgreSQL.
 */

const headers = { authorization: 'Bearer admin-token', 'accept-language': 'zh-CN' };
const noChannel = '通道不存在！';

describeEachDatabase('video grants: only the granted channels, nothing without a grant', (dialect) => {
  const t = useManualTestApp(dialect);
  let site = 0;
  let d1 = 0;
  let d2 = 0;
  let viewerRole = 0;
  let roleBody: Record<string, unknown> = {};

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, token = 'admin-token') =>
    t.app.inject({
      method,
      url: path.startsWith('/api/') ? path : `${videoBase}${path}`,
      headers: { ...headers, authorization: `Bearer ${token}` },
      payload: payload as object,
    });
  const camera = (name: string, channels: number[], id?: number) => ({
    ...(id ? { id } : {}),
    name,
    brand: 'hikvision',
    protocol: 'rtsp',
    type: 1,
    ip_address: '127.0.0.1',
    port: 9,
    user: 'viewer',
    password: 'Cam-Pass-1',
    device_group: site,
    channels: channels.map((n) => ({ channel_no: n, name: `通道${n}`, main_stream: `rtsp://127.0.0.1:9/c${n}` })),
  });
  const ok = async (p: Promise<import('light-my-request').Response>) => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const listOf = async (token: string) =>
    ((await ok(call('GET', '/device', undefined, token))) as Array<{ id: number; channels: { ID: number }[] }>).map(
      (d) => [d.id, d.channels.map((c) => c.ID)],
    );
  const grantsOf = async (roleId: number) =>
    (
      await t.database.db.kysely
        .selectFrom('role_videos')
        .select('video_id')
        .where('role_id', '=', roleId)
        .orderBy('video_id')
        .execute()
    ).map((r) => r.video_id);

  beforeAll(async () => {
    // User 1 sees everything: on a fresh database the first user made is 1.
    await createUser(t.database.db, 'video-first', 'Some-Pass-123');
    site = (await ok(call('POST', '/api/v1/setting/device_groups', { name: '视频授权站点', weight: 1 }))).id;
    d1 = (await ok(call('POST', '/device', camera('录像机', [1, 2])))).id;
    d2 = (await ok(call('POST', '/device', camera('摄像机', [1])))).id;
    const funcs = await t.database.db.kysely
      .selectFrom('functions')
      .select('id')
      .where('menu_id', 'in', [821, 822])
      .execute();
    // The same pages and site; one role names channel 1 of the recorder, the other no channel.
    const role = async (name: string, video_ids: number[]) => {
      const body = {
        name,
        remark: '',
        site_ids: [site],
        menu_ids: [820, 821, 822],
        function_ids: funcs.map((f) => f.id),
        video_ids,
        contact_ids: [],
      };
      const id = (await ok(call('POST', '/api/v1/setting/roles', body))).id as number;
      return { id, body };
    };
    const viewer = await role('看通道1', [d1 * 1000 + 1]);
    viewerRole = viewer.id;
    roleBody = viewer.body;
    const blind = await role('无视频授权', []);
    const user = async (name: string, roleId: number, session: number) => {
      const id = await createUser(t.database.db, name, 'Some-Pass-123', [roleId]);
      fakeTokens[`${name}-token`] = { user_id: id, user_name: name, session_id: session };
    };
    await user('viewer', viewer.id, 9201);
    await user('blind', blind.id, 9202);
  });

  it('the administrator sees every device and channel; the role holds what the role route saved', async () => {
    expect(await listOf('admin-token')).toEqual([
      [d1, [d1 * 1000 + 1, d1 * 1000 + 2]],
      [d2, [d2 * 1000 + 1]],
    ]);
    expect((await ok(call('GET', `/api/v1/setting/roles/${viewerRole}`))).video_ids).toEqual([d1 * 1000 + 1]);
  });

  it('a restricted user sees only the granted channel, and reaches no other', async () => {
    expect(await listOf('viewer-token')).toEqual([[d1, [d1 * 1000 + 1]]]);
    const live = await ok(call('GET', `/preview?DeviceID=${d1}&ChannelNo=1&Quality=2`, undefined, 'viewer-token'));
    expect(live.Url).toMatch(/^\/ws\/live\?suuid=/);
    for (const [device, channel] of [
      [d1, 2],
      [d2, 1],
    ]) {
      const preview = await call('GET', `/preview?DeviceID=${device}&ChannelNo=${channel}`, undefined, 'viewer-token');
      expect(preview.statusCode).toBe(404);
      expect(preview.body).toContain(noChannel);
      const capture = await call(
        'POST',
        '/image/capture_on_device',
        { DeviceID: device, ChannelNo: channel },
        'viewer-token',
      );
      expect(capture.statusCode).toBe(404);
      expect(capture.body).toContain(noChannel);
    }
    // A device of which they hold no channel is not there to release a view of.
    expect((await call('DELETE', '/preview', { DeviceID: d2, LiveID: 'x' }, 'viewer-token')).statusCode).toBe(404);
    expect(await ok(call('DELETE', '/preview', { DeviceID: d1, LiveID: live.LiveID }, 'viewer-token'))).toEqual({
      released: true,
    });
  });

  it('a user whose roles grant no channel gets nothing', async () => {
    expect(await listOf('blind-token')).toEqual([]);
    for (const path of [`/preview?DeviceID=${d1}&ChannelNo=1`, `/preview?DeviceID=${d2}&ChannelNo=1`])
      expect((await call('GET', path, undefined, 'blind-token')).statusCode).toBe(404);
    const capture = await call('POST', '/image/capture_on_device', { DeviceID: d2, ChannelNo: 1 }, 'blind-token');
    expect(capture.statusCode).toBe(404);
    expect((await call('POST', `/device/${d2}/test`, undefined, 'blind-token')).statusCode).toBe(404);
    expect((await call('PUT', '/device', camera('改名', [1], d2), 'blind-token')).statusCode).toBe(404);
    expect((await call('DELETE', `/device/${d2}`, undefined, 'blind-token')).statusCode).toBe(404);
  });

  it('the setup calls need every channel of the device: one not granted refuses them, nothing changed', async () => {
    const before = await t.database.db.kysely
      .selectFrom('video_devices')
      .selectAll()
      .where('id', '=', d1)
      .executeTakeFirstOrThrow();
    expect((await call('PUT', '/device', camera('改写', [1, 2], d1), 'viewer-token')).statusCode).toBe(404);
    expect((await call('POST', `/device/${d1}/test`, undefined, 'viewer-token')).statusCode).toBe(404);
    expect((await call('DELETE', `/device/${d1}`, undefined, 'viewer-token')).statusCode).toBe(404);
    const after = await t.database.db.kysely
      .selectFrom('video_devices')
      .selectAll()
      .where('id', '=', d1)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await grantsOf(viewerRole)).toEqual([d1 * 1000 + 1]);
  });

  it('a device a restricted user adds is granted to their roles, and so is a channel they add to it', async () => {
    const added = await ok(call('POST', '/device', camera('新录像机', [1, 2]), 'viewer-token'));
    const id = added.id as number;
    expect(await grantsOf(viewerRole)).toEqual([d1 * 1000 + 1, id * 1000 + 1, id * 1000 + 2]);
    expect(await listOf('viewer-token')).toEqual([
      [d1, [d1 * 1000 + 1]],
      [id, [id * 1000 + 1, id * 1000 + 2]],
    ]);
    await ok(call('PUT', '/device', camera('新录像机', [1, 2, 3], id), 'viewer-token'));
    expect(await grantsOf(viewerRole)).toEqual([d1 * 1000 + 1, id * 1000 + 1, id * 1000 + 2, id * 1000 + 3]);
    await ok(call('POST', `/device/${id}/test`, undefined, 'viewer-token'));
    // A channel taken off the device takes its grants with it: added again (by the administrator),
    // it starts ungranted, and the viewer no longer holds the whole device.
    await ok(call('PUT', '/device', camera('新录像机', [1, 2], id)));
    expect(await grantsOf(viewerRole)).toEqual([d1 * 1000 + 1, id * 1000 + 1, id * 1000 + 2]);
    await ok(call('PUT', '/device', camera('新录像机', [1, 2, 3], id)));
    expect(await grantsOf(viewerRole)).toEqual([d1 * 1000 + 1, id * 1000 + 1, id * 1000 + 2]);
    expect((await call('DELETE', `/device/${id}`, undefined, 'viewer-token')).statusCode).toBe(404);
    await ok(call('DELETE', `/device/${id}`));
    // A removed device's channels are nobody's any more.
    expect(await grantsOf(viewerRole)).toEqual([d1 * 1000 + 1]);
    // The one who can see it all but holds no grant rows (user 1) is given none.
    const byAdmin = (await ok(call('POST', '/device', camera('管理员的', [1])))).id as number;
    expect(await grantsOf(viewerRole)).not.toContain(byAdmin * 1000 + 1);
  });

  it('a channel granted through the role route is reached at once', async () => {
    await ok(
      call('PUT', `/api/v1/setting/roles/${viewerRole}`, { ...roleBody, video_ids: [d1 * 1000 + 2, d2 * 1000 + 1] }),
    );
    expect(await listOf('viewer-token')).toEqual([
      [d1, [d1 * 1000 + 2]],
      [d2, [d2 * 1000 + 1]],
    ]);
    expect((await call('GET', `/preview?DeviceID=${d1}&ChannelNo=1`, undefined, 'viewer-token')).statusCode).toBe(404);
    // Every channel of the camera is theirs now: its setup is theirs too.
    await ok(call('PUT', '/device', camera('摄像机', [1], d2), 'viewer-token'));
  });
});
