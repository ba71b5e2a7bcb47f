import { z } from 'zod';

/** Fields the energy contract's files share (energy.ts, energy-tariffs.ts). */

/** A validation message's key under `energy.validation`. */
export const msg = (key: string) => `energy.validation.${key}`;
export const id = z.coerce.number().int().min(1).max(2_147_483_647);
export const epoch = z.coerce.number().int().min(0).max(32_503_680_000);
/** A meter's or a tariff's name. */
export const recordName = z
  .string()
  .trim()
  .min(1, { message: msg('name') })
  .max(100, { message: msg('tooLong') });
