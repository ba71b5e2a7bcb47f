import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { i18n, initI18n } from '../i18n/index.ts';
import { ApiError } from './client.ts';
import { mutationRefusal } from './query-client.ts';

describe('mutationRefusal', () => {
  beforeAll(async () => {
    if (!i18n.isInitialized) await initI18n('zh_cn');
  });

  it('says why the contract refused a body before it was sent', () => {
    const refused = z.object({ port: z.number().int() }).safeParse({ port: 'x' });
    expect(refused.success).toBe(false);
    expect(mutationRefusal(refused.error)).toBe('port格式不正确');
    const own = z.object({ name: z.string().max(2, 'validation.tooLong') }).safeParse({ name: 'long' });
    expect(mutationRefusal(own.error)).toBe('name过长');
  });

  it("shows the server's text and stays silent on anything else", () => {
    expect(mutationRefusal(new ApiError('设备名称已存在', 400, -1))).toBe('设备名称已存在');
    expect(mutationRefusal(new Error('network'))).toBeUndefined();
  });
});
