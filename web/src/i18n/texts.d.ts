// A part of a locale file (text-sections-plugin.ts): some of its top-level sections.
declare module '*.json?texts=first' {
  const texts: import('./sections.ts').TextTree;
  export default texts;
}
declare module '*.json?texts=rest' {
  const texts: import('./sections.ts').TextTree;
  export default texts;
}
