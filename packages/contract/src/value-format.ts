/**
 * How a measured value is shown (station, device details, data list, item list): with the item's
 * display decimals when it has them ("230.100006" with 2 → "230.10"), as read otherwise, or with at
 * most `maxDecimals` where a page rounds values it shows without a setting. Only the text is
 * rounded: stored values, alarms and exports keep the value as read. The web shows values with it,
 * and alarm notices fill their {value} with it.
 */
export const formatValue = (
  value: number | null | undefined,
  options: { decimals?: number | null | undefined; unit?: string | undefined; maxDecimals?: number } = {},
): string => {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const { decimals, unit, maxDecimals } = options;
  let text: string;
  if (decimals !== null && decimals !== undefined) text = value.toFixed(decimals);
  else if (maxDecimals !== undefined) text = String(Math.round(value * 10 ** maxDecimals) / 10 ** maxDecimals);
  else text = String(value);
  // A small negative value rounded to zero is shown as 0, not -0.00.
  if (/^-0(\.0*)?$/.test(text)) text = text.slice(1);
  return unit ? `${text} ${unit}` : text;
};
