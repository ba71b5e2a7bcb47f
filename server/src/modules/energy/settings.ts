import {
  type MeterCategory,
  type MeterInput,
  type MeterRow,
  type TariffInput,
  type TariffMode,
  type TariffRow,
  tariffInput,
} from '@sitewatch/contract/energy';
import { readJson } from '../../db/json.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { EnergyRepository } from './repository.ts';
import { tariffProblems } from './tariff.ts';

type Allowed = number[] | null;

/** Which sites a caller's query covers: a site with its sub-sites, within the allowed ones. */
export const siteScope = (repo: EnergyRepository) => {
  /** The site and its sub-sites, within the allowed ones (all allowed sites without a site). */
  const scope = async (siteId: number | undefined, allowed: Allowed): Promise<Allowed> => {
    if (siteId === undefined) return allowed;
    const sites = await repo.sites();
    const found = new Set<number>([siteId]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const s of sites)
        if (found.has(s.parent_id) && !found.has(s.id)) {
          found.add(s.id);
          grew = true;
        }
    }
    return [...found].filter((id) => allowed === null || allowed.includes(id));
  };
  const visible = (siteId: number, allowed: Allowed) => allowed === null || allowed.includes(siteId);
  return { scope, visible };
};

/** A stored tariff as the contract answers it. */
export const tariffRow = (t: NonNullable<Awaited<ReturnType<EnergyRepository['tariff']>>>): TariffRow => {
  const parsed = tariffInput.parse({
    name: t.name,
    summer_months: readJson(t.summer_months, { parse: (v: unknown) => v as number[] }, []),
    gradients: readJson(t.gradients, { parse: (v: unknown) => v as TariffInput['gradients'] }, []),
    slots: readJson(t.slots, { parse: (v: unknown) => v as TariffInput['slots'] }, []),
  });
  return { id: t.id, mode: t.mode as TariffMode, ...parsed };
};

export interface SettingsDeps {
  repo: EnergyRepository;
  now: () => number;
  scope: (siteId: number | undefined, allowed: Allowed) => Promise<Allowed>;
  visible: (siteId: number, allowed: Allowed) => boolean;
  /** A meter read another way: its stored energy is computed again. */
  forget?: ((meterId: number) => Promise<void>) | undefined;
}

