import type { Generated } from 'kysely';

/** Tables of schedules, inspection and duty (migration 0017-inspection-duty); times epoch seconds. */
export interface InspectionDutyTables {
  scheduled_tasks: {
    id: Generated<number>;
    kind: string;
    ref_id: number;
    rule: string;
    anchor: number;
    /** null: no run left (a `once` done). */
    next_run: number | null;
    last_run: number | null;
    runs: Generated<number>;
  };
  inspection_plans: {
    id: Generated<number>;
    name: string;
    /** JSON list of site ids (their sub-sites included). */
    device_group_ids: string;
    rule: string;
    start_time: number;
    enable: number;
    created_at: number;
  };
  inspection_reports: {
    id: Generated<number>;
    kind: string;
    plan_id: number | null;
    inspector_id: number;
    inspector: string;
    reviewer_id: number | null;
    reviewer: Generated<string>;
    /** 0 waiting to review, 1 passed, 2 failed. */
    status: number;
    device_group_ids: string;
    /** JSON list of the items checked with the values captured at that moment. */
    content: string;
    summary: string;
    review_comment: Generated<string>;
    items: number;
    abnormal: number;
    created_at: number;
    reviewed_at: number | null;
  };
  module_settings: { k: string; v: string; updated_at: number };
  /** device_group_id: the site whose shift it is; null: every site (migration 0026). */
  duty_shifts: { id: Generated<number>; name: string; start: string; end: string; device_group_id: number | null };
  duty_rotations: {
    id: Generated<number>;
    shift_id: number;
    contact_ids: string;
    start_date: string;
    weeks: number;
    horizon_weeks: number;
  };
  duty_table: {
    id: Generated<number>;
    date: string;
    shift_id: number;
    contact_id: number;
    rotation_id: number | null;
    override: number;
    start_at: number;
    end_at: number;
  };
  duty_memos: {
    id: Generated<number>;
    date: string;
    content: string;
    user_id: number;
    user_name: string;
    created_at: number;
    /** The site it is about; null: its author's own note (migration 0026). */
    device_group_id: number | null;
  };
  duty_handovers: {
    id: Generated<number>;
    shifter_id: number;
    shifter: string;
    successor_id: number;
    successor: string;
    events: string;
    /** 0 waiting for the successor, 1 confirmed. */
    status: number;
    handover_time: number;
    confirmed_at: number | null;
    /** The site handed over; null: only its two people see it (migration 0026). */
    device_group_id: number | null;
  };
}
