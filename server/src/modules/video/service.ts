import { randomBytes } from 'node:crypto';
import {
  type VideoChannelInput,
  type VideoDevice,
  type VideoProbe,
  type VideoState,
  videoDeviceInput,
  videoMessages,
} from '@sitewatch/contract/video';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { mapJsonFields, type SecretBox } from '../../secrets/index.ts';
import { isJpeg, type ProbeResult, withCredentials } from './ffmpeg.ts';
import type { VideoRepository, VideoRow } from './repository.ts';

type Input = z.infer<typeof videoDeviceInput>;

/**
 * The caller's reach over video (docs/video.md, "Video grants"): the granted sites, and the granted
 * channel ids (device id × 1000 + channel number; null: every channel, for user 1 and role 1).
 */
export interface VideoGrant {
  sites: number[] | null;
  channels: number[] | null;
}

/** A channel's id, as the list answers it (`ID`) and `role_videos` names it. */
export const channelId = (deviceId: number, channelNo: number) => deviceId * 1000 + channelNo;

export interface VideoTools {
  probe(url: string): Promise<ProbeResult>;
  snapshot(url: string): Promise<{ jpeg: Buffer } | { reason: string }>;
}

/** Codecs the browsers' MSE plays here (docs/video.md, "Codec policy"): H.264 only; H.265 is refused. */
const playable = (codec: string) => codec === '' || codec === 'h264';

