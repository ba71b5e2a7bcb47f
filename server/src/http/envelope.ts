import {
  type ErrorName,
  errorCodes,
  errorKeys,
  errorStatus,
  type Language,
  languageFromHeader,
  sharedText,
} from '@sitewatch/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type core, locales } from 'zod';
import { AppError, type FieldError } from './errors.ts';

/** The caller's language: our client sends its language code in Accept-Language. */
export const requestLanguage = (request: FastifyRequest): Language =>
  languageFromHeader(request.headers['accept-language']);

export const sendError = (
  reply: FastifyReply,
  request: FastifyRequest,
  name: ErrorName,
  options: { message?: string; fields?: FieldError[] } = {},
) => {
  const message = options.message ?? sharedText(requestLanguage(request), errorKeys[name]);
  return reply
    .status(errorStatus[name])
    .type('application/json; charset=utf-8')
    .send({ code: errorCodes[name], message, data: options.fields ? { fields: options.fields } : null });
};

/** zod's own messages (a type, a size, a format) in each language, from zod's locales. */
const zodMessages: Record<Language, core.$ZodErrorMap> = {
  zh_cn: locales.zhCN().localeError,
  zh_xg: locales.zhTW().localeError,
  zh_tw: locales.zhTW().localeError,
  en_us: locales.en().localeError,
};

/** The value at a validation path (`/a/0/b`) of what the client sent. */
const valueAt = (sent: unknown, instancePath: string): unknown =>
  instancePath
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (v, part) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined),
      sent,
    );

/** zod's own message of a validation issue in `language` (as zod wrote it if its locale cannot). */
const zodText = (
  language: Language,
  v: { keyword: string; instancePath: string; params: object; message?: string | undefined },
  sent: unknown,
): string => {
  try {
    const issue = { ...v.params, code: v.keyword, input: valueAt(sent, v.instancePath) } as core.$ZodRawIssue;
    const own = zodMessages[language](issue);
    return (typeof own === 'string' ? own : own?.message) ?? v.message ?? '';
  } catch {
    return v.message ?? '';
  }
};

/** Fastify's own error codes for what a client sent wrong, by our catalogue's names. */
const fastifyClientErrors: Record<string, ErrorName> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupportedMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'badRequest',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payloadTooLarge',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalidJson',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalidJson',
  FST_ERR_CTP_INVALID_TYPE: 'badRequest',
  FST_ERR_VALIDATION: 'badRequest',
};

const byStatus: Record<number, ErrorName> = {
  400: 'badRequest',
  401: 'notLoggedIn',
  403: 'forbidden',
  404: 'notFound',
  405: 'methodNotAllowed',
  409: 'conflict',
  413: 'payloadTooLarge',
  415: 'unsupportedMediaType',
  429: 'tooManyRequests',
  503: 'unavailable',
};

/**
 * Maps every error to the envelope: what a client can send never becomes a 500; what is left
 * is a defect, logged with the request id and answered with the catalogue's generic text.
 */
export const registerErrorHandling = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const language = requestLanguage(request);
    // Field messages that are keys of the shared locale files are answered in the caller's language.
    const translate = (fields: FieldError[]) =>
      fields.map((f) => ({ path: f.path, message: sharedText(language, f.message) }));
    if (error instanceof AppError) {
      return sendError(reply, request, error.name, {
        message: error.text(language),
        ...(error.fields ? { fields: translate(error.fields) } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const part = error.validationContext ?? 'body';
      const sent = { body: request.body, querystring: request.query, params: request.params }[part as 'body'];
      const fields = error.validation.map((v) => {
        const where = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const key = v.message ?? 'errors.badRequest';
        // The contract's messages are locale keys; zod's own are said again in the caller's language.
        const text = sharedText(language, key);
        const message = text !== key || v.keyword === 'custom' ? text : zodText(language, v, sent);
        return { path: where ? `${part}.${where}` : part, message };
      });
      const first = fields[0];
      const message = first
        ? `${sharedText(language, errorKeys.badRequest)} ${first.path}: ${first.message}`
        : undefined;
      return sendError(reply, request, 'badRequest', { fields, message });
    }
    if (error instanceof SyntaxError) return sendError(reply, request, 'invalidJson');
    const known = (error.code && fastifyClientErrors[error.code]) || byStatus[error.statusCode ?? 0];
    if (known === 'unsupportedMediaType') {
      const type = String(request.headers['content-type'] ?? '').slice(0, 100);
      return sendError(reply, request, known, {
        message: sharedText(language, 'errors.unsupportedMediaType', { type }),
      });
    }
    if (known) return sendError(reply, request, known);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, request, 'badRequest');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, request, 'internal');
  });
};
