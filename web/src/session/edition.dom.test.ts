import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/client.ts';
import { languageStorageKey } from '../i18n/index.ts';
import { startLanguage } from './edition.ts';

describe('startLanguage (000 §4.11)', () => {
  afterEach(() => {
    localStorage.clear();
    vi.restoreAllMocks();
  });

  it('keeps the stored language without asking', async () => {
    localStorage.setItem(languageStorageKey, 'zh_tw');
    const call = vi.spyOn(api, 'call');
    expect(await startLanguage()).toBe('zh_tw');
    expect(call).not.toHaveBeenCalled();
  });

  it("takes the installation's language from the edition answer when none is stored, and keeps it", async () => {
    vi.spyOn(api, 'call').mockResolvedValue({ edition: 'standard', language: 'en_us', data: [] });
    expect(await startLanguage()).toBe('en_us');
    expect(localStorage.getItem(languageStorageKey)).toBe('en_us');
  });

  it('falls back to zh_cn when the edition cannot be read', async () => {
    vi.spyOn(api, 'call').mockRejectedValue(new Error('offline'));
    expect(await startLanguage()).toBe('zh_cn');
    expect(localStorage.getItem(languageStorageKey)).toBeNull();
  });
});