const channelsOf = (row: VideoRow): VideoChannelInput[] => {
  try {
    const parsed = JSON.parse(row.channels) as VideoChannelInput[];
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
};

/** The stream a live view or snapshot reads: the sub stream for quality 2 when there is one, else the main. */
export const streamOf = (c: VideoChannelInput, quality: number) =>
  (quality === 2 ? c.sub_stream || c.main_stream : c.main_stream || c.sub_stream) || '';

/** Every site and channel: the server's own reads, and the administrator. */
export const everyVideo: VideoGrant = { sites: null, channels: null };
const all = everyVideo;

export const createVideoService = (deps: {
  repo: VideoRepository;
  secrets: SecretBox;
  tools: VideoTools;
  clock: () => number;
  /** Told after a device's state changed (the log, and what shows it). */
  onState?: (row: VideoRow, state: VideoState, reason: string) => void;
}) => {
  const { repo, secrets, tools, clock } = deps;
  const nowS = () => Math.floor(clock() / 1000);
  const password = (row: VideoRow) => {
    try {
      const o = JSON.parse(mapJsonFields(row.secret, ['password'], secrets.decrypt)) as { password?: string };
      return o.password ?? '';
    } catch {
      return '';
    }
  };

  const toDevice = (row: VideoRow & { device_group_name?: string }): VideoDevice => ({
    id: row.id,
    name: row.name,
    brand: row.brand,
    protocol: row.protocol,
    type: row.type,
    ip_address: row.ip_address,
    port: row.port,
    user: row.user,
    device_group: row.device_group_id,
    device_group_id: row.device_group_id,
    device_group_name: row.device_group_name ?? '',
    enable: row.enable === 1,
    state: row.state as VideoState,
    state_reason: row.state_reason,
    state_since: Number(row.state_since),
    video_codec: row.video_codec,
    audio_codec: row.audio_codec,
    channels: channelsOf(row).map((c) => ({
      ID: channelId(row.id, c.channel_no),
      Name: c.name,
      ChannelNo: c.channel_no,
      main_stream: c.main_stream,
      sub_stream: c.sub_stream,
      Capacity: { Preview: row.enable === 1 && row.state !== 'offline' && row.state !== 'unsupported' },
    })),
  });

  const write = async (input: Input, { sites }: VideoGrant, stored?: VideoRow) => {
    // Another site's, or none: as if it did not exist (the caller learns nothing of it).
    if (sites !== null && !sites.includes(input.device_group)) throw notFound();
    if (!(await repo.siteExists(input.device_group))) throw notFound();
    const plain = input.password || (stored ? password(stored) : '');
    return {
      name: input.name,
      brand: input.brand,
      protocol: input.protocol,
      type: input.type,
      ip_address: input.ip_address,
      port: input.port,
      user: input.user,
      secret: JSON.stringify({ password: secrets.encrypt(plain) }),
      device_group_id: input.device_group,
      channels: input.channels,
      enable: input.enable,
    };
  };

  /**
   * A device of the caller's sites, else 404. `need`: which of its channels the caller must hold —
   * `all` for the setup calls (a restricted user never rewrites channels they cannot see), `any` for
   * a call on the device as the list shows it, `none` when the call checks one channel itself.
   */
  const found = async (id: number, grant: VideoGrant, need: 'all' | 'any' | 'none' = 'all') => {
    const row = await repo.get(id, grant.sites);
    if (!row) throw notFound();
    if (grant.channels !== null && need !== 'none') {
      const held = new Set(grant.channels);
      const ids = channelsOf(row).map((c) => channelId(row.id, c.channel_no));
      if (need === 'all' ? !ids.every((c) => held.has(c)) : !ids.some((c) => held.has(c))) throw notFound();
    }
    return row;
  };

  /** A channel of the device the caller holds; another (or none) is the spec's channel-not-found, 404. */
  const channel = (row: VideoRow, channelNo: number, grant: VideoGrant) => {
    const c = channelsOf(row).find((x) => x.channel_no === channelNo);
    if (!c || (grant.channels !== null && !grant.channels.includes(channelId(row.id, channelNo))))
      throw notFound(videoMessages.noChannel);
    return c;
  };

  /** The address ffmpeg reads, the credentials put in. */
  const urlOf = (row: VideoRow, c: VideoChannelInput, quality: number) => {
    const address = streamOf(c, quality);
    if (!address) throw badRequest(videoMessages.noStream);
    return withCredentials(address, row.user, password(row));
  };

  const record = async (
    row: VideoRow,
    s: { state: VideoState; reason: string; video_codec?: string; audio_codec?: string },
  ) => {
    if (await repo.setState(row.id, s, nowS())) deps.onState?.(row, s.state, s.reason);
  };

  /** Probes the device's first channel and records what it saw. */
  const check = async (row: VideoRow): Promise<VideoProbe> => {
    const first = channelsOf(row)[0];
    if (!first) throw badRequest(videoMessages.channelsRequired);
    const seen = await tools.probe(urlOf(row, first, 2));
    const state: VideoState = !seen.ok ? 'offline' : playable(seen.video_codec) ? 'online' : 'unsupported';
    const reason = state === 'unsupported' ? `codec ${seen.video_codec}` : seen.reason;
    await record(row, {
      state,
      reason,
      ...(seen.ok ? { video_codec: seen.video_codec, audio_codec: seen.audio_codec } : {}),
    });
    return { ...seen, state, reason };
  };

  return {
    toDevice,
    channelsOf,
    /** Devices of the granted sites; a restricted caller gets only granted channels, and devices with one. */
    async list(grant: VideoGrant, siteId?: number) {
      const devices = (await repo.list(grant.sites, siteId)).map(toDevice);
      if (grant.channels === null) return devices;
      const held = new Set(grant.channels);
      return devices
        .map((d) => ({ ...d, channels: d.channels.filter((c) => held.has(c.ID)) }))
        .filter((d) => d.channels.length > 0);
    },
    async create(input: Input, grant: VideoGrant) {
      const id = await repo.insert(await write(input, grant), nowS());
      return toDevice({ ...(await found(id, all)), device_group_name: '' });
    },
    async update(id: number, input: Input, grant: VideoGrant) {
      const stored = await found(id, grant);
      await repo.update(id, await write(input, grant, stored), nowS());
      return toDevice(await found(id, all));
    },
    /** The ids of a device's stored channels (none for an unknown device); the caller checks the grant. */
    async channelIds(id: number) {
      const row = await repo.get(id, null);
      return row ? channelsOf(row).map((c) => channelId(row.id, c.channel_no)) : [];
    },
    async remove(id: number, grant: VideoGrant) {
      await found(id, grant);
      await repo.remove(id);
      return { id };
    },
    /** Throws 404 unless the device is of one of the caller's sites and they hold one of its channels. */
    async visible(id: number, grant: VideoGrant) {
      await found(id, grant, 'any');
    },
    async test(id: number, grant: VideoGrant) {
      return check(await found(id, grant));
    },
    check,
    /** A JPEG of the channel now; a non-image answer is refused, never passed on. */
    async capture(id: number, channelNo: number, grant: VideoGrant) {
      const row = await found(id, grant, 'none');
      const c = channel(row, channelNo, grant);
      const got = await tools.snapshot(urlOf(row, c, 1));
      if ('reason' in got) {
        await record(row, { state: 'offline', reason: got.reason });
        throw conflict(videoMessages.offline);
      }
      if (!isJpeg(got.jpeg)) throw conflict(videoMessages.notImage);
      return {
        content_type: 'image/jpeg' as const,
        size: got.jpeg.length,
        data: got.jpeg.toString('base64'),
        captured_at: nowS(),
      };
    },
    /** The stream a live view of a channel reads: its hub key and address; refused when it cannot play. */
    async liveStream(id: number, channelNo: number, quality: number, grant: VideoGrant) {
      const row = await found(id, grant, 'none');
      const c = channel(row, channelNo, grant);
      if (row.enable !== 1 || row.state === 'offline') throw conflict(videoMessages.offline);
      if (!playable(row.video_codec)) throw conflict(videoMessages.unsupported);
      const q = streamOf(c, quality) === c.sub_stream ? 2 : 1;
      return { key: `${row.id}:${c.channel_no}:${q}`, url: urlOf(row, c, quality), deviceId: row.id };
    },
    record,
    input: videoDeviceInput,
  };
};

export type VideoService = ReturnType<typeof createVideoService>;

/** A ticket or live id: 24 random bytes, URL-safe. */
export const randomToken = () => randomBytes(24).toString('base64url');
