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
    if (error instanceof AppError) {
      return sendError(reply, request, error.name, { message: error.text(language), fields: error.fields });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((v) => {
        const where = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const part = error.validationContext ?? 'body';
        return { path: where ? `${part}.${where}` : part, message: v.message ?? 'invalid' };
      });
      const first = fields[0];
      // Schema messages that are keys of the shared locale files read in the caller's language;
      // `fields` keep the keys for clients that place them on their form fields.
      const message = first
        ? `${sharedText(language, errorKeys.badRequest)} ${first.path}: ${sharedText(language, first.message)}`
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
