import type { Generated } from 'kysely';

/** Tables of the video area (migration 0033-video), joined into `Database` in schema.ts. */
export interface VideoTables {
  video_devices: {
    id: Generated<number>;
    name: string;
    brand: string;
    protocol: string;
    /** 1 recorder (NVR), 2 camera. */
    type: number;
    ip_address: string;
    port: number;
    user: string;
    /** JSON `{password}`, the password sealed at rest (the area's `secrets`). */
    secret: string;
    device_group_id: number;
    /** JSON list of `{channel_no, name, main_stream, sub_stream}`. */
    channels: string;
    enable: number;
    state: string;
    state_reason: string;
    state_since: number;
    video_codec: string;
    audio_codec: string;
    updated_at: number;
  };
}