/** Meters, tariffs and the tariff in force per site (setting/energy, the tariff calls, energy_cost_set). */
export const createEnergySettings = ({ repo, now, scope, visible, forget }: SettingsDeps) => {
  const toMeterRow = (m: Awaited<ReturnType<EnergyRepository['meters']>>[number]): MeterRow => ({
    id: m.id,
    name: m.name,
    item_id: m.item_id,
    item_name: m.item_name,
    device_id: m.device_id,
    device_name: m.device_name,
    kind: m.kind as MeterRow['kind'],
    category: m.category as MeterCategory,
    device_group_id: m.device_group_id,
    device_group_name: m.device_group_name ?? '',
    measure_point: m.measure_point as MeterRow['measure_point'],
    rollover_at: m.rollover_at === null ? null : Number(m.rollover_at),
    max_power_kw: m.max_power_kw === null ? null : Number(m.max_power_kw),
  });

  const checkMeter = async (input: MeterInput, allowed: Allowed, selfId?: number) => {
    const itemSite = await repo.itemSite(input.item_id);
    if (itemSite === undefined || !visible(itemSite, allowed)) throw notFound('energy.itemNotFound');
    if (!(await repo.siteExists(input.device_group_id)) || !visible(input.device_group_id, allowed))
      throw notFound('energy.siteNotFound');
    const other = await repo.meterOfItem(input.item_id);
    if (other && other.id !== selfId) throw conflict('energy.itemIsMeter');
    return {
      name: input.name,
      item_id: input.item_id,
      kind: input.kind,
      category: input.category,
      device_group_id: input.device_group_id,
      measure_point: input.category === 'it' ? (input.measure_point ?? 'ups_output') : null,
      rollover_at: input.rollover_at,
      max_power_kw: input.max_power_kw,
    };
  };
  const ownMeter = async (id: number, allowed: Allowed) => {
    const m = await repo.meter(id);
    if (!m || !visible(m.device_group_id, allowed)) throw notFound('energy.meterNotFound');
    return m;
  };

  const checkTariff = async (mode: TariffMode, input: TariffInput, selfId?: number) => {
    const problems = tariffProblems(mode, input);
    if (problems.length > 0)
      throw badRequest(
        problems[0]!.key,
        {},
        problems.map((p) => ({ path: p.path, message: p.key })),
      );
    const same = await repo.tariffNamed(input.name);
    if (same && same.id !== selfId)
      throw badRequest('energy.validation.nameTaken', {}, [{ path: 'name', message: 'energy.validation.nameTaken' }]);
    return {
      name: input.name,
      summer_months: JSON.stringify([...new Set(input.summer_months)].sort((a, b) => a - b)),
      gradients: JSON.stringify(input.gradients),
      slots: JSON.stringify(input.slots),
      updated_at: now(),
    };
  };

  return {
    async meters(q: { device_group_id?: number | undefined }, allowed: Allowed): Promise<MeterRow[]> {
      return (await repo.meters(await scope(q.device_group_id, allowed))).map(toMeterRow);
    },
    async createMeter(input: MeterInput, allowed: Allowed): Promise<MeterRow> {
      const row = await checkMeter(input, allowed);
      const id = await repo.insertMeter({ ...row, created_at: now() });
      return toMeterRow((await repo.meter(id))!);
    },
    async updateMeter(id: number, input: MeterInput, allowed: Allowed): Promise<MeterRow> {
      const before = await ownMeter(id, allowed);
      const row = await checkMeter(input, allowed, id);
      await repo.updateMeter(id, row);
      const reading = (m: { item_id: number; kind: string; rollover_at: unknown; max_power_kw: unknown }) =>
        `${m.item_id}|${m.kind}|${m.rollover_at === null ? '' : Number(m.rollover_at)}|${m.max_power_kw === null ? '' : Number(m.max_power_kw)}`;
      if (reading(before) !== reading(row)) await forget?.(id);
      return toMeterRow((await repo.meter(id))!);
    },
    async removeMeter(id: number, allowed: Allowed) {
      const m = await ownMeter(id, allowed);
      await repo.deleteMeter(id);
      return m.name;
    },

    async tariffs(mode: TariffMode) {
      return (await repo.tariffs(mode)).map(tariffRow);
    },
    async createTariff(mode: TariffMode, input: TariffInput) {
      const row = await checkTariff(mode, input);
      const id = await repo.insertTariff({ ...row, mode });
      return tariffRow((await repo.tariff(id))!);
    },
    async updateTariff(mode: TariffMode, id: number, input: TariffInput) {
      const t = await repo.tariff(id);
      if (!t || t.mode !== mode) throw notFound('energy.tariffNotFound');
      await repo.updateTariff(id, await checkTariff(mode, input, id));
      return tariffRow((await repo.tariff(id))!);
    },
    async removeTariff(mode: TariffMode, id: number) {
      const t = await repo.tariff(id);
      if (!t || t.mode !== mode) throw notFound('energy.tariffNotFound');
      if (await repo.tariffInUse(id)) throw conflict('energy.tariffInUse');
      await repo.deleteTariff(id);
      return t.name;
    },
    async costSets(q: { device_group_id?: number | undefined }, allowed: Allowed) {
      return (await repo.tariffSets(await scope(q.device_group_id, allowed))).map((s) => ({
        ...s,
        valid_from: Number(s.valid_from),
      }));
    },
    async setCost(siteId: number, input: { tariff_id: number; valid_from: number }, allowed: Allowed) {
      if (!visible(siteId, allowed) || !(await repo.siteExists(siteId))) throw notFound('energy.siteNotFound');
      if (!(await repo.tariff(input.tariff_id))) throw notFound('energy.tariffNotFound');
      await repo.setTariff(siteId, input.tariff_id, input.valid_from);
      const sets = await repo.tariffSets([siteId]);
      const s = sets.find((x) => Number(x.valid_from) === input.valid_from)!;
      return { ...s, valid_from: Number(s.valid_from) };
    },
  };
};
