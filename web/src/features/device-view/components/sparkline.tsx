/** A small line of a series' points (no axes): enough to see a trend and spikes at a glance. */
export const Sparkline = ({
  points,
  width = 480,
  height = 120,
}: {
  points: Array<{ ts: number; value: number }>;
  width?: number;
  height?: number;
}) => {
  if (points.length < 2) return <svg width={width} height={height} role="img" aria-hidden="true" />;
  const t0 = points[0]!.ts;
  const t1 = points[points.length - 1]!.ts;
  const values = points.map((p) => p.value);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const x = (ts: number) => ((ts - t0) / Math.max(1, t1 - t0)) * (width - 8) + 4;
  const y = (v: number) => height - 4 - ((v - lo) / Math.max(1e-9, hi - lo)) * (height - 8);
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.ts).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  return (
    <svg width={width} height={height} role="img" aria-hidden="true">
      <path d={d} fill="none" stroke="#1677ff" strokeWidth={1.5} />
    </svg>
  );
};
