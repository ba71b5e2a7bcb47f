import { z } from 'zod';
import { tParam } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * Video (001 §3 Video entity and video device, §4 live view, §7 the video service under
 * /bbnvideo/api/v3.4.0; 002 §2.1 /video_live, /setting_video_mange, §5.3, §8; docs/video.md):
 * recorders and cameras of a site, their channels and stream addresses, the connection test, a
 * snapshot grabbed from the stream, and the live stream /ws/live?suuid= of RTSPtoWSMP4f.
 */

/** Every path of the video service is under this prefix (001 §7). */
export const videoBase = '/bbnvideo/api/v3.4.0';

export const videoMessages = {
  nameRequired: 'video.validation.nameRequired',
  userRequired: 'video.validation.userRequired',
  siteRequired: 'video.validation.siteRequired',
  ipFormat: 'video.validation.ipFormat',
  port: 'video.validation.port',
  streamFormat: 'video.validation.streamFormat',
  streamCredentials: 'video.validation.streamCredentials',
  streamRequired: 'video.validation.streamRequired',
  channelsRequired: 'video.validation.channelsRequired',
  channelDuplicate: 'video.validation.channelDuplicate',
  type: 'video.validation.type',
  offline: 'video.offline',
  unsupported: 'video.unsupported',
  notImage: 'video.notImage',
  noChannel: 'video.noChannel',
  noStream: 'video.noStream',
  tooManyStreams: 'video.tooManyStreams',
} as const;

const id = z.coerce.number().int().min(1).max(2_147_483_647);

/** Device types (dictionary /dict/devicetypes): 1 a recorder (NVR) with channels, 2 a camera. */
export const videoDeviceType = z.union([z.literal(1), z.literal(2)], { message: videoMessages.type });

/** The brands the dictionary offers (/dict/manufacturers); any other name is kept as typed. */
export const videoManufacturers = ['hikvision', 'dahua', 'uniview', 'tiandy', 'axis', 'onvif', 'other'] as const;
/** Device protocols (/dict/deviceprotocols): how the console reaches the device. */
export const videoProtocols = ['rtsp', 'onvif'] as const;

/** An RTSP address without credentials (they are the device's user and password, sealed at rest). */
export const streamAddress = z
  .string()
  .trim()
  .max(512, { message: videoMessages.streamFormat })
  .refine((v) => v === '' || /^rtsps?:\/\/[^\s/?#]+(\/[^\s]*)?$/i.test(v), { message: videoMessages.streamFormat })
  .refine((v) => !/^rtsps?:\/\/[^/]*@/i.test(v), { message: videoMessages.streamCredentials });

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const hostname = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** One channel of a device: its number on the device, name, and main and sub stream addresses. */
export const videoChannelInput = z.object({
  channel_no: z.coerce.number().int().min(1, { message: videoMessages.channelsRequired }).max(512),
  name: z.string().trim().max(64).default(''),
  main_stream: streamAddress.default(''),
  sub_stream: streamAddress.default(''),
});
export type VideoChannelInput = z.infer<typeof videoChannelInput>;

export const videoDeviceInput = z
  .object({
    name: z.string().trim().min(1, { message: videoMessages.nameRequired }).max(64),
    brand: z.string().trim().max(32).default('other'),
    protocol: z.enum(videoProtocols).default('rtsp'),
    type: videoDeviceType,
    ip_address: z
      .string()
      .trim()
      .refine((v) => ipv4.test(v) || (!/^[\d.]+$/.test(v) && hostname.test(v)), { message: videoMessages.ipFormat }),
    port: z.coerce.number().int({ message: videoMessages.port }).min(1, { message: videoMessages.port }).max(65535, {
      message: videoMessages.port,
    }),
    user: z.string().trim().min(1, { message: videoMessages.userRequired }).max(64),
    /** Empty on an edit: the stored password stays. Never answered. */
    password: z.string().max(128).default(''),
    device_group: z.coerce.number({ message: videoMessages.siteRequired }).int().min(1, {
      message: videoMessages.siteRequired,
    }),
    channels: z.array(videoChannelInput).min(1, { message: videoMessages.channelsRequired }).max(64),
    /** Whether the console checks the device and offers its live view. */
    enable: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    v.channels.forEach((c, i) => {
      if (seen.has(c.channel_no))
        ctx.addIssue({ code: 'custom', path: ['channels', i, 'channel_no'], message: videoMessages.channelDuplicate });
      seen.add(c.channel_no);
      if (!c.main_stream && !c.sub_stream)
        ctx.addIssue({ code: 'custom', path: ['channels', i, 'main_stream'], message: videoMessages.streamRequired });
    });
  });
export type VideoDeviceInput = z.input<typeof videoDeviceInput>;

export const videoDeviceUpdate = videoDeviceInput.and(z.object({ id }));

/** States of a device as the console last saw it (docs/video.md, "Health"). */
export const videoState = z.enum(['unchecked', 'online', 'offline', 'unsupported']);
export type VideoState = z.infer<typeof videoState>;

export const videoChannel = z.object({
  ID: z.number().int().describe('Channel id: the device id × 1000 + the channel number (role_videos).'),
  Name: z.string(),
  ChannelNo: z.number().int(),
  main_stream: z.string(),
  sub_stream: z.string(),
  /** 001 §3 Capacity.Preview: false shows the channel offline (设备离线状态！). */
  Capacity: z.object({ Preview: z.boolean() }),
});
export type VideoChannel = z.infer<typeof videoChannel>;

export const videoDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  brand: z.string(),
  protocol: z.string(),
  type: z.number().int().describe('1 recorder (NVR), 2 camera.'),
  ip_address: z.string(),
  port: z.number().int(),
  user: z.string(),
  device_group: z.number().int().describe('Site of the device (001 §3 video device).'),
  device_group_id: z.number().int().describe('The same site, under the name every other row uses.'),
  device_group_name: z.string(),
  enable: z.boolean(),
  state: videoState,
  state_reason: z.string().describe("Why the device is offline or unsupported, or ''."),
  state_since: z.number().int().describe('Epoch seconds of the last change of state (0: never checked).'),
  video_codec: z.string().describe("Codec of the stream the live view uses (h264, hevc…), '' before a check."),
  audio_codec: z.string(),
  channels: z.array(videoChannel),
});
export type VideoDevice = z.infer<typeof videoDevice>;

