import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { pickSections, type TextPart } from './sections.ts';

/** `\0<file without .json>.<part>-texts.js`: not a `.json` id, so Vite's JSON plugin leaves it alone. */
const virtualId = /^\0(.+)\.(first|rest)-texts\.js$/;

/**
 * `import('<locale>.json?texts=first|rest')` answers that part of the file's top-level sections
 * (sections.ts). The text files stay whole for the people who edit them; only the bundle is split.
 */
export const textSections = (): Plugin => ({
  name: 'sitewatch-text-sections',
  enforce: 'pre',
  async resolveId(source, importer) {
    const match = /^(.+)\.json\?texts=(first|rest)$/.exec(source);
    if (!match) return null;
    const resolved = await this.resolve(`${match[1]}.json`, importer, { skipSelf: true });
    return resolved ? `\0${resolved.id.replace(/\.json$/, '')}.${match[2]}-texts.js` : null;
  },
  load(id) {
    const match = virtualId.exec(id);
    if (!match) return null;
    const file = `${match[1]}.json`;
    this.addWatchFile(file);
    const tree = JSON.parse(readFileSync(file, 'utf8'));
    return `export default ${JSON.stringify(pickSections(tree, match[2] as TextPart))};`;
  },
});
