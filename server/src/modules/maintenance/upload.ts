import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { envelope, errorEnvelope, sharedText } from '@sitewatch/contract';
import { backupPackage, backupUploadMaxBytes, backupUploadPath } from '@sitewatch/contract/maintenance';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestLanguage } from '../../http/envelope.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import type { MaintenanceService } from './service.ts';

/**
 * An uploaded package (multipart field `file`): streamed to the backups folder under a temporary
 * name, checked as a restore checks it (nothing else changes), then listed under a name of its kind
 * (docs/maintenance.md, "Restore"). Restoring it is the restore route's, with the verification password.
 */
export const registerBackupUpload = (
  app: FastifyInstance,
  deps: { service: MaintenanceService; audit(request: FastifyRequest, target: string, ok: boolean): Promise<void> },
) => {
  const receive = async (request: FastifyRequest) => {
    if (!request.isMultipart()) throw badRequest('maintenance.backup.uploadMissing');
    mkdirSync(deps.service.folder, { recursive: true, mode: 0o700 });
    const temp = path.join(deps.service.folder, `.upload-${randomBytes(8).toString('hex')}`);
    // A request that carried no file changes nothing and is not logged; a file refused is.
    let received = false;
    try {
      const part = await request.file({ limits: { fileSize: backupUploadMaxBytes, files: 1, fields: 5 } });
      if (part?.fieldname !== 'file') throw badRequest('maintenance.backup.uploadMissing');
      received = true;
      await pipeline(part.file, createWriteStream(temp, { mode: 0o600 }));
      if (part.file.truncated) throw badRequest('maintenance.backup.tooLarge');
      const made = await deps.service.adopt(temp);
      await deps.audit(request, made.filename, true);
      return made;
    } catch (err) {
      rmSync(temp, { force: true });
      if (received) await deps.audit(request, 'upload', false);
      if (err instanceof AppError) throw err;
      if (err instanceof Error && 'code' in err && err.code === 'FST_REQ_FILE_TOO_LARGE')
        throw badRequest('maintenance.backup.tooLarge');
      throw badRequest('maintenance.backup.uploadMissing');
    }
  };
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: backupUploadMaxBytes, files: 1, fields: 5 } });
    scope.route({
      method: 'POST',
      url: backupUploadPath,
      bodyLimit: backupUploadMaxBytes,
      config: { requirement: 'admin' },
      schema: {
        summary: 'Upload a package (multipart field file): checked, then listed to restore',
        tags: ['maintenance'],
        consumes: ['multipart/form-data'],
        response: { 200: envelope(backupPackage), '4xx': errorEnvelope },
      },
      preValidation: async (request) => {
        await request.server.access.require(request, 'admin');
      },
      handler: async (request) => ({
        code: 0,
        message: sharedText(requestLanguage(request), 'errors.ok'),
        data: await receive(request),
      }),
    });
  });
};
