import type { Generated } from 'kysely';

/** Tables of work orders (migration 0019-work-orders), joined into `Database` in schema.ts. */
export interface WorkOrderTables {
  work_orders: WorkOrdersTable;
  work_order_history: {
    id: Generated<number>;
    order_id: number;
    action: string;
    from_state: number | null;
    to_state: number | null;
    user_id: number;
    user_name: string;
    comment: string;
    time: number;
  };
  work_order_files: {
    id: Generated<number>;
    order_id: number;
    file: string;
    name: string;
    content_type: string;
    size: number;
    user_id: number;
    created_at: number;
  };
  work_order_sets: {
    id: number;
    name: string;
    enable: number;
    levels: string;
    device_group_ids: string;
    handler_id: number;
    reviewer_id: number;
    priority: number;
    deadline_hours: number;
    require_recovered: number;
    /** 1: the handler is the person on duty at the alarm (the rule's handler when nobody is). */
    handler_on_duty: number;
    updated_at: number;
  };
}

export interface WorkOrdersTable {
  id: Generated<number>;
  number: Generated<string>;
  description: string;
  priority: number;
  state: number;
  handler_id: number;
  creator_id: number;
  reviewer_id: number;
  device_group_id: number | null;
  alarm_id: number | null;
  alarm_level: number | null;
  dispatch: string;
  deadline_hours: number;
  deadline: number;
  processing_method: Generated<string>;
  resolution: Generated<string>;
  comment: Generated<string>;
  require_recovered: Generated<number>;
  /** Names of the people on duty when the order was made (migration 0020). */
  on_duty: Generated<string>;
  created_at: number;
  received_at: number | null;
  transferred_at: number | null;
  refused_at: number | null;
  submitted_at: number | null;
  reviewed_at: number | null;
  completed_at: number | null;
}
