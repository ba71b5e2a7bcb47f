import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer. Scripts only from our origin (no inline scripts); styles may
 * be inline because Ant Design writes its token styles at run time.
 */
export const registerSecurityHeaders = async (app: FastifyInstance, options: { hsts: boolean } = { hsts: false }) => {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:', 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Custom menu entries open http(s) pages in a sandboxed frame (docs/custom-menus.md); which
        // addresses a user may open is the server's check (GET menus/link), not this header's.
        frameSrc: ["'self'", 'http:', 'https:'],
        frameAncestors: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only when this server terminates TLS: served over plain HTTP on a LAN (the default), HSTS
    // would lock the console out.
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    crossOriginEmbedderPolicy: false,
  });
};
