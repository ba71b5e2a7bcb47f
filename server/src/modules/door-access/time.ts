/** Controller local time `YYYY-MM-DD HH:mm:ss` ↔ epoch seconds, in the server's zone (TZ). */
export const localTime = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};
export const epochOfLocal = (local: string) => {
  const [date = '', time = ''] = local.split(' ');
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi, s] = time.split(':').map(Number) as [number, number, number];
  return Math.floor(new Date(y, m - 1, d, h, mi, s).getTime() / 1000);
};
