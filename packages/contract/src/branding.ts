import { z } from 'zod';
import { tParam } from './envelope.ts';
import { languages } from './i18n.ts';
import { defineRoute } from './route.ts';

/**
 * Editions and branding (000 §1, §2.1, §3 Edition, §4.11, §7; 002 §2.3, §3 Edition and branding,
 * §5.3 logo upload, §7.1, §7.4, §9; docs/branding.md): the edition types with their system name,
 * the installation's edition information (company, flags, support and system info blocks, filing
 * line) and the login and main logos.
 */

/** The page /setting_sys_edition (menu 418, System group). */
export const brandingMenu = 418;

/** Message keys (texts in the shared locale files, section `branding`; 002 §5.3 for the logo). */
export const brandingMessages = {
  logoType: 'branding.logoType',
  logoSize: 'branding.logoSize',
  logoMissing: 'branding.logoMissing',
  logoNotFound: 'branding.logoNotFound',
  sysNameEmpty: 'branding.sysNameEmpty',
  sysNameLong: 'branding.sysNameLong',
  textLong: 'branding.textLong',
  editionNotFound: 'branding.editionNotFound',
} as const;

/** The logo rules of 002 §5.3 and §9. */
export const logoRules = {
  maxBytes: 1024 * 1024,
  /** Recommended sizes (002 §9): shown beside the upload. */
  recommended: { login: { width: 290, height: 76 }, main: { width: 160, height: 60 } },
  extensions: ['jpg', 'png', 'jpeg'] as const,
} as const;

export const logoKind = z.enum(['login', 'main']).describe('login: the login page; main: the top bar and /home.');
export type LogoKind = z.infer<typeof logoKind>;

/** The built-in edition types (docs/branding.md): each may carry its own system name. */
export const editionTypes = ['standard', 'enterprise', 'custom'] as const;
export const editionType = z.enum(editionTypes);
export type EditionType = z.infer<typeof editionType>;

const sysName = z
  .string({ error: brandingMessages.sysNameEmpty })
  .trim()
  .max(64, { message: brandingMessages.sysNameLong })
  .describe("The system name shown on the login page, the top bar and /home; '' for the product's own name.");
const text = (max: number) => z.string().trim().max(max, { message: brandingMessages.textLong });

/** 000 §3 edition list entry (type, sys_show, sys_name), with its id and whether it is in use. */
export const editionEntry = z.object({
  id: z.number().int(),
  type: editionType,
  sys_name: z.string(),
  sys_show: z.boolean(),
  active: z.boolean().describe('The edition this installation runs as.'),
});
export type EditionEntry = z.infer<typeof editionEntry>;

/** 000 §3 Edition (edition, language) with the list of edition types. */
export const editionAnswer = z.object({
  edition: editionType.describe('The type of the edition in use.'),
  language: z.enum(languages).describe("The installation's language: a browser with none stored takes it (000 §4.11)."),
  data: z.array(editionEntry),
});
export type EditionAnswer = z.infer<typeof editionAnswer>;

export const editionUpdate = z.object({
  sys_name: sysName,
  sys_show: z.boolean(),
  active: z.boolean().default(false).describe('true makes this the edition in use.'),
});
export type EditionUpdate = z.input<typeof editionUpdate>;

/** A stored logo as the pages read it: its address ('' when the product's own is shown). */
export const logoInfo = z.object({
  url: z.string().describe("Address of the image ('' when none is uploaded: the product's own is shown)."),
  width: z.number().int(),
  height: z.number().int(),
  size: z.number().int(),
});
export type LogoInfo = z.infer<typeof logoInfo>;

/** 000 §3 edition information, and what this product adds (texts of the blocks, filing number, logos). */
export const editionInfo = z.object({
  edition: editionType,
  language: z.enum(languages),
  company: z.string(),
  sys_name: z.string(),
  sys_show: z.boolean(),
  support_show: z.boolean(),
  support_info: z.string().describe('The support block: contact lines shown on the login page.'),
  sys_info_show: z.boolean(),
  sys_info: z.string().describe('The system info block: lines about the system shown on the login page.'),
  filing_display: z.boolean(),
  filing_info: z.string().describe('The filing line text (e.g. the ICP record).'),
  filing_number: z.string().describe('The filing number shown after the text.'),
  login_logo: logoInfo,
  main_logo: logoInfo,
});
export type EditionInfo = z.infer<typeof editionInfo>;

export const infoUpdate = z.object({
  company: text(100).default(''),
  sys_name: sysName,
  sys_show: z.boolean(),
  support_show: z.boolean(),
  support_info: text(500).default(''),
  sys_info_show: z.boolean(),
  sys_info: text(500).default(''),
  filing_display: z.boolean(),
  filing_info: text(100).default(''),
  filing_number: text(64).default(''),
  language: z.enum(languages).default('zh_cn'),
});
export type InfoUpdate = z.input<typeof infoUpdate>;

export const logoQuery = z.object({ type: logoKind, t: tParam });
export const logoParams = z.object({ type: logoKind });

export const brandingRoutes = {
  edition: defineRoute({
    method: 'GET',
    path: 'pub/edition',
    summary: 'The edition in use, the installation language and the edition types (public)',
    tags: ['branding'],
    query: z.object({ t: tParam }),
    response: editionAnswer,
  }),
  updateEdition: defineRoute({
    method: 'PUT',
    path: 'pub/edition/:id',
    summary: "An edition type's system name and flag; active makes it the edition in use",
    tags: ['branding'],
    params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
    body: editionUpdate,
    response: editionAnswer,
  }),
  info: defineRoute({
    method: 'GET',
    path: 'pub/info',
    summary: 'The edition information: company, system name, flags, blocks, filing line, logos (public)',
    tags: ['branding'],
    query: z.object({ t: tParam }),
    response: z.object({ total: z.number().int(), data: z.array(editionInfo) }),
  }),
  updateInfo: defineRoute({
    method: 'POST',
    path: 'pub/info',
    summary: 'Set the edition information (the system name goes to the edition in use)',
    tags: ['branding'],
    body: infoUpdate,
    response: z.object({ total: z.number().int(), data: z.array(editionInfo) }),
  }),
  removeLogo: defineRoute({
    method: 'DELETE',
    path: 'setting/maintain/logo',
    summary: "Remove an uploaded logo: the product's own is shown again",
    tags: ['branding'],
    query: logoQuery,
    response: editionInfo,
  }),
} as const;

/** The multipart upload and the public image, registered outside the JSON route table. */
export const logoPaths = {
  upload: '/api/v1/setting/maintain/logo/upload',
  file: '/api/v1/pub/logo/:type',
  fileOf: (kind: LogoKind, version: number) => `/api/v1/pub/logo/${kind}?v=${version}`,
} as const;
