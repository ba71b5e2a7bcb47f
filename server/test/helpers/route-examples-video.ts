import type { MakeContext } from './estate-rows.ts';
import type { Example } from './route-examples.ts';
import { type RtspSource, startRtspSource } from './rtsp-source.ts';
import type { Side } from './site-estate.ts';

// The video area's rows and route examples for the generated suites (docs/video.md).

const video = '/bbnvideo/api/v3.4.0';
/** A camera on loopback for the routes that need a picture, started once per test file (helpers/rtsp-source.ts). */
let camera: Promise<RtspSource> | null = null;

/**
 * A camera of the side's site. Its stream is a closed port of loopback: a check of it fails at once
 * (offline with the reason); the routes that need a picture use a real source (route-examples.ts).
 */
export const videoDevice = (s: Side, stream = 'rtsp://127.0.0.1:9/cam', port = 554) => ({
  name: `${s.label}camera`,
  brand: 'hikvision',
  protocol: 'rtsp',
  type: 2,
  ip_address: '127.0.0.1',
  port,
  user: 'viewer',
  password: 'Cam-Pass-1',
  device_group: s.site,
  channels: [{ channel_no: 1, name: `${s.label}channel`, main_stream: stream, sub_stream: '' }],
});

/**
 * Site A's user (role 77) holds the channels of site A's cameras (docs/video.md, "Video grants"): a
 * camera the administrator adds for A after the role exists is granted to it here.
 */
const grantToSiteA = async ({ db }: MakeContext, s: Side, id: number) => {
  const k = db.kysely;
  if (s.name !== 'A' || !(await k.selectFrom('roles').select('id').where('id', '=', 77).executeTakeFirst())) return;
  await k
    .insertInto('role_videos')
    .values({ role_id: 77, video_id: id * 1000 + 1 })
    .execute();
};

export const videoMakers: Record<string, (c: MakeContext, s: Side) => Promise<number | undefined>> = {
  video_devices: async (c, s) => {
    const id = (await c.api('POST', `${video}/device`, videoDevice(s))).id as number;
    await grantToSiteA(c, s, id);
    return id;
  },
};

export const videoRoutes: Record<string, Example> = {
  [`POST ${video}/device`]: { table: 'video_devices', body: (s) => videoDevice(s) },
  [`PUT ${video}/device`]: { body: (s) => ({ ...videoDevice(s), id: s.rows.video_devices }) },
  [`DELETE ${video}/device/:id`]: { table: 'video_devices', fresh: true },
  [`POST ${video}/device/:id/test`]: { table: 'video_devices' },
  // A picture needs a stream: site A's call names a camera of its site reading a real RTSP source.
  [`POST ${video}/image/capture_on_device`]: {
    prepare: async (c) => {
      camera ??= startRtspSource();
      const src = await camera;
      const device = await c.api('POST', `${video}/device`, videoDevice(c.estate.a, src.url, src.port));
      await grantToSiteA(c, c.estate.a, device.id);
      return { device: device.id };
    },
    body: (s, _e, p) => ({ DeviceID: s.name === 'A' ? p.device : s.rows.video_devices, ChannelNo: 1 }),
  },
  [`GET ${video}/preview`]: { query: (s) => ({ DeviceID: s.rows.video_devices ?? 0, ChannelNo: 1 }) },
  [`DELETE ${video}/preview`]: { body: (s) => ({ DeviceID: s.rows.video_devices, LiveID: 'not-a-live-view' }) },
};
