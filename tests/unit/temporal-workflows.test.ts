import { describe, expect, it } from 'vitest';
import { workflowDefinitions } from '@/lib/workflows/definitions';
import { ENROLLMENT_WORKFLOW } from '@/lib/workflows/engines/temporal/enrollment-workflow';
import * as bundleEntry from '@/lib/workflows/engines/temporal/workflows';

describe('Temporal bundle entry', () => {
  it("exports one workflow per catalog type, named by the type (Temporal finds workflows by export name), and the enrollments' workflow", () => {
    expect(Object.keys(bundleEntry).sort()).toEqual([...Object.keys(workflowDefinitions), ENROLLMENT_WORKFLOW].sort());
    for (const workflow of Object.values(bundleEntry)) expect(typeof workflow).toBe('function');
  });
});
