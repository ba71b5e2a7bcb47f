import dayjs from 'dayjs';

/** How every time is shown (000 §3): `YYYY-MM-DD HH:mm:ss` on the reader's clock, in every language. */
export const timeFormat = 'YYYY-MM-DD HH:mm:ss';

/** Epoch seconds as `YYYY-MM-DD HH:mm:ss`; `empty` for no time (null, undefined or 0). */
export const formatTime = (seconds: number | null | undefined, empty = '—'): string =>
  seconds ? dayjs.unix(seconds).format(timeFormat) : empty;
