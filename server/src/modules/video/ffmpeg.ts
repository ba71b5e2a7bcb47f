import { spawn } from 'node:child_process';

/**
 * Debian's ffmpeg and ffprobe (7:5.1.9, docs/video.md): every use is a child process reading one
 * RTSP address over TCP, bounded by ffmpeg's own socket timeout (`-timeout`, µs: `-stimeout` was
 * removed in FFmpeg 5), so no timer of the server waits on it. Only rtsp:// and rtsps:// addresses
 * reach here (the contract refuses others), and the protocols ffmpeg may open are listed.
 */

export const ffmpegBin = process.env.SITEWATCH_FFMPEG ?? 'ffmpeg';
export const ffprobeBin = process.env.SITEWATCH_FFPROBE ?? 'ffprobe';

/** Socket timeout of every RTSP read, µs. */
const timeoutUs = '5000000';

/** The options before `-i` that every RTSP input gets. */
export const rtspInput = (url: string) => [
  '-hide_banner',
  '-loglevel',
  'error',
  '-protocol_whitelist',
  'rtsp,rtsps,tcp,tls,udp,rtp',
  '-rtsp_transport',
  'tcp',
  '-timeout',
  timeoutUs,
  '-i',
  url,
];

/** The address with the device's user and password in it (they are stored apart, the password sealed). */
export const withCredentials = (address: string, user: string, password: string) => {
  if (!user) return address;
  const auth = `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@`;
  return address.replace(/^(rtsps?:\/\/)/i, `$1${auth}`);
};

/** The address as logs and messages may show it: never a password. */
export const redacted = (text: string) => text.replace(/(rtsps?:\/\/)[^@/\s]*@/gi, '$1***@');

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a tool to its end, its output collected (at most `maxBytes` of stdout). */
const run = (bin: string, args: string[], maxBytes: number): Promise<Run> =>
  new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      size += b.length;
      if (size > maxBytes) child.kill('SIGKILL');
      else chunks.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 4096) stderr += b.toString('utf8');
    });
    child.on('error', (err) => resolve({ code: -1, stdout: Buffer.alloc(0), stderr: err.message }));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks), stderr }));
  });

export interface ProbeResult {
  ok: boolean;
  reason: string;
  video_codec: string;
  audio_codec: string;
  width: number;
  height: number;
}

/** The last line ffmpeg wrote, without addresses' credentials: the reason shown to the user. */
const reasonOf = (r: Run) =>
  redacted(
    r.stderr
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .pop() ?? `exit code ${r.code}`,
  ).slice(0, 300);

/** Connects to the stream and reads what it carries (DESCRIBE and the first packets). */
export const probe = async (url: string): Promise<ProbeResult> => {
  const r = await run(
    ffprobeBin,
    [...rtspInput(url), '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json'],
    1_000_000,
  );
  if (r.code !== 0) return { ok: false, reason: reasonOf(r), video_codec: '', audio_codec: '', width: 0, height: 0 };
  let streams: Array<{ codec_type?: string; codec_name?: string; width?: number; height?: number }> = [];
  try {
    streams = (JSON.parse(r.stdout.toString('utf8')) as { streams?: typeof streams }).streams ?? [];
  } catch {
    return { ok: false, reason: 'ffprobe answered no JSON', video_codec: '', audio_codec: '', width: 0, height: 0 };
  }
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  return {
    ok: Boolean(video),
    reason: video ? '' : 'the stream carries no video',
    video_codec: video?.codec_name ?? '',
    audio_codec: audio?.codec_name ?? '',
    width: video?.width ?? 0,
    height: video?.height ?? 0,
  };
};

/** A JPEG's start (SOI and a marker) and end (EOI): what the edge checks before answering one. */
export const isJpeg = (b: Buffer) =>
  b.length > 4 &&
  b[0] === 0xff &&
  b[1] === 0xd8 &&
  b[2] === 0xff &&
  b[b.length - 2] === 0xff &&
  b[b.length - 1] === 0xd9;

/** Largest snapshot read (a 4K JPEG is well under). */
const maxSnapshotBytes = 8 * 1024 * 1024;

/** One frame of the stream as a JPEG, or why there is none. */
export const snapshotJpeg = async (url: string): Promise<{ jpeg: Buffer } | { reason: string }> => {
  const r = await run(
    ffmpegBin,
    [...rtspInput(url), '-an', '-frames:v', '1', '-q:v', '4', '-f', 'image2', '-c:v', 'mjpeg', 'pipe:1'],
    maxSnapshotBytes,
  );
  if (r.code !== 0) return { reason: reasonOf(r) };
  return { jpeg: r.stdout };
};
