/**
 * What Sitewatch asks of a door controller, whatever protocol it speaks (docs/door-access.md,
 * "The controller interface"). One adapter per protocol implements it; the conformance suite
 * (`server/test/door-conformance.int.test.ts`) runs the same cases against each adapter and its
 * simulator. Card numbers and PINs cross this interface as numbers: no adapter logs them.
 */

/** The mode a door's lock runs in: the controller's own rule, not a one-off open. */
export type DoorMode = 'normallyOpen' | 'normallyClosed' | 'controlled';

/** A door's permission on a card: false none, true any time, a number a time profile (2..254). */
export type DoorPermission = boolean | number;

export interface ControllerCard {
  /** The raw number the reader sends (0 < n < 2^32). */
  card: number;
  /** Validity, local dates `YYYY-MM-DD` (inclusive). */
  from: string;
  to: string;
  /** Door number (1..4) → permission; a door not named has none. */
  doors: Record<number, DoorPermission>;
  /** Keypad PIN (0..999999), 0 for none. */
  pin: number;
}

export interface ControllerInfo {
  serial: number;
  address: string;
  netmask: string;
  gateway: string;
  mac: string;
  /** Firmware version as the controller reports it (`v6.62`). */
  firmware: string;
  /** Firmware date `YYYY-MM-DD`. */
  released: string;
  /** Doors it drives. */
  doors: number;
}

export type DoorEventKind = 'swipe' | 'door' | 'alarm' | 'none' | 'unknown';

export interface DoorEvent {
  /** The controller's own event index (1, 2, ...). */
  index: number;
  kind: DoorEventKind;
  granted: boolean;
  door: number;
  direction: 'in' | 'out' | 'unknown';
  card: number;
  /** Local time on the controller `YYYY-MM-DD HH:mm:ss`, null when it sent none. */
  time: string | null;
  /** The controller's reason code (uhppoted's table: 1 swipe, 6 no access rights, 20 push button, 38 forced open ...). */
  reason: number;
}

/** What an event index names when it is asked for. */
export type EventRead =
  | { index: number; status: 'ok'; event: DoorEvent }
  /** The ring already overwrote it: a gap, shown as one. */
  | { index: number; status: 'overwritten' }
  /** Past the last event recorded. */
  | { index: number; status: 'missing' };

export interface ControllerStatus {
  serial: number;
  /** Door number → open (the door sensor). */
  doorsOpen: Record<number, boolean>;
  buttons: Record<number, boolean>;
  /** The controller's clock, `YYYY-MM-DD HH:mm:ss`. */
  time: string | null;
  /** The last event it recorded, when it has one. */
  lastEvent: DoorEvent | null;
  /** Its own fault code (0 none). */
  fault: number;
}

export interface DoorController {
  /** Who answers at the configured address, with the facts of its hardware. */
  probe(): Promise<ControllerInfo>;
  status(): Promise<ControllerStatus>;
  /** Opens a door once (the lock's delay decides how long). True when the controller says it did. */
  openDoor(door: number): Promise<boolean>;
  setDoorMode(door: number, mode: DoorMode, delaySeconds: number): Promise<{ mode: DoorMode; delaySeconds: number }>;
  getDoorMode(door: number): Promise<{ mode: DoorMode; delaySeconds: number }>;
  putCard(card: ControllerCard): Promise<boolean>;
  deleteCard(card: number): Promise<boolean>;
  deleteAllCards(): Promise<boolean>;
  /** Every card the controller holds, in its own order. */
  listCards(): Promise<ControllerCard[]>;
  getCard(card: number): Promise<ControllerCard | null>;
  /** Sets its clock (local time `YYYY-MM-DD HH:mm:ss`). */
  setTime(local: string): Promise<string>;
  getTime(): Promise<string>;
  /** The index of the last event it recorded (0 when none). */
  lastEventIndex(): Promise<number>;
  event(index: number): Promise<EventRead>;
  /** Events it pushes as they happen (the WG listener, ISAPI's alert stream, ZKTeco's POST); returns an unsubscribe. */
  subscribe(onEvent: (event: DoorEvent) => void): () => void;
  close(): Promise<void>;
}

/** Thrown by an adapter when the controller does not answer, or answers with something it refuses. */
export class ControllerError extends Error {
  constructor(
    readonly code: 'timeout' | 'refused' | 'closed' | 'bad_frame',
    message: string,
  ) {
    super(message);
    this.name = 'ControllerError';
  }
}
