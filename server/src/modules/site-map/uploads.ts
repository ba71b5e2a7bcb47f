import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import { envelope, errorEnvelope, sharedText } from '@sitewatch/contract';
import { libraryImage, topViewUploads } from '@sitewatch/contract/site-map';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestLanguage } from '../../http/envelope.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { AccessService } from '../access/index.ts';
import { allowedExtensions, contentTypes, type ImageType, sanitizeSvg, sniffImage } from './images.ts';
import { type ImageLibrary, libraryUrl } from './library.ts';

/** Where the library's files are kept. */
// Still named for the area's first name ("top view"): existing installs keep their images there.
export const libraryDir = (dataDir: string) => path.join(dataDir, 'top-view');

/**
 * Uploads of the image library (001 §5; docs/site-map.md "Server"): multipart field `image`, at most
 * 1 MB, png/jpg/gif/svg told by the content (the name's extension must be one of 001 §5's too), an
 * SVG cleaned before it is stored. Files go to `<dataDir>/top-view/` under a random name with the
 * extension of their content, and are served with that type only, `nosniff`, and a CSP that lets an
 * SVG opened on its own run nothing. An upload past the quota (per user, in total) is refused before
 * anything is written. In their own plugin, so the multipart parser stays theirs.
 */
export const registerTopViewUploads = (
  app: FastifyInstance,
  deps: {
    library: ImageLibrary;
    dataDir: string;
    permission: { menu: number; func: string };
    userOf: (request: FastifyRequest) => number;
    access: Pick<AccessService, 'require'>;
  },
) => {
  const { library } = deps;
  const dir = libraryDir(deps.dataDir);

  const upload = async (request: FastifyRequest, kind: 'background' | 'icon') => {
    if (!request.isMultipart()) throw badRequest('topView.imageMissing');
    let buffer: Buffer;
    let filename: string;
    try {
      const part = await request.file({ limits: { fileSize: topViewUploads.maxBytes, files: 1, fields: 10 } });
      if (part?.fieldname !== 'image') throw badRequest('topView.imageMissing');
      filename = part.filename;
      buffer = await part.toBuffer();
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'FST_REQ_FILE_TOO_LARGE')
        throw badRequest('topView.tooLarge');
      if (err instanceof AppError) throw err;
      throw badRequest('topView.imageMissing');
    }
    const ext = path.extname(filename).slice(1).toLowerCase();
    let type: ImageType | null = sniffImage(buffer);
    if (!allowedExtensions.has(ext) || type === null) throw badRequest('topView.notAnImage');
    if (type === 'svg') {
      const clean = await sanitizeSvg(buffer.toString('utf8'));
      if (clean === null) throw badRequest('topView.svgUnsafe');
      buffer = Buffer.from(clean, 'utf8');
      type = 'svg';
    }
    const userId = deps.userOf(request);
    await library.admit(userId, buffer.length);
    const file = `${randomBytes(16).toString('hex')}.${type}`;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(dir, file), buffer, { mode: 0o600 });
    const row = await library.add(
      {
        kind,
        file,
        name: path.basename(filename).slice(0, 200),
        content_type: contentTypes[type],
        size: buffer.length,
      },
      userId,
    );
    return { id: row.id, url: libraryUrl(file), name: row.name, content_type: row.content_type, size: row.size };
  };

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: topViewUploads.maxBytes, files: 1, fields: 10 } });
    for (const [url, kind, summary, messageKey] of [
      [
        topViewUploads.backgroundPath,
        'background',
        'Upload a background image (multipart field image)',
        'topView.uploaded',
      ],
      [topViewUploads.iconPath, 'icon', 'Upload an icon (multipart field image)', 'topView.iconUploaded'],
    ] as const) {
      scope.route({
        method: 'POST',
        url,
        config: { requirement: deps.permission },
        schema: {
          summary,
          tags: ['site-map'],
          consumes: ['multipart/form-data'],
          response: { 200: envelope(libraryImage), '4xx': errorEnvelope },
        },
        preValidation: async (request) => {
          await deps.access.require(request, deps.permission);
        },
        handler: async (request) => ({
          code: 0,
          message: sharedText(requestLanguage(request), messageKey),
          data: await upload(request, kind),
        }),
      });
    }
  });

  // Public: an <img> cannot send the bearer token, and a picture is shown wherever it is granted; the
  // names are 128-bit random, and the library answers a user only the names their sites use.
  app.route({
    method: 'GET',
    url: topViewUploads.filePath,
    config: { auth: false },
    schema: {
      summary: 'An image of the library',
      tags: ['site-map'],
      params: topViewUploads.fileParams,
      response: { '4xx': errorEnvelope },
    },
    handler: async (request, reply) => {
      const { name } = request.params as { name: string };
      const row = await library.byFile(name);
      if (!row) throw notFound('topView.imageNotFound');
      let body: Buffer;
      try {
        body = await readFile(path.join(dir, row.file));
      } catch {
        throw notFound('topView.imageNotFound');
      }
      return reply
        .header('content-type', row.content_type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(body);
    },
  });
};
