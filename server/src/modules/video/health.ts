import type { FastifyBaseLogger } from 'fastify';
import type { Timer, Timers } from '../../clock/timers.ts';
import type { VideoRepository } from './repository.ts';
import type { VideoService } from './service.ts';

/** How often every enabled device is checked, ms (docs/video.md, "Health"). */
export const checkEveryMs = 60_000;

/**
 * Checks every enabled recorder and camera on the kernel's clock, one at a time (each check is one
 * ffprobe of the first channel: two cores, many cameras), and records online, offline with the
 * reason, or unsupported (a codec the browsers cannot play). A round still running skips the next tick.
 */
export const createVideoHealth = (deps: {
  repo: VideoRepository;
  service: VideoService;
  timers: Timers;
  log: FastifyBaseLogger;
  everyMs?: number;
}) => {
  let timer: Timer | null = null;
  let round: Promise<void> | null = null;
  const runRound = async () => {
    for (const row of await deps.repo.enabled()) {
      try {
        await deps.service.check(row);
      } catch (err) {
        deps.log.warn({ err, video_device: row.id }, 'video check failed');
      }
    }
  };
  const tick = () => {
    if (round) return round;
    round = runRound().finally(() => {
      round = null;
    });
    return round;
  };
  return {
    tick,
    start() {
      timer = deps.timers.setInterval(tick, deps.everyMs ?? checkEveryMs);
    },
    stop() {
      deps.timers.clearInterval(timer);
      timer = null;
    },
    async settled() {
      if (!round) return false;
      await round;
      return true;
    },
  };
};
