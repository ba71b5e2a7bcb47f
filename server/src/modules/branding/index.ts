import multipart from '@fastify/multipart';
import { envelope, errorEnvelope, sharedText } from '@sitewatch/contract';
import {
  brandingMenu,
  brandingRoutes,
  editionInfo,
  type LogoKind,
  logoParams,
  logoPaths,
  logoQuery,
  logoRules,
} from '@sitewatch/contract/branding';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestLanguage } from '../../http/envelope.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { allowedLogoName, logoContentTypes, readLogo } from './images.ts';
import type { BrandingService } from './service.ts';

export { type BrandingService, brandingSettings, createBrandingService, logoFolder } from './service.ts';

const edit = { menu: brandingMenu, func: 'edit' } as const;

/**
 * The logo upload (002 §5.3, §7.1 setting/maintain/logo/upload): multipart field `file`, query
 * `type` login or main. At most 1 MB (the parser stops reading past it), a PNG or JPEG by its
 * content (images.ts) with a jpg, png or jpeg name; the refusals are 002 §5.3's messages and
 * change nothing.
 */
const readUpload = async (request: FastifyRequest) => {
  if (!request.isMultipart()) throw badRequest('branding.logoMissing');
  let content: Buffer;
  let filename: string;
  try {
    const part = await request.file({ limits: { fileSize: logoRules.maxBytes, files: 1, fields: 5 } });
    if (!part) throw badRequest('branding.logoMissing');
    filename = part.filename;
    content = await part.toBuffer();
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'FST_REQ_FILE_TOO_LARGE')
      throw badRequest('branding.logoSize');
    if (err instanceof AppError) throw err;
    throw badRequest('branding.logoMissing');
  }
  if (content.length === 0) throw badRequest('branding.logoMissing');
  const image = readLogo(content);
  if (!image || !allowedLogoName(filename)) throw badRequest('branding.logoType');
  return { image, content };
};

export const registerBranding = (
  app: FastifyInstance,
  deps: { branding: BrandingService; access: Pick<AccessService, 'require'>; audit: AuditLog },
) => {
  const { branding } = deps;
  // Under pub/ and setting/maintain/ the shared trail leaves the log to the module (logs/index.ts).
  const logged = async <T>(
    request: FastifyRequest,
    action: 'update' | 'upload' | 'delete',
    target: string,
    work: Promise<T>,
  ): Promise<T> => {
    const done = await work;
    await deps.audit.write({ module: 'branding', action, target, success: true }, request);
    return done;
  };
  // Public: the login page shows the edition's name, flags, blocks and logos before anyone signs in.
  addRoute(app, brandingRoutes.edition, () => branding.editions(), { auth: false });
  addRoute(app, brandingRoutes.info, async () => ({ total: 1, data: [await branding.info()] }), { auth: false });
  addRoute(
    app,
    brandingRoutes.updateEdition,
    ({ params, body, request }) =>
      logged(request, 'update', `edition ${params.id}`, branding.updateEdition(params.id, body)),
    {
      permission: edit,
      messageKey: 'branding.saved',
    },
  );
  addRoute(
    app,
    brandingRoutes.updateInfo,
    async ({ body, request }) => ({
      total: 1,
      data: [await logged(request, 'update', 'info', branding.updateInfo(body))],
    }),
    {
      permission: edit,
      messageKey: 'branding.saved',
    },
  );
  addRoute(
    app,
    brandingRoutes.removeLogo,
    ({ query, request }) => logged(request, 'delete', `${query.type}_logo`, branding.removeLogo(query.type)),
    {
      permission: edit,
      messageKey: 'branding.logoRemoved',
    },
  );

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: logoRules.maxBytes, files: 1, fields: 5 } });
    scope.route({
      method: 'POST',
      url: logoPaths.upload,
      config: { requirement: edit },
      schema: {
        summary: 'Upload the login or main logo (multipart field file; jpg, png or jpeg, at most 1 MB)',
        tags: ['branding'],
        consumes: ['multipart/form-data'],
        querystring: logoQuery,
        response: { 200: envelope(editionInfo), '4xx': errorEnvelope },
      },
      preValidation: async (request) => {
        await deps.access.require(request, edit);
      },
      handler: async (request) => {
        const { type } = request.query as { type: LogoKind };
        const { image, content } = await readUpload(request);
        return {
          code: 0,
          message: sharedText(requestLanguage(request), 'branding.logoUploaded'),
          data: await logged(request, 'upload', `${type}_logo`, branding.setLogo(type, image, content)),
        };
      },
    });
  });

  // Public: an <img> sends no bearer token, and the login page shows the logo before sign-in.
  app.route({
    method: 'GET',
    url: logoPaths.file,
    config: { auth: false },
    schema: {
      summary: 'The uploaded login or main logo',
      tags: ['branding'],
      params: logoParams,
      response: { '4xx': errorEnvelope },
    },
    handler: async (request, reply) => {
      const { type } = request.params as { type: LogoKind };
      const logo = await branding.logoFile(type);
      if (!logo) throw notFound('branding.logoNotFound');
      return reply
        .header('content-type', logoContentTypes[logo.type])
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(logo.body);
    },
  });
};
