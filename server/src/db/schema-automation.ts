import type { Generated } from 'kysely';

/** Tables of automation (migration 0032-automation; docs/automation.md), joined into `Database` in schema.ts. */
export interface AutomationTables {
  automation_actions: {
    id: Generated<number>;
    name: string;
    device_group_id: number;
    /** custom, air_conditioner, light, dehumidifier, sound_light, switch, temp_hum */
    preset: string;
    /** JSON list of `{kind, command, params}`. */
    commands: string;
    remark: string;
    updated_at: number;
  };
  /** Every run of an action and each command's result. */
  automation_runs: {
    id: Generated<number>;
    action_id: number;
    action_name: string;
    device_group_id: number;
    trigger: string;
    trigger_id: number;
    dry_run: number;
    ok: number;
    time: number;
    user_name: string;
    /** JSON list of `{kind, description, ok, detail}`. */
    results: string;
  };
  automation_linkages: {
    id: Generated<number>;
    name: string;
    device_group_id: number;
    enable: number;
    match: string;
    /** JSON list of `{item_id, op, value}`. */
    conditions: string;
    hold_seconds: number;
    period_id: number;
    action_id: number;
    recovery_action_id: number;
    last_fired: number | null;
    updated_at: number;
  };
  automation_tasks: {
    id: Generated<number>;
    name: string;
    device_group_id: number;
    enable: number;
    action_id: number;
    repeat: string;
    start: number;
    cron: string;
    /** Epoch seconds of the next run, claimed (moved on) before the run: a restart never runs it twice. */
    next_run: number | null;
    last_run: number | null;
    updated_at: number;
  };
  automation_task_log: {
    id: Generated<number>;
    task_id: number;
    task_name: string;
    device_group_id: number;
    time: number;
    ok: number;
    run_id: number;
    detail: string;
  };
}
