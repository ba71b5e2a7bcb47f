/**
 * Electrical quality from a power meter's items (docs/energy.md "Electrical quality"). Pure.
 * Unbalance follows NEMA MG-1 (as GB/T practice reads magnitudes): the largest deviation from the
 * mean of the three values, over the mean, in %. Meters give magnitudes only, so the IEC
 * negative/positive-sequence VUF is computed from the three line voltages by the CIGRÉ formula.
 */

/** NEMA unbalance (%) of three phase magnitudes (voltages or currents); null when the mean is 0. */
export const unbalance = (a: number, b: number, c: number): number | null => {
  const mean = (a + b + c) / 3;
  if (!(mean > 0)) return null;
  return (Math.max(Math.abs(a - mean), Math.abs(b - mean), Math.abs(c - mean)) / mean) * 100;
};

/** IEC voltage unbalance factor V2/V1 (%) from the three line voltages (CIGRÉ). */
export const vufFromLineVoltages = (ab: number, bc: number, ca: number): number | null => {
  const s2 = ab ** 2 + bc ** 2 + ca ** 2;
  if (!(s2 > 0)) return null;
  const beta = (ab ** 4 + bc ** 4 + ca ** 4) / s2 ** 2;
  const root = Math.sqrt(Math.max(0, 3 - 6 * beta));
  return Math.sqrt(Math.max(0, (1 - root) / (1 + root))) * 100;
};

/** True power factor P / S from total active (kW) and apparent power (kVA); null without S. */
export const powerFactor = (p: number, s: number): number | null => (s > 0 ? Math.min(1, Math.abs(p) / s) : null);

/** Power factor from P and Q when the meter gives no S: P / √(P² + Q²), signed by Q (negative: leading). */
export const powerFactorPQ = (p: number, q: number): number | null => {
  const s = Math.hypot(p, q);
  if (s === 0) return null;
  return (Math.abs(p) / s) * (q < 0 ? -1 : 1);
};

/** THD (%) from harmonic magnitudes: √(Σ h≥2 Vh²) / V1. Most meters give THD directly. */
export const thd = (fundamental: number, harmonics: number[]): number | null =>
  fundamental > 0 ? (Math.sqrt(harmonics.reduce((s, v) => s + v * v, 0)) / fundamental) * 100 : null;

/** Frequency deviation from 50 Hz and whether it is inside GB/T 15945's ±0.2 Hz. */
export const frequencyCheck = (hz: number, nominal = 50, band = 0.2) => ({
  deviation: hz - nominal,
  ok: Math.abs(hz - nominal) <= band + 1e-9,
});
