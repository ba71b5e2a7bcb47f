import type { Generated } from 'kysely';

/** Tables of the site map (migration 0016-top-view), joined into `Database` in schema.ts. */
export interface TopViewTables {
  top_view_backgrounds: TopViewBackgroundsTable;
  top_view_components: TopViewComponentsTable;
  top_view_images: TopViewImagesTable;
  top_view_image_uses: TopViewImageUsesTable;
  top_view_settings: { k: string; v: string; updated_at: number };
}

/** The background of one picture: site, site type (`type`) and sub-site (`parent_id`, 0 the home view). */
export interface TopViewBackgroundsTable {
  id: Generated<number>;
  device_group_id: number;
  type: number;
  parent_id: number;
  background: string;
  /** JSON of the picture style (canvasWidth, canvasHeight, canvasScale…). */
  extend: string;
  created_at: number;
  updated_at: number;
}

/** A placed component (001 §3); `site_type` and `parent_id` name its picture, `type` its component type. */
export interface TopViewComponentsTable {
  id: Generated<number>;
  device_group_id: number;
  site_type: number;
  parent_id: number;
  type: number;
  device_id: number | null;
  link: string;
  normal_img: string;
  abnormal_img: string;
  width: number;
  height: number;
  top: number;
  left: number;
  /** JSON list of item ids. */
  item_ids: string;
  video_id: number | null;
  /** The component JSON, validated by the contract's strict schema. */
  extend: string;
  created_at: number;
  updated_at: number;
}

export interface TopViewImagesTable {
  id: Generated<number>;
  kind: string;
  file: string;
  name: string;
  content_type: string;
  size: number;
  created_at: number;
  /** The uploader (migration 0030); null for images uploaded before, or when the user is gone. */
  created_by: number | null;
}

/** Which picture uses which image (migration 0030), rewritten with every write of the picture. */
export interface TopViewImageUsesTable {
  image_id: number;
  device_group_id: number;
  site_type: number;
  parent_id: number;
}
