import { type ErrorName, errorCodes, errorKeys, errorStatus, type Language, sharedText } from '@sitewatch/contract';

export interface FieldError {
  path: string;
  message: string;
}

/**
 * An error a client caused or may see, mapped to the envelope by the error handler.
 * `key` and `values` pick a text from the shared locale files in the caller's language;
 * without a key the catalogue's default text for `name` is used.
 */
export class AppError extends Error {
  constructor(
    override readonly name: ErrorName,
    readonly key?: string,
    readonly values: Record<string, string | number> = {},
    readonly fields?: FieldError[],
  ) {
    super(key ?? name);
  }

  get status(): number {
    return errorStatus[this.name];
  }

  get code(): number {
    return errorCodes[this.name];
  }

  text(language: Language): string {
    return sharedText(language, this.key ?? errorKeys[this.name], this.values);
  }

  /** The operation log's detail of a write this error refused: codes, named in the reader's language. */
  refusedWrite(value: string | number) {
    const error = this.key ?? errorKeys[this.name];
    return {
      code: 'writeRefused',
      params: { value: String(value), error, errorParams: JSON.stringify(this.values) },
    } as const;
  }
}

export const notFound = (key?: string, values?: Record<string, string | number>) =>
  new AppError('notFound', key, values);
export const forbidden = (key?: string) => new AppError('forbidden', key);
export const badRequest = (key?: string, values?: Record<string, string | number>, fields?: FieldError[]) =>
  new AppError('badRequest', key, values, fields);
export const conflict = (key?: string, values?: Record<string, string | number>) =>
  new AppError('conflict', key, values);
export const notLoggedIn = (key?: string) => new AppError('notLoggedIn', key);
