import { readRunDetails, runDetail, runDetailCodes, runDetailsText } from '@sitewatch/contract/automation';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en_us from '../../i18n/locales/en_us.json';
import zh_cn from '../../i18n/locales/zh_cn.json';
import zh_tw from '../../i18n/locales/zh_tw.json';
import zh_xg from '../../i18n/locales/zh_xg.json';
import { runDetailText } from './api.ts';

/** Run details are codes in the row and words in the reader's language (docs/automation.md, "Run details"). */
describe('run details', () => {
  it('every code is named in the four languages (a refusal by its own message)', () => {
    for (const texts of [zh_cn, zh_tw, zh_xg, en_us]) {
      const named = Object.keys(texts.automationUi.runDetails).sort();
      expect(named).toEqual(runDetailCodes.filter((c) => c !== 'refused').sort());
    }
  });

  it('reads coded details in the reader’s language, and any other text as it is', async () => {
    const t = i18next.createInstance();
    await t.init({ lng: 'en_us', resources: { en_us: { translation: en_us }, zh_cn: { translation: zh_cn } } });
    const wrote = runDetail('wouldWrite', { what: 'AC / switch ← 1' });
    expect(runDetailText(t.t, wrote)).toBe('would write AC / switch ← 1');
    await t.changeLanguage('zh_cn');
    expect(runDetailText(t.t, wrote)).toBe('将写入 AC / switch ← 1');
    // A device's own error, and a row written before codes, are data.
    expect(runDetailText(t.t, 'Modbus exception 2')).toBe('Modbus exception 2');
    expect(runDetailText(t.t, 'would write io / x ← 1')).toBe('would write io / x ← 1');
    expect(runDetailText(t.t, '{not json')).toBe('{not json');
    expect(readRunDetails(JSON.stringify({ code: 'nope', params: {} }))).toEqual(['{"code":"nope","params":{}}']);
  });

  it('keeps a timed task’s details as whole details within its column', () => {
    const details = [runDetail('wrote', { what: 'a'.repeat(150) }), 'device error', runDetail('queued', { what: 'b' })];
    const text = runDetailsText(details);
    expect(readRunDetails(text)).toEqual([
      { code: 'wrote', params: { what: 'a'.repeat(150) } },
      'device error',
      { code: 'queued', params: { what: 'b' } },
    ]);
    const long = runDetailsText([...details, runDetail('wrote', { what: 'c'.repeat(400) })]);
    expect(long.length).toBeLessThanOrEqual(500);
    expect(readRunDetails(long)).toHaveLength(3);
  });
});
