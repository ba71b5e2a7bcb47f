import { type ChildProcess, spawn } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import type { Timer, Timers } from '../../clock/timers.ts';
import { createBoxReader } from './boxes.ts';
import { ffmpegBin, redacted, rtspInput } from './ffmpeg.ts';

/**
 * The stream hub (docs/video.md, "Live view"): one ffmpeg per stream (a channel's main or sub
 * stream) remuxing RTSP to fragmented MP4 with `-c:v copy`, shared by every viewer; the init segment
 * and the last key-frame fragment kept, so a new viewer starts at once; a slow viewer skips
 * fragments (each starts on a key frame) instead of slowing the others; the process stopped a grace
 * period after the last viewer leaves and restarted with back-off when it dies. Timers are the
 * kernel's.
 */

export interface Viewer {
  send(data: Buffer): void;
  /** Bytes queued on the socket and not yet sent. */
  buffered(): number;
  close(code: number, reason: string): void;
}

export interface HubOptions {
  timers: Timers;
  log: FastifyBaseLogger;
  /** After the last viewer leaves, ms before the process stops (a reconnect within it reuses it). */
  graceMs?: number;
  /** Back-off of restarts after the process died: first delay, doubling up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Queued bytes over which a viewer skips fragments. */
  slowBytes?: number;
  /** Told when a stream's process fails (exit before or after media), for the device's state. */
  onFailure?: (key: string, reason: string) => void;
  /** Told when a stream delivers its init segment (the device answers). */
  onMedia?: (key: string, codecs: string) => void;
}

interface Stream {
  key: string;
  url: string;
  child: ChildProcess | null;
  header: Buffer | null;
  init: Buffer | null;
  last: Buffer | null;
  viewers: Set<Viewer>;
  /** Viewers that skipped a fragment and wait for the next one to catch up. */
  behind: Set<Viewer>;
  stopTimer: Timer | null;
  restartTimer: Timer | null;
  backoff: number;
  restarts: number;
  stderr: string;
  stopped: boolean;
}

export type StreamHub = ReturnType<typeof createStreamHub>;

/** The byte-9 message: the MSE codec list the viewer opens its SourceBuffer with (RTSPtoWSMP4f). */
export const codecMessage = (codecs: string) => Buffer.concat([Buffer.from([9]), Buffer.from(codecs, 'utf8')]);

export const createStreamHub = (o: HubOptions) => {
  const { timers, log } = o;
  const graceMs = o.graceMs ?? 10_000;
  const backoffMs = o.backoffMs ?? 1000;
  const maxBackoffMs = o.maxBackoffMs ?? 30_000;
  const slowBytes = o.slowBytes ?? 2 * 1024 * 1024;
  const streams = new Map<string, Stream>();

  const deliver = (s: Stream, data: Buffer) => {
    for (const v of s.viewers) {
      if (v.buffered() > slowBytes) {
        s.behind.add(v);
        continue;
      }
      s.behind.delete(v);
      v.send(data);
    }
  };

  const launch = (s: Stream) => {
    const args = [
      ...rtspInput(s.url),
      '-map',
      '0:v:0',
      '-c:v',
      'copy',
      '-an',
      '-f',
      'mp4',
      '-movflags',
      'frag_keyframe+empty_moov+default_base_moof',
      'pipe:1',
    ];
    const child = spawn(ffmpegBin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    s.child = child;
    s.stderr = '';
    const reader = createBoxReader();
    child.stdout?.on('data', (chunk: Buffer) => {
      let parts: ReturnType<typeof reader.push>;
      try {
        parts = reader.push(chunk);
      } catch (err) {
        log.warn({ err, stream: s.key }, 'video stream: unreadable MP4');
        child.kill('SIGKILL');
        return;
      }
      for (const part of parts) {
        if (part.kind === 'init') {
          s.header = codecMessage(part.codecs);
          s.init = part.data;
          s.last = null;
          s.backoff = backoffMs;
          o.onMedia?.(s.key, part.codecs);
          // A restarted process may carry other parameters: every viewer starts again from its init.
          deliver(s, s.header);
          deliver(s, s.init);
        } else {
          s.last = part.data;
          deliver(s, part.data);
        }
      }
    });
    child.stderr?.on('data', (b: Buffer) => {
      s.stderr = (s.stderr + b.toString('utf8')).slice(-2000);
    });
    child.on('error', (err) => {
      s.stderr = err.message;
    });
    child.on('close', (code) => {
      if (s.child !== child) return;
      s.child = null;
      if (s.stopped) return;
      const reason = redacted(s.stderr.trim().split('\n').pop() || `ffmpeg exited with code ${code}`);
      log.warn({ stream: s.key, code, reason }, 'video stream ended; restarting');
      o.onFailure?.(s.key, reason);
      s.header = null;
      s.init = null;
      s.last = null;
      if (s.viewers.size === 0) return stopNow(s);
      const wait = s.backoff;
      s.backoff = Math.min(s.backoff * 2, maxBackoffMs);
      s.restartTimer = timers.setTimeout(() => {
        s.restartTimer = null;
        if (!s.stopped) {
          s.restarts++;
          launch(s);
        }
      }, wait);
    });
  };

  const stopNow = (s: Stream) => {
    s.stopped = true;
    timers.clearTimeout(s.stopTimer);
    timers.clearTimeout(s.restartTimer);
    s.child?.kill('SIGKILL');
    s.child = null;
    if (streams.get(s.key) === s) streams.delete(s.key);
  };

  return {
    /** Adds a viewer to the stream (starting it if needed); returns its removal. */
    add(key: string, url: string, viewer: Viewer): () => void {
      let s = streams.get(key);
      if (!s || s.stopped) {
        s = {
          key,
          url,
          child: null,
          header: null,
          init: null,
          last: null,
          viewers: new Set(),
          behind: new Set(),
          stopTimer: null,
          restartTimer: null,
          backoff: backoffMs,
          restarts: 0,
          stderr: '',
          stopped: false,
        };
        streams.set(key, s);
        launch(s);
      }
      const stream = s;
      timers.clearTimeout(stream.stopTimer);
      stream.stopTimer = null;
      stream.viewers.add(viewer);
      if (stream.header && stream.init) {
        viewer.send(stream.header);
        viewer.send(stream.init);
        if (stream.last) viewer.send(stream.last);
      }
      return () => {
        if (!stream.viewers.delete(viewer)) return;
        stream.behind.delete(viewer);
        if (stream.viewers.size > 0 || stream.stopped) return;
        stream.stopTimer = timers.setTimeout(() => {
          if (stream.viewers.size === 0) stopNow(stream);
        }, graceMs);
      };
    },
    /** What runs now: per stream its viewers, whether its process is up, and its restarts. */
    status: () =>
      [...streams.values()].map((s) => ({
        key: s.key,
        viewers: s.viewers.size,
        running: s.child !== null,
        pid: s.child?.pid ?? null,
        restarts: s.restarts,
        ready: s.init !== null,
      })),
    /** Stops every stream whose key starts with `prefix` and closes its viewers (a device edited or deleted). */
    drop(prefix: string, reason: string) {
      for (const s of [...streams.values()])
        if (s.key.startsWith(prefix)) {
          for (const v of s.viewers) v.close(4410, reason);
          s.viewers.clear();
          stopNow(s);
        }
    },
    stop() {
      for (const s of [...streams.values()]) {
        for (const v of s.viewers) v.close(1001, 'server stopping');
        stopNow(s);
      }
    },
  };
};