export const videoListQuery = z.object({
  device_group_id: id.optional(),
  t: tParam,
});

export const videoProbe = z.object({
  ok: z.boolean(),
  state: videoState,
  reason: z.string(),
  video_codec: z.string(),
  audio_codec: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type VideoProbe = z.infer<typeof videoProbe>;

export const captureBody = z.object({
  DeviceID: id,
  ChannelNo: z.coerce.number().int().min(1).max(512).default(1),
  t: tParam,
});

export const snapshot = z.object({
  content_type: z.literal('image/jpeg'),
  size: z.number().int(),
  /** The JPEG, base64. */
  data: z.string(),
  captured_at: z.number().int(),
});

export const previewQuery = z.object({
  DeviceID: id,
  ChannelNo: z.coerce.number().int().min(1).max(512).default(1),
  /** 1 main stream, 2 sub stream (the live view asks 2: 001 §7). */
  Quality: z.coerce.number().int().min(1).max(2).default(2),
  t: tParam,
});

export const preview = z.object({
  Protocol: z.literal('ws-fmp4'),
  /** Path of the stream socket on the console's own origin, with its one-time ticket. */
  Url: z.string(),
  AccessToken: z.string().describe('The one-time ticket the socket is opened with (valid 30 s).'),
  LiveID: z.string(),
});

export const previewRelease = z.object({ DeviceID: id, LiveID: z.string().min(1).max(64), t: tParam });

const dictEntry = z.object({ value: z.union([z.string(), z.number()]), label_key: z.string() });

export const videoRoutes = {
  list: defineRoute({
    method: 'GET',
    path: `${videoBase}/device`,
    summary: 'Video devices of the granted sites that have a granted channel, with only the granted channels',
    tags: ['video'],
    query: videoListQuery,
    response: z.array(videoDevice),
  }),
  create: defineRoute({
    method: 'POST',
    path: `${videoBase}/device`,
    summary: 'Add a recorder or camera',
    tags: ['video'],
    body: videoDeviceInput,
    response: videoDevice,
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${videoBase}/device`,
    summary: 'Edit a recorder or camera (an empty password keeps the stored one)',
    tags: ['video'],
    body: videoDeviceUpdate,
    response: videoDevice,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${videoBase}/device/:id`,
    summary: 'Delete a recorder or camera',
    tags: ['video'],
    params: z.object({ id }),
    response: z.object({ id: z.number().int() }),
  }),
  test: defineRoute({
    method: 'POST',
    path: `${videoBase}/device/:id/test`,
    summary: 'Connect to the first channel’s stream and report what it carries (updates the state)',
    tags: ['video'],
    params: z.object({ id }),
    response: videoProbe,
  }),
  manufacturers: defineRoute({
    method: 'GET',
    path: `${videoBase}/dict/manufacturers`,
    summary: 'Brands offered in the device form',
    tags: ['video'],
    response: z.array(dictEntry),
  }),
  protocols: defineRoute({
    method: 'GET',
    path: `${videoBase}/dict/deviceprotocols`,
    summary: 'Device protocols',
    tags: ['video'],
    response: z.array(dictEntry),
  }),
  types: defineRoute({
    method: 'GET',
    path: `${videoBase}/dict/devicetypes`,
    summary: 'Device types (recorder, camera)',
    tags: ['video'],
    response: z.array(dictEntry),
  }),
  capture: defineRoute({
    method: 'POST',
    path: `${videoBase}/image/capture_on_device`,
    summary: 'A JPEG of a channel now (one frame of its stream)',
    tags: ['video'],
    body: captureBody,
    response: snapshot,
  }),
  preview: defineRoute({
    method: 'GET',
    path: `${videoBase}/preview`,
    summary: 'Start a live view: the stream socket path and its ticket',
    tags: ['video'],
    query: previewQuery,
    response: preview,
  }),
  release: defineRoute({
    method: 'DELETE',
    path: `${videoBase}/preview`,
    summary: 'Stop a live view',
    tags: ['video'],
    body: previewRelease,
    response: z.object({ released: z.boolean() }),
  }),
  address: defineRoute({
    method: 'GET',
    path: `${videoBase}/other/rtsp2fmp4_address`,
    summary: 'Where the live stream socket is: the console’s own origin',
    tags: ['video'],
    response: z.object({ address: z.string() }),
  }),
};
