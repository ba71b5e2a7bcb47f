import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../conformance/peers.ts';

/** Whether GStreamer's RTSP server and ffmpeg are installed (scripts/test.mjs installs them). */
export const rtspAvailable =
  existsSync('/usr/bin/ffmpeg') &&
  existsSync('/usr/lib/x86_64-linux-gnu/girepository-1.0/GstRtspServer-1.0.typelib') &&
  existsSync('/usr/bin/python3');

export interface RtspSource {
  port: number;
  /** The stream address without credentials (the device's user and password go apart). */
  url: string;
  user: string;
  password: string;
  stop(): Promise<void>;
}

/**
 * A camera on loopback: helpers/rtsp-server.py (GStreamer's RTSP server, H.264 test pattern with a
 * key frame a second and a PCMA track), with basic authentication by `user`/`password`.
 */
export const startRtspSource = async (user = 'viewer', password = 'Cam-Pass-1'): Promise<RtspSource> => {
  const port = await freePort();
  const script = path.join(import.meta.dirname, 'rtsp-server.py');
  const child: ChildProcess = spawn('/usr/bin/python3', [script, String(port), user, password], {
    // Its stdin is ours: the server quits when this process ends, however it ends (no orphan camera).
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (b: Buffer) => {
    err += b.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (b: Buffer) => {
      if (b.toString().includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`rtsp-server.py exited ${code}: ${err}`)));
  });
  return {
    port,
    url: `rtsp://127.0.0.1:${port}/cam1`,
    user,
    password,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};
