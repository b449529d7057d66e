import { describe, expect, it } from 'vitest';
import { workflowDefinitions } from '@/lib/workflows/definitions';
import * as bundleEntry from '@/lib/workflows/engines/temporal/workflows';

describe('Temporal bundle entry', () => {
  it('exports one workflow per catalog type, named by the type (Temporal finds workflows by export name)', () => {
    expect(Object.keys(bundleEntry).sort()).toEqual(Object.keys(workflowDefinitions).sort());
    for (const workflow of Object.values(bundleEntry)) expect(typeof workflow).toBe('function');
  });
});
