import { videoRoutes as r } from '@sitewatch/contract/video';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';

/** 001 §9: at most 5 reconnects, 1 s apart; default size 360x200. */
export const maxReconnects = 5;
export const reconnectMs = 1000;
/** Behind the live edge by more than this (s): play faster; by more than `jumpBehindS`: jump. */
const catchUpS = 1.5;
const jumpBehindS = 5;
/** Buffer kept behind the playhead (s); older media is removed so the SourceBuffer never fills. */
const keepS = 10;

type Status = 'connecting' | 'playing' | 'offline' | 'failed';

/**
 * Plays a channel live (docs/video.md, "Live view"): GET /preview for the socket path and its
 * ticket, then /ws/live: a byte-9 message with the codec list opens the SourceBuffer, then the init
 * segment and fragments are appended in order. Stays near the live edge (faster playback, or a jump,
 * when behind; a jump when the tab comes back), trims its buffer, and reconnects at most 5 times 1 s
 * apart. A channel without preview shows 设备离线状态！ and connects nothing.
 */
export const LiveVideo = ({
  deviceId,
  channelNo,
  preview = true,
  width = 360,
  height = 200,
}: {
  deviceId: number;
  channelNo: number;
  /** Capacity.Preview of the channel. */
  preview?: boolean;
  width?: number | string;
  height?: number | string;
}) => {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<Status>('connecting');
  const [error, setError] = useState('');

  useEffect(() => {
    if (!preview) {
      setStatus('offline');
      return;
    }
    const el = video.current;
    if (!el) return;
    let stopped = false;
    let attempts = 0;
    let ws: WebSocket | null = null;
    let liveId = '';
    let retry: ReturnType<typeof setTimeout> | undefined;
    let edge: ReturnType<typeof setInterval> | undefined;
    let source: MediaSource | null = null;
    let url = '';

    const release = () => {
      if (!liveId) return;
      const id = liveId;
      liveId = '';
      void api.call(r.release, { body: { DeviceID: deviceId, LiveID: id } }).catch(() => undefined);
    };
    const toEdge = () => {
      const b = el.buffered;
      if (b.length === 0) return;
      const end = b.end(b.length - 1);
      const behind = end - el.currentTime;
      if (behind > jumpBehindS || el.currentTime < b.start(b.length - 1)) el.currentTime = Math.max(end - 0.3, 0);
      el.playbackRate = behind > catchUpS ? 1.25 : 1;
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') toEdge();
    };

    const connect = async () => {
      setStatus('connecting');
      let path: string;
      try {
        const p = await api.call(r.preview, { query: { DeviceID: deviceId, ChannelNo: channelNo, Quality: 2 } });
        path = p.Url;
        liveId = p.LiveID;
      } catch (err) {
        return fail((err as Error).message);
      }
      if (stopped) return release();
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      ws = new WebSocket(`${proto}//${location.host}${path}`);
      ws.binaryType = 'arraybuffer';
      let buffer: SourceBuffer | null = null;
      const queue: ArrayBuffer[] = [];
      const pump = () => {
        if (!buffer || buffer.updating || queue.length === 0) return;
        const b = el.buffered;
        if (b.length && el.currentTime - b.start(0) > keepS * 2) {
          buffer.remove(b.start(0), el.currentTime - keepS);
          return;
        }
        try {
          buffer.appendBuffer(queue.shift()!);
        } catch (err) {
          ws?.close();
          fail((err as Error).message);
        }
      };
      ws.onmessage = (m) => {
        const data = m.data as ArrayBuffer;
        const bytes = new Uint8Array(data);
        if (bytes[0] === 9) {
          // A codec message: a (new) stream starts; a new MediaSource for it.
          const codecs = new TextDecoder().decode(bytes.subarray(1));
          const mime = `video/mp4; codecs="${codecs}"`;
          if (!MediaSource.isTypeSupported(mime)) return fail(t('videoUi.codecUnsupported', { codecs }));
          queue.length = 0;
          source = new MediaSource();
          if (url) URL.revokeObjectURL(url);
          url = URL.createObjectURL(source);
          el.src = url;
          source.addEventListener(
            'sourceopen',
            () => {
              buffer = source!.addSourceBuffer(mime);
              buffer.mode = 'segments';
              buffer.addEventListener('updateend', pump);
              pump();
            },
            { once: true },
          );
          return;
        }
        queue.push(data);
        pump();
        if (el.paused) void el.play().catch(() => undefined);
        attempts = 0;
        setStatus('playing');
      };
      ws.onclose = () => {
        if (stopped) return;
        release();
        if (attempts >= maxReconnects) return fail(t('videoUi.loadFailed'));
        attempts++;
        setStatus('connecting');
        retry = setTimeout(() => void connect(), reconnectMs);
      };
    };
    const fail = (text: string) => {
      setError(text);
      setStatus('failed');
    };

    edge = setInterval(toEdge, 1000);
    document.addEventListener('visibilitychange', onVisible);
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(edge);
      document.removeEventListener('visibilitychange', onVisible);
      if (ws) {
        ws.onclose = null;
        ws.close();
      }
      release();
      if (url) URL.revokeObjectURL(url);
    };
  }, [deviceId, channelNo, preview, t]);

  return (
    <div
      style={{ width, height, position: 'relative', background: '#000', color: '#fff' }}
      data-testid={`live-${deviceId}-${channelNo}`}
      data-status={status}
    >
      <video ref={video} muted playsInline autoPlay style={{ width: '100%', height: '100%', objectFit: 'contain' }} />
      {status !== 'playing' && (
        <div
          style={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            textAlign: 'center',
            padding: 8,
          }}
        >
          {status === 'offline' ? t('videoUi.offline') : status === 'failed' ? error : t('videoUi.connecting')}
        </div>
      )}
    </div>
  );
};
