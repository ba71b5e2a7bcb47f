import { nowSeconds } from '@sitewatch/contract';
import { type UploadQuota, uploadQuota } from '@sitewatch/contract/site-map';
import { readJson } from '../../db/json.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { TopViewRepository, Viewer } from './repository.ts';

const quotaKey = 'UPLOAD_QUOTA';
const defaultQuota = uploadQuota.parse({});

/** Bytes as the quota messages show them: GB, MB or KB, to one decimal. */
const sizeText = (bytes: number) => {
  const [unit, size] = bytes >= 1024 ** 3 ? ['GB', 1024 ** 3] : bytes >= 1024 ** 2 ? ['MB', 1024 ** 2] : ['KB', 1024];
  return `${Math.round((bytes / size) * 10) / 10} ${unit}`;
};

export const libraryUrl = (file: string) => `/api/v1/setting/top_view/file/${file}`;

/**
 * The image library of the site map (issue 27; docs/site-map.md "Image library"): each user sees
 * the images used by pictures of their granted sites and the unused ones they uploaded (the
 * administrator sees all); an image is deleted only when no picture uses it; uploads stop at the
 * quota, per user and in total.
 */
export const createImageLibrary = (deps: { repo: TopViewRepository; clock?: (() => number) | undefined }) => {
  const { repo } = deps;
  const quota = async (): Promise<UploadQuota> =>
    readJson((await repo.setting(quotaKey)) ?? '{}', uploadQuota, defaultQuota);

  return {
    async images(kind: 'background' | 'icon', viewer: Viewer) {
      return (await repo.images(kind, viewer)).map((i) => ({
        id: i.id,
        url: libraryUrl(i.file),
        name: i.name,
        content_type: i.content_type,
        size: i.size,
      }));
    },

    /** Deletes an image the viewer sees and no picture uses; answers its stored name (the file to remove). */
    async remove(id: number, viewer: Viewer): Promise<string> {
      const image = await repo.visibleImage(id, viewer);
      if (!image) throw notFound('topView.imageNotFound');
      if ((await repo.deleteUnusedImage(id)) === 0) throw badRequest('topView.imageInUse', { name: image.name });
      return image.file;
    },

    /** Refuses an upload of `bytes` past the uploader's quota or the library's. */
    async admit(userId: number, bytes: number) {
      const [q, used] = await Promise.all([quota(), repo.usage(userId)]);
      if (used.user.images + 1 > q.user_images || used.user.bytes + bytes > q.user_bytes)
        throw badRequest('topView.userQuotaReached', { images: q.user_images, size: sizeText(q.user_bytes) });
      if (used.total.images + 1 > q.total_images || used.total.bytes + bytes > q.total_bytes)
        throw badRequest('topView.totalQuotaReached', { images: q.total_images, size: sizeText(q.total_bytes) });
    },

    add: (
      row: { kind: 'background' | 'icon'; file: string; name: string; content_type: string; size: number },
      userId: number,
    ) => repo.addImage({ ...row, created_by: userId, created_at: nowSeconds((deps.clock ?? Date.now)()) }),

    byFile: (file: string) => repo.imageByFile(file),

    quota,

    async setQuota(input: UploadQuota): Promise<UploadQuota> {
      const value = uploadQuota.parse(input);
      await repo.putSetting(quotaKey, JSON.stringify(value), nowSeconds((deps.clock ?? Date.now)()));
      return value;
    },
  };
};
export type ImageLibrary = ReturnType<typeof createImageLibrary>;
