import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { languages } from '@sitewatch/contract';
import {
  type EditionAnswer,
  type EditionInfo,
  type EditionUpdate,
  editionTypes,
  type InfoUpdate,
  type infoUpdate,
  type LogoKind,
  logoPaths,
} from '@sitewatch/contract/branding';
import { z } from 'zod';
import type { SettingsStore } from '../../db/settings-store.ts';
import { notFound } from '../../http/errors.ts';
import type { LogoImage } from './images.ts';

/** The folder of the data dir that holds the uploaded logos (declared: backup carries it). */
export const logoFolder = 'branding';

const storedLogo = z
  .object({
    file: z.string().regex(/^[a-f0-9]{32}\.(png|jpg)$/),
    type: z.enum(['png', 'jpg']),
    width: z.number().int(),
    height: z.number().int(),
    size: z.number().int(),
    updated_at: z.number().int(),
  })
  .nullable();
type StoredLogo = z.infer<typeof storedLogo>;

/** The `branding` row of `module_settings` (docs/branding.md). */
export const brandingSettings = z.object({
  edition: z.enum(editionTypes).default('standard'),
  language: z.enum(languages).default('zh_cn'),
  editions: z
    .array(z.object({ id: z.number().int(), type: z.enum(editionTypes), sys_name: z.string(), sys_show: z.boolean() }))
    .default(editionTypes.map((type, i) => ({ id: i + 1, type, sys_name: '', sys_show: true }))),
  company: z.string().default(''),
  support_show: z.boolean().default(false),
  support_info: z.string().default(''),
  sys_info_show: z.boolean().default(false),
  sys_info: z.string().default(''),
  filing_display: z.boolean().default(false),
  filing_info: z.string().default(''),
  filing_number: z.string().default(''),
  login_logo: storedLogo.default(null),
  main_logo: storedLogo.default(null),
});
export type BrandingSettings = z.infer<typeof brandingSettings>;

const logoKey = (kind: LogoKind) => (kind === 'login' ? 'login_logo' : 'main_logo');

export const createBrandingService = (deps: {
  store: SettingsStore<{ branding: BrandingSettings }>;
  dataDir: string;
  clock: () => number;
}) => {
  const { store } = deps;
  const dir = path.join(deps.dataDir, logoFolder);
  const now = () => Math.floor(deps.clock() / 1000);

  const logoOf = (kind: LogoKind, logo: StoredLogo) =>
    logo
      ? { url: logoPaths.fileOf(kind, logo.updated_at), width: logo.width, height: logo.height, size: logo.size }
      : { url: '', width: 0, height: 0, size: 0 };

  const editions = async (): Promise<EditionAnswer> => {
    const s = await store.get('branding');
    return {
      edition: s.edition,
      language: s.language,
      data: s.editions.map((e) => ({ ...e, active: e.type === s.edition })),
    };
  };

  const info = async (): Promise<EditionInfo> => {
    const s = await store.get('branding');
    const active = s.editions.find((e) => e.type === s.edition);
    return {
      edition: s.edition,
      language: s.language,
      company: s.company,
      sys_name: active?.sys_name ?? '',
      sys_show: active?.sys_show ?? true,
      support_show: s.support_show,
      support_info: s.support_info,
      sys_info_show: s.sys_info_show,
      sys_info: s.sys_info,
      filing_display: s.filing_display,
      filing_info: s.filing_info,
      filing_number: s.filing_number,
      login_logo: logoOf('login', s.login_logo),
      main_logo: logoOf('main', s.main_logo),
    };
  };

  return {
    editions,
    info,

    async updateEdition(id: number, input: Required<EditionUpdate>): Promise<EditionAnswer> {
      const s = await store.get('branding');
      const entry = s.editions.find((e) => e.id === id);
      if (!entry) throw notFound('branding.editionNotFound');
      await store.set('branding', {
        ...s,
        edition: input.active ? entry.type : s.edition,
        editions: s.editions.map((e) =>
          e.id === id ? { ...e, sys_name: input.sys_name, sys_show: input.sys_show } : e,
        ),
      });
      return editions();
    },

    async updateInfo(input: z.output<typeof infoUpdate>): Promise<EditionInfo> {
      const s = await store.get('branding');
      const { sys_name, sys_show, ...rest } = input satisfies Required<InfoUpdate>;
      await store.set('branding', {
        ...s,
        ...rest,
        editions: s.editions.map((e) => (e.type === s.edition ? { ...e, sys_name, sys_show } : e)),
      });
      return info();
    },

    /**
     * Keeps a checked logo under a random name (written beside, then renamed, so a reader never
     * sees half a file) and removes the one it replaces.
     */
    async setLogo(kind: LogoKind, image: LogoImage, content: Buffer): Promise<EditionInfo> {
      const file = `${randomBytes(16).toString('hex')}.${image.type}`;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(path.join(dir, `${file}.part`), content, { mode: 0o600 });
      await rename(path.join(dir, `${file}.part`), path.join(dir, file));
      const s = await store.get('branding');
      const before = s[logoKey(kind)];
      // A second upload within the same second still gets a new address (browsers cache by it).
      const updated_at = Math.max(now(), (before?.updated_at ?? 0) + 1);
      const logo = {
        file,
        type: image.type,
        width: image.width,
        height: image.height,
        size: content.length,
        updated_at,
      };
      await store.set('branding', { ...s, [logoKey(kind)]: logo });
      if (before) await rm(path.join(dir, before.file), { force: true });
      return info();
    },

    async removeLogo(kind: LogoKind): Promise<EditionInfo> {
      const s = await store.get('branding');
      const before = s[logoKey(kind)];
      if (before) {
        await store.set('branding', { ...s, [logoKey(kind)]: null });
        await rm(path.join(dir, before.file), { force: true });
      }
      return info();
    },

    /** The stored logo's bytes and type, or null when none is uploaded (or its file is gone). */
    async logoFile(kind: LogoKind): Promise<{ body: Buffer; type: 'png' | 'jpg' } | null> {
      const logo = (await store.get('branding'))[logoKey(kind)];
      if (!logo) return null;
      try {
        return { body: await readFile(path.join(dir, logo.file)), type: logo.type };
      } catch {
        return null;
      }
    },
  };
};

export type BrandingService = ReturnType<typeof createBrandingService>;
