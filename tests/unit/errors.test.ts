import { describe, expect, it, vi } from 'vitest';

describe('ApiError across copies of its module', () => {
  it('is recognised by instanceof whichever copy threw it (a build may bundle the module more than once)', async () => {
    const first = await import('@/lib/core/errors');
    vi.resetModules();
    const second = await import('@/lib/core/errors');
    expect(second.ApiError).not.toBe(first.ApiError);
    expect(new first.ApiError('MODEL_NOT_CONFIGURED', 'no model') instanceof second.ApiError).toBe(true);
    expect(new Error('plain') instanceof second.ApiError).toBe(false);
    expect({ code: 'NOT_FOUND' } instanceof second.ApiError).toBe(false);
  });
});
