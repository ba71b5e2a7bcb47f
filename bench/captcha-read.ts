// Benchmark: how often a per-glyph classifier reads the login captcha (issue 27; docs/auth.md,
// "Captcha"). The attacker draws TRAIN images with the server's own code (as anyone with an install
// can, reading the codes from its database), cuts each into glyphs and keeps them as labelled
// examples; then reads TEST fresh images by k nearest neighbours, with each way of cleaning and
// cutting it knows. Prints the whole-code and per-glyph read rates of each, and the best.
// BENCH_TRAIN (10 000), BENCH_TEST (1 000), BENCH_LENGTH (the service's code length).
import { performance } from 'node:perf_hooks';
import { newCaptchaCode, renderCaptcha } from '../server/src/modules/auth/captcha.ts';
import {
  cutAtValleys,
  cutEvenly,
  measureReader,
  type Reading,
  type Sample,
} from '../server/test/helpers/captcha-reader.ts';

const trainCount = Number(process.env.BENCH_TRAIN ?? 10_000);
const testCount = Number(process.env.BENCH_TEST ?? 1_000);

const draw = (n: number): Sample[] =>
  Array.from({ length: n }, () => {
    const text = newCaptchaCode();
    return { text, png: renderCaptcha(text) };
  });

const started = performance.now();
const train = draw(trainCount);
const test = draw(testCount);
const drawMs = (performance.now() - started) / (trainCount + testCount);
console.log(`drew ${trainCount} + ${testCount} images, ${drawMs.toFixed(1)} ms each`);

const readings: Array<[string, Reading]> = [
  ['dark pixels, cut evenly', { open: 0, segment: cutEvenly }],
  ['dark pixels, cut at valleys', { open: 0, segment: cutAtValleys }],
  ['thin lines opened away, cut evenly', { open: 1, segment: cutEvenly }],
  ['thin lines opened away, cut at valleys', { open: 1, segment: cutAtValleys }],
];
const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
let best = { name: '', codes: 0 };
for (const [name, reading] of readings) {
  const t = performance.now();
  const m = measureReader(train, test, reading);
  const glyphCount = test.reduce((n, s) => n + s.text.length, 0);
  console.log(
    `${name}: codes ${percent(m.codes, m.images)}, glyphs ${percent(m.glyphs, glyphCount)} (${((performance.now() - t) / 1000).toFixed(0)} s)`,
  );
  if (m.codes >= best.codes) best = { name, codes: m.codes };
}
console.log(`best: ${best.name}, ${percent(best.codes, testCount)} of whole codes (must stay under 5 %)`);
