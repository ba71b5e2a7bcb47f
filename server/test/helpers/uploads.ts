import type { FastifyInstance } from 'fastify';

/** The smallest valid PNG: 1×1, one grey pixel. */
export const tinyPng = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010800000000376ef9240000000a49444154789c6360000000020001e221bc330000000049454e44ae426082',
  'hex',
);

/** Posts one file to a site-map upload route as a multipart body, as a browser's FormData sends it. */
export const uploadImage = (
  app: FastifyInstance,
  url: string,
  field: string,
  filename: string,
  content: Buffer,
  token = 'admin-token',
) => {
  const boundary = '----sitewatch-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url: `/api/v1/setting/top_view/${url}`,
    headers: {
      authorization: `Bearer ${token}`,
      'accept-language': 'zh-CN',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
};
