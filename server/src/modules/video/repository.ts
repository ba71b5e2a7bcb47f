import type { VideoChannelInput, VideoState } from '@sitewatch/contract/video';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { VideoTables } from '../../db/schema-video.ts';

export type VideoRow = Selectable<VideoTables['video_devices']>;

/** The stored fields of a device (the password already sealed in `secret`). */
export interface VideoWrite {
  name: string;
  brand: string;
  protocol: string;
  type: number;
  ip_address: string;
  port: number;
  user: string;
  secret: string;
  device_group_id: number;
  channels: VideoChannelInput[];
  enable: boolean;
}

/** Rows of `video_devices` (migration 0032). Sites are filtered here: null is every site. */
export const createVideoRepository = (db: Db) => {
  const k = db.kysely;
  const columns = (w: VideoWrite, now: number) => ({
    name: w.name,
    brand: w.brand,
    protocol: w.protocol,
    type: w.type,
    ip_address: w.ip_address,
    port: w.port,
    user: w.user,
    secret: w.secret,
    device_group_id: w.device_group_id,
    channels: JSON.stringify(w.channels),
    enable: w.enable ? 1 : 0,
    updated_at: now,
  });
  return {
    async list(sites: number[] | null, siteId?: number): Promise<Array<VideoRow & { device_group_name: string }>> {
      if (sites !== null && sites.length === 0) return [];
      let q = k
        .selectFrom('video_devices as v')
        .leftJoin('device_groups as g', 'g.id', 'v.device_group_id')
        .selectAll('v')
        .select('g.name as device_group_name');
      if (sites !== null) q = q.where('v.device_group_id', 'in', sites);
      if (siteId !== undefined) q = q.where('v.device_group_id', '=', siteId);
      const rows = await q.orderBy('v.id').execute();
      return rows.map((r) => ({ ...r, device_group_name: r.device_group_name ?? '' }));
    },
    async get(id: number, sites: number[] | null): Promise<VideoRow | undefined> {
      if (sites !== null && sites.length === 0) return undefined;
      let q = k.selectFrom('video_devices').selectAll().where('id', '=', id);
      if (sites !== null) q = q.where('device_group_id', 'in', sites);
      return q.executeTakeFirst();
    },
    async enabled(): Promise<VideoRow[]> {
      return k.selectFrom('video_devices').selectAll().where('enable', '=', 1).orderBy('id').execute();
    },
    async siteExists(id: number) {
      return Boolean(await k.selectFrom('device_groups').select('id').where('id', '=', id).executeTakeFirst());
    },
    async insert(w: VideoWrite, now: number): Promise<number> {
      const { id } = await k
        .insertInto('video_devices')
        .values({
          ...columns(w, now),
          state: 'unchecked',
          state_reason: '',
          state_since: 0,
          video_codec: '',
          audio_codec: '',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },
    async update(id: number, w: VideoWrite, now: number) {
      await k
        .updateTable('video_devices')
        .set({ ...columns(w, now), state: 'unchecked', state_reason: '', state_since: 0 })
        .where('id', '=', id)
        .execute();
    },
    async remove(id: number) {
      await k.deleteFrom('video_devices').where('id', '=', id).execute();
    },
    /** Records what a check saw; true when the state changed. */
    async setState(
      id: number,
      s: { state: VideoState; reason: string; video_codec?: string; audio_codec?: string },
      nowS: number,
    ): Promise<boolean> {
      const row = await k
        .selectFrom('video_devices')
        .select(['state', 'state_reason'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return false;
      const changed = row.state !== s.state;
      await k
        .updateTable('video_devices')
        .set({
          state: s.state,
          state_reason: s.reason,
          ...(changed ? { state_since: nowS } : {}),
          ...(s.video_codec !== undefined ? { video_codec: s.video_codec } : {}),
          ...(s.audio_codec !== undefined ? { audio_codec: s.audio_codec } : {}),
        })
        .where('id', '=', id)
        .execute();
      return changed;
    },
  };
};

export type VideoRepository = ReturnType<typeof createVideoRepository>;
