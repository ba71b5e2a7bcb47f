import type { Generated } from 'kysely';

/** Tables of door access (migration 0034-door-access; docs/door-access.md), joined into `Database` in schema.ts. */
export interface DoorAccessTables {
  door_controllers: {
    id: Generated<number>;
    name: string;
    device_group_id: number;
    brand: string;
    model: string;
    protocol: string;
    serial: number;
    address: string;
    port: number;
    /** 1 while it answers; set by the sync. */
    online: number;
    /** The last event index the log holds (the next sync reads after it). */
    last_event_index: number;
    created_at: number;
    updated_at: number;
  };
  door_doors: {
    id: Generated<number>;
    controller_id: number;
    device_group_id: number;
    number: number;
    nickname: string;
    direction: string;
  };
  door_cards: {
    id: Generated<number>;
    number: number;
    format: string;
    device_group_id: number;
    holder: string;
    gender: string;
    department: string;
    job_number: string;
    valid_from: string;
    valid_to: string;
    pin: number;
    updated_at: number;
  };
  door_permissions: {
    id: Generated<number>;
    card_id: number;
    door_id: number;
    device_group_id: number;
    profile: number;
  };
  door_logs: {
    id: Generated<number>;
    controller_id: number;
    device_group_id: number;
    event_index: number;
    kind: string;
    granted: number;
    door: number;
    direction: string;
    card: number;
    /** Epoch seconds (the controller's local time read in the server's zone). */
    time: number;
    reason: number;
    /** For a gap: the last index the controller's ring overwrote. */
    gap_to: number | null;
  };
}
