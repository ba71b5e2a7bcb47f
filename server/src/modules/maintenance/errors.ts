import { AppError } from '../../http/errors.ts';

/** Why a package is refused (texts under `maintenance.backup.*` in the shared locale files). */
export type BackupRefusal = 'foreign' | 'corrupt' | 'format' | 'database' | 'version' | 'secretKey' | 'kind';

/** A refused package or restore: HTTP 400 with the reason's message; nothing has changed. */
export const backupError = (reason: BackupRefusal) => new AppError('badRequest', `maintenance.backup.${reason}`);
