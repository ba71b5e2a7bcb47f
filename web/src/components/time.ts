import dayjs from 'dayjs';

/** How every time is shown (000 §3): `YYYY-MM-DD HH:mm:ss` on the reader's clock, in every language. */
/** Minutes east of UTC of this browser's clock, so that exported times read as on screen. */
export const tzOffset = () => -new Date().getTimezoneOffset();

export const timeFormat = 'YYYY-MM-DD HH:mm:ss';

/** Epoch seconds as `YYYY-MM-DD HH:mm:ss`; `empty` for no time (null, undefined or 0). */
export const formatTime = (seconds: number | null | undefined, empty = '—'): string =>
  seconds ? dayjs.unix(seconds).format(timeFormat) : empty;
