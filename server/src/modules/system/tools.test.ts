import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { createTools, findBinary, toolPolicy } from './tools.ts';

const outbound = async () => ({ allow: [], deny: ['10.1.0.0/16'] });

describe('network tools on a host that cannot run them', () => {
  it('a missing binary is a read-only state with its reason, and a run is refused (409) before anything starts', async () => {
    const tools = createTools({ outbound, find: () => null });
    expect(tools.state()).toEqual({
      ping: { available: false, reason: 'binaryMissing' },
      traceroute: { available: false, reason: 'binaryMissing' },
      port: { available: true, reason: '' },
    });
    const refused = await tools.ping('192.168.1.10', 1).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(409);
    expect((refused as AppError).key).toBe('system.reason.binaryMissing');
    await expect(tools.traceroute('192.168.1.10', 1)).rejects.toMatchObject({ key: 'system.reason.binaryMissing' });
  });

  it('a binary found is available; the policy keeps the deny list and opens the private ranges only', () => {
    const tools = createTools({ outbound, find: (name) => `/usr/bin/${name}` });
    expect(tools.state().ping).toEqual({ available: true, reason: '' });
    const policy = toolPolicy({ allow: ['127.0.0.0/8'], deny: ['10.1.0.0/16'] });
    expect(policy.deny).toEqual(['10.1.0.0/16']);
    expect(policy.allow).toContain('127.0.0.0/8');
    expect(policy.allow).toContain('192.168.0.0/16');
    expect(policy.allow).not.toContain('169.254.0.0/16');
  });

  it('finds binaries on PATH only when executable', () => {
    expect(findBinary('sh', '/bin')).toMatch(/\/sh$/);
    expect(findBinary('no-such-tool-sitewatch', '/nonexistent')).toBeNull();
  });
});
