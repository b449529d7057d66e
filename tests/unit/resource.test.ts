import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineResource, field, updateBodySchema } from '@/lib/core/resource';

const widget = defineResource({
  name: 'Widget',
  id: 'widget_id',
  fields: {
    title: field('title', { in: z.string().min(1), out: z.string(), create: 'required', update: 'optional' }),
    kind: field('kind', { in: z.enum(['a', 'b']), out: z.enum(['a', 'b']), create: { default: 'a' }, update: 'optional' }),
    note: field('noteText', { in: z.string().max(5), out: z.string().nullable(), create: 'optional', update: 'clearable' }),
    price: field('price', {
      in: z.number(),
      out: z.number().nullable(),
      create: 'optional',
      update: 'clearable',
      read: (v) => (v === null ? null : Number(v)),
    }),
  },
});
const create = z.strictObject(widget.createShape);
const update = updateBodySchema(widget, 'widget_id', 'Only the given fields change');
const ID = '00000000-0000-4000-8000-000000000001';
const SITE = '00000000-0000-4000-8000-000000000002';

describe('defineResource', () => {
  it('derives the create body: required, defaulted and optional fields', () => {
    expect(create.parse({ title: 'x' })).toEqual({ title: 'x', kind: 'a' });
    expect(create.safeParse({}).success).toBe(false);
    expect(create.safeParse({ title: 'x', note: null }).success).toBe(false); // null clears only on update
  });

  it('derives the update body: every field optional, null only for clearable ones, at least one field', () => {
    expect(update.parse({ site_id: SITE, widget_id: ID, note: null })).toEqual({ site_id: SITE, widget_id: ID, note: null });
    expect(update.safeParse({ site_id: SITE, widget_id: ID, title: null }).success).toBe(false);
    expect(update.safeParse({ site_id: SITE, widget_id: ID }).error?.issues[0].message).toBe('Give at least one field to change');
    expect(update.safeParse({ site_id: SITE, widget_id: ID, extra: 1 }).success).toBe(false);
  });

  it('maps API fields to columns, keeping null (it clears) and dropping absent and unknown fields', () => {
    expect(widget.columnsOf({ site_id: SITE, widget_id: ID, title: 't', note: null, price: undefined })).toEqual({ title: 't', noteText: null });
  });

  it('maps a row to the response, converting where the field says so', () => {
    const at = new Date('2026-11-21T12:00:00Z');
    const api = widget.toApi({ id: ID, siteId: SITE, title: 't', kind: 'b', noteText: null, price: '12.5', createdAt: at, updatedAt: at });
    expect(api).toEqual({
      widget_id: ID,
      site_id: SITE,
      title: 't',
      kind: 'b',
      note: null,
      price: 12.5,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    });
    expect(widget.schema.parse(api)).toEqual(api);
    expect(Object.keys(widget.schema.shape)).toEqual(['widget_id', 'site_id', 'title', 'kind', 'note', 'price', 'created_at', 'updated_at']);
  });
});
