import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './envelope.ts';

const isApiPath = (url: string) =>
  url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url === '/metrics';

/**
 * Serves the built web app and answers unknown paths: under /api an envelope 404, never HTML;
 * any other GET gets index.html so the client router renders the page (or its 404 page).
 */
export const registerWebApp = async (app: FastifyInstance, webDir: string | undefined) => {
  const index = webDir ? path.join(webDir, 'index.html') : undefined;
  const hasWeb = Boolean(index && existsSync(index));
  if (hasWeb && webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (web/vite.config.ts).
      preCompressed: true,
      // Hashed assets never change; index.html must always be fetched anew.
      setHeaders: (reply: FastifyReply, file: string) => {
        reply.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.get('/assets/*', { schema: { hide: true }, config: { auth: false } }, (request, reply) => {
      const rel = (request.params as { '*': string })['*'];
      return reply.sendFile(path.posix.join('assets', rel));
    });
  }
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(url);
    if (wantsPage && hasWeb) {
      const file = url.split('?')[0] ?? '/';
      // A real file at the root of the build (favicon, sounds…) is sent as it is.
      if (file !== '/' && !file.includes('..') && webDir && existsSync(path.join(webDir, file)) && path.extname(file)) {
        return reply.sendFile(file.slice(1));
      }
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(reply, request, 'notFound');
  });
};
