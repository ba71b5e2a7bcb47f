import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generateOpenApi, openApiFile } from '../src/openapi-emit.ts';

it('the committed openapi/openapi.json matches the routes (run `npm run openapi -w server` after an API change)', async () => {
  const generated = await generateOpenApi();
  expect(readFileSync(openApiFile, 'utf8')).toBe(generated);
});
