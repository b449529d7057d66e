import { expect, it } from 'vitest';
import { lintOpenApi } from '@/scripts/openapi-lint';

// The tools integrators point at the document (Spectral's and Redocly's rulesets) find nothing to report.
it('the OpenAPI document lints clean with Spectral (spectral:oas) and Redocly (recommended)', () => {
  for (const result of lintOpenApi()) expect(result.ok, `${result.tool}:\n${result.output}`).toBe(true);
}, 300_000);
