import { defineArea } from '../../area.ts';
import { createPending } from '../../clock/timers.ts';
import { probe, snapshotJpeg } from './ffmpeg.ts';
import { createVideoHealth } from './health.ts';
import { createStreamHub, type StreamHub } from './hub.ts';
import { registerVideo, videoMenus } from './index.ts';
import { createLiveViews } from './live.ts';
import { createVideoRepository } from './repository.ts';
import { createVideoService, type VideoService } from './service.ts';

declare module '../../area.ts' {
  interface Services {
    /** Recorders and cameras, their state, and the stream hub (the alarm video will read them). */
    video: { service: VideoService; hub: StreamHub };
  }
}

const sourceOf = (id: number) => `video:${id}`;
/**
 * A camera's alarm waits this long for it to come back (docs/video.md, "Health"): a live stream
 * whose ffmpeg dies and restarts raises nothing; its state shows the drop at once.
 */
export const offlineAlarmHoldMs = 30_000;

/**
 * Video: recorders and cameras of a site, their connection test, snapshots, state, and the live
 * view over /ws/live (001 §3, §4, §7; 002 §2.1; docs/video.md).
 */
export const area = defineArea({
  name: 'video',
  needs: ['secrets', 'access', 'alarms'],
  provides: ['video'],
  tables: {
    video_devices: { sites: { site: 'device_group_id' } },
  },
  secrets: [{ table: 'video_devices', column: 'secret', fields: ['password'] }],
  menus: [
    { id: videoMenus.group, parent_id: 0, name_key: 'menu.videoGroup', icon: 'video-camera', weight: 880 },
    {
      id: videoMenus.live,
      parent_id: videoMenus.group,
      name_key: 'menu.videoLive',
      url: '/video_live',
      icon: 'video-camera',
      weight: 552,
      functions: ['view'],
    },
    {
      id: videoMenus.setup,
      parent_id: videoMenus.group,
      name_key: 'menu.videoSetup',
      url: '/setting_video_mange',
      icon: 'setting',
      weight: 551,
      functions: ['view', 'add', 'edit', 'delete'],
    },
  ],
  create: ({ kernel, needs }) => {
    const repo = createVideoRepository(kernel.db);
    const service = createVideoService({
      repo,
      secrets: needs.secrets,
      tools: { probe, snapshot: snapshotJpeg },
      clock: kernel.clock,
      onState: (row, state, reason) => {
        kernel.log.warn({ video_device: row.id, name: row.name, state, reason }, 'video device state changed');
        // A camera or recorder that stops answering is an alarm of its site (docs/video.md, "Health").
        if (state === 'offline')
          needs.alarms.raiseSource({
            source: sourceOf(row.id),
            kind: 'communication',
            site_id: row.device_group_id,
            device_name: row.name,
            item_name: '',
            info: reason,
            holdMs: offlineAlarmHoldMs,
          });
        else needs.alarms.recoverSource(sourceOf(row.id));
      },
    });
    // A device removed or disabled has nothing left to answer for: its alarm recovers.
    const pending = createPending();
    const recoverIfGone = (id: number) =>
      pending.track(
        repo
          .get(id, null)
          .then((row) => {
            if (!row || row.enable !== 1) needs.alarms.recoverSource(sourceOf(id));
          })
          .catch((err) => kernel.log.warn({ err, video_device: id }, 'video alarm not reconciled')),
      );
    const hub = createStreamHub({
      timers: kernel.timers,
      log: kernel.log,
      onFailure: (key, reason) => {
        const id = Number(key.split(':')[0]);
        void repo.get(id, null).then((row) => row && service.record(row, { state: 'offline', reason }));
      },
      onMedia: (key) => {
        const id = Number(key.split(':')[0]);
        void repo.get(id, null).then((row) => row && service.record(row, { state: 'online', reason: '' }));
      },
    });
    const live = createLiveViews({ hub, clock: kernel.clock });
    const health = createVideoHealth({ repo, service, timers: kernel.timers, log: kernel.log });
    return {
      provides: { video: { service, hub } },
      routes: (app) =>
        registerVideo(app, {
          service,
          access: needs.access,
          live,
          dropDevice: (id) => {
            void recoverIfGone(id);
            live.dropDevice(id);
            hub.drop(`${id}:`, 'device changed');
          },
        }),
      async start() {
        // Removed or disabled while the server was down.
        for (const source of await needs.alarms.openSources('video:')) await recoverIfGone(Number(source.slice(6)));
        health.start();
      },
      stop: () => {
        health.stop();
        hub.stop();
      },
      settled: async () => (await health.settled()) || (await pending.settled()),
    };
  },
});
