import { realTimers } from '../../src/clock/timers.ts';
import { localTime } from '../../src/modules/door-access/service.ts';
import { startWgSimulator, type WgSimulator } from '../../src/modules/door-access/wg/simulator.ts';
import type { Example } from './route-examples.ts';
import type { Side } from './site-estate.ts';

/**
 * The working calls of the door-access routes (issue 34; docs/door-access.md), beside
 * route-examples.ts's catalogue, which spreads them in. Every controller the estate makes points at
 * one WG simulator on loopback that answers any serial (started once per test file), so a sync or a
 * remote open gets its answer at once.
 */
let sim: Promise<WgSimulator> | null = null;
export const doorSimulator = () => {
  sim ??= startWgSimulator({ serial: 1, anySerial: true, timers: realTimers, now: () => localTime(Date.now()) });
  return sim;
};

let serials = 500_000;
let cards = 700_000;
export const nextDoorSerial = () => ++serials;
export const nextCardNumber = () => ++cards;

export const doorController = (s: Side, port: number) => ({
  name: `${s.label}door controller ${serials}`,
  device_group_id: s.site,
  brand: 'UHPPOTE',
  model: 'UTO311-L02',
  serial: nextDoorSerial(),
  address: '127.0.0.1',
  port,
  doors: [
    { number: 1, nickname: `${s.label}front`, direction: 'in' },
    { number: 2, nickname: `${s.label}back`, direction: 'out' },
  ],
});

export const doorCard = (s: Side, doors: number[] = []) => ({
  number: nextCardNumber(),
  format: 'wiegand34',
  device_group_id: s.site,
  holder: `${s.label}holder`,
  gender: 'female',
  department: `${s.label}ops`,
  job_number: 'J-1',
  valid_from: '2026-01-01',
  valid_to: '2027-12-31',
  pin: 0,
  doors: doors.map((door_id) => ({ door_id, profile: 0 })),
});

const prepare = async () => ({ port: (await doorSimulator()).port });

export const doorAccessRoutes: Record<string, Example> = {
  'POST /api/v1/access_control/device': {
    table: 'door_controllers',
    prepare,
    body: (s, _e, p) => doorController(s, Number(p.port)),
  },
  'PUT /api/v1/access_control/device/:id': {
    table: 'door_controllers',
    prepare,
    body: (s, _e, p) => doorController(s, Number(p.port)),
  },
  'DELETE /api/v1/access_control/device/:id': { table: 'door_controllers', fresh: true },
  'POST /api/v1/access_control/card': {
    table: 'door_cards',
    body: (s) => doorCard(s, s.rows.door_doors ? [s.rows.door_doors] : []),
  },
  'PUT /api/v1/access_control/card/:id': {
    table: 'door_cards',
    body: (s) => doorCard(s, s.rows.door_doors ? [s.rows.door_doors] : []),
  },
  'DELETE /api/v1/access_control/card/:id': { table: 'door_cards', fresh: true },
  'POST /api/v1/access_control/copy': {
    table: 'door_cards',
    body: (s) => ({ from_card_id: s.rows.door_cards, to_card_ids: [s.rows.door_cards] }),
  },
  'PUT /api/v1/access_control/permission/:id': {
    table: 'door_doors',
    body: (s) => ({ cards: s.rows.door_cards ? [{ card_id: s.rows.door_cards, profile: 0 }] : [] }),
  },
  'POST /api/v1/access_control/log_sync': {
    table: 'door_controllers',
    prepare,
    body: (s) => ({ controller_id: s.rows.door_controllers }),
  },
  'POST /api/v1/access_control/ctrl': {
    table: 'door_doors',
    prepare,
    body: (s, e) => ({ door_id: s.rows.door_doors, action: 'open', verify_password: e.encrypt(e.password) }),
  },
  // The notifications config and the options are the installation's (global, as contact groups are):
  // keys of module_settings.
  'PUT /api/v1/access_control/contact': {
    table: 'module_settings',
    needs: ['contact_groups'],
    body: (_s, e) => ({ kind: 'forced', contact_group_id: e.globals.contact_groups }),
  },
  'POST /api/v1/access_control/toggle': { table: 'module_settings', body: () => ({ kind: 'invalid', enabled: true }) },
  'PUT /api/v1/access_control/option': {
    table: 'module_settings',
    body: () => ({ sync_seconds: 60, held_open_seconds: 0 }),
  },
};
