import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const docsPath = '/api/docs';

/** OpenAPI 3 generated from the contract schemas on the routes: /api/docs (page), /api/docs/json. */
export const registerOpenApi = async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Sitewatch API',
        description: 'Every answer is {code, message, data}; code 0 is success. Times are epoch seconds.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A personal API token (swt_…, made on the API tokens page of the user menu or with POST user/api_tokens; docs/api.md "API tokens"), or the access_token of a login session.',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: docsPath,
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: false },
  });
};
