/**
 * The alarm sound: a two-tone beep made here as a WAV (no downloaded file), looped by an audio
 * element until the alarm is confirmed (000 §4.7, §6).
 */
export const makeAlarmWav = (sampleRate = 8000): Uint8Array<ArrayBuffer> => {
  const seconds = 1;
  const n = sampleRate * seconds;
  const data = new Uint8Array(new ArrayBuffer(44 + n));
  const view = new DataView(data.buffer);
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + n, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true); // 8-bit
  text(36, 'data');
  view.setUint32(40, n, true);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    // 0–0.25 s 880 Hz, 0.3–0.55 s 660 Hz, then silence.
    const f = t < 0.25 ? 880 : t >= 0.3 && t < 0.55 ? 660 : 0;
    const v = f ? Math.sin(2 * Math.PI * f * t) * 0.6 : 0;
    data[44 + i] = Math.round(128 + v * 127);
  }
  return data;
};

let url: string | null = null;
/** An object URL of the alarm WAV, made once. */
export const alarmSoundUrl = (): string => {
  url ??= URL.createObjectURL(new Blob([makeAlarmWav()], { type: 'audio/wav' }));
  return url;
};
