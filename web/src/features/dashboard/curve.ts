import { type CurveRange, curveWindow } from '@sitewatch/contract';
import { queryOptions } from '@tanstack/react-query';
import { curveRefreshMs, fetchTrend, type TrendPoint } from './api.ts';

/** One decimal for temperature and humidity (000 §9). */
export const oneDecimal = (v: number) => Math.round(v * 10) / 10;

/** Mean of the points in each `intervalS` bucket, at the bucket's start. */
export const binMeans = (points: TrendPoint[], intervalS: number): TrendPoint[] => {
  const bins = new Map<number, { sum: number; n: number }>();
  for (const p of points) {
    const at = Math.floor(p.ts / intervalS) * intervalS;
    const b = bins.get(at) ?? { sum: 0, n: 0 };
    b.sum += p.value;
    b.n += 1;
    bins.set(at, b);
  }
  return [...bins.entries()].sort((a, b) => a[0] - b[0]).map(([ts, b]) => ({ ts, value: b.sum / b.n }));
};

/** The trend call answers at most 1000 points (500 buckets): a read this long keeps buckets within `intervalS`. */
export const chunkSeconds = (intervalS: number) => 500 * intervalS;

export interface CurveRequest {
  deviceName: string;
  range: CurveRange;
  /** The week's sub-choice in seconds (120 or 3600); other ranges ignore it. */
  weekInterval: 120 | 3600;
  custom?: { t1: number; t2: number } | undefined;
  nowMs: number;
}

/** Reads one item's curve for a range: as the store gives it, or in the week's chosen intervals. */
export const readCurve = async (req: CurveRequest, itemName: string): Promise<Array<[number, number]>> => {
  const { t1, t2 } = curveWindow(req.range, req.nowMs, req.custom);
  let points: TrendPoint[];
  if (req.range === 2) {
    const step = chunkSeconds(req.weekInterval);
    const reads: Array<Promise<TrendPoint[]>> = [];
    for (let a = t1; a < t2; a += step) reads.push(fetchTrend(req.deviceName, itemName, a, Math.min(t2, a + step)));
    points = binMeans((await Promise.all(reads)).flat(), req.weekInterval);
  } else {
    points = await fetchTrend(req.deviceName, itemName, t1, t2);
  }
  return points.map((p) => [p.ts * 1000, oneDecimal(p.value)]);
};

/**
 * The curve's temperature and humidity reads for a device and range (000 §2.6): the panel's query,
 * and the one the start of the app asks for with the environment read (prefetch.ts).
 */
export const curveQuery = (choice: Omit<CurveRequest, 'nowMs'>) =>
  queryOptions({
    queryKey: ['home', 'curve', choice.deviceName, choice.range, choice.weekInterval, choice.custom],
    queryFn: async () => {
      const req = { ...choice, nowMs: Date.now() };
      const [temp, hum] = await Promise.all([readCurve(req, 'TEMP'), readCurve(req, 'HUM')]);
      return { temp, hum };
    },
    refetchInterval: curveRefreshMs,
    retry: 0,
  });

/** The curve the panel shows first: the first device of the environment answer, the last 4 hours. */
export const firstCurve = (deviceName: string) => curveQuery({ deviceName, range: 0, weekInterval: 3600 });
