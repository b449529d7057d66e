import { z } from 'zod';
import { isoTimestamp, listBodyPagination, listResultShape, siteIdSchema, uuidSchema } from './schemas';

/**
 * One declaration per field of a site-scoped resource (leads, segments, requirements): its
 * column, how the API accepts it (create and update) and how the API shows it. The create and
 * update bodies, the response schema and the row ↔ API mappers are all derived from it, so a new
 * field is the migration, its Drizzle mirror and one entry here.
 *
 * Every resource also has `id`, `site_id`, `created_at` and `updated_at`, set by the service.
 */
type CreateMode = 'required' | 'optional' | { default: unknown };
/** On update a field is optional; `clearable` fields also take `null`, which clears the column. */
type UpdateMode = 'optional' | 'clearable';

export interface Field<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  C extends CreateMode = CreateMode,
  U extends UpdateMode = UpdateMode,
> {
  /** The Drizzle column key. */
  column: string;
  /** What the API accepts (with its bounds and description). */
  in: I;
  /** What the API answers: the stored value's type, without input bounds (older rows may exceed them). */
  out: O;
  create: C;
  update: U;
  /** Column value → API value, when they differ (e.g. numeric columns read as strings). */
  read?: (value: unknown) => z.input<O>;
}

export function field<I extends z.ZodType, O extends z.ZodType, const C extends CreateMode, const U extends UpdateMode>(
  column: string,
  spec: Omit<Field<I, O, C, U>, 'column'>,
): Field<I, O, C, U> {
  return { column, ...spec };
}

type Fields = Record<string, Field>;

type CreateSchema<F extends Field> = F['create'] extends 'required'
  ? F['in']
  : F['create'] extends { default: unknown }
    ? z.ZodDefault<F['in']>
    : z.ZodOptional<F['in']>;
type UpdateSchema<F extends Field> = F['update'] extends 'clearable' ? z.ZodOptional<z.ZodNullable<F['in']>> : z.ZodOptional<F['in']>;

export type CreateShape<FS extends Fields> = { [K in keyof FS]: CreateSchema<FS[K]> };
export type UpdateShape<FS extends Fields> = { [K in keyof FS]: UpdateSchema<FS[K]> };
type OutputShape<FS extends Fields, Id extends string> = { [K in Id]: typeof uuidSchema } & { site_id: typeof uuidSchema } & {
  [K in keyof FS]: FS[K]['out'];
} & { created_at: typeof isoTimestamp; updated_at: typeof isoTimestamp };

/** The row a resource is read from: its fields' columns plus the common ones. */
export interface ResourceRow {
  id: string;
  siteId: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface Resource<FS extends Fields = Fields, Id extends string = string> {
  /** `Lead`, for messages such as "Lead not found". */
  name: string;
  fields: FS;
  /** Body fields of create (the caller adds `site_id`). */
  createShape: CreateShape<FS>;
  /** Body fields of update, all optional. */
  updateShape: UpdateShape<FS>;
  /** The response object. */
  schema: z.ZodObject<OutputShape<FS, Id>>;
  /** Row → API object. */
  toApi(row: ResourceRow & Record<string, unknown>): z.infer<z.ZodObject<OutputShape<FS, Id>>>;
  /** API fields present in `input` → column values (`null` kept: it clears). */
  columnsOf(input: object): Record<string, unknown>;
}

const mapFields = <FS extends Fields, T>(fields: FS, fn: (f: Field) => T) =>
  Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, fn(f)])) as Record<keyof FS, T>;

export function defineResource<FS extends Fields, const Id extends string>(o: { name: string; id: Id; fields: FS }): Resource<FS, Id> {
  const createShape = mapFields(o.fields, (f) =>
    f.create === 'required' ? f.in : f.create === 'optional' ? f.in.optional() : f.in.default(f.create.default as never),
  ) as CreateShape<FS>;
  const updateShape = mapFields(o.fields, (f) => (f.update === 'clearable' ? f.in.nullable().optional() : f.in.optional())) as UpdateShape<FS>;
  const schema = z.object({
    [o.id]: uuidSchema,
    site_id: uuidSchema,
    ...mapFields(o.fields, (f) => f.out),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  }) as unknown as z.ZodObject<OutputShape<FS, Id>>;
  const entries = Object.entries(o.fields);
  return {
    name: o.name,
    fields: o.fields,
    createShape,
    updateShape,
    schema,
    toApi(row) {
      const out: Record<string, unknown> = { [o.id]: row.id, site_id: row.siteId };
      for (const [key, f] of entries) out[key] = f.read ? f.read(row[f.column]) : row[f.column];
      out.created_at = row.createdAt.toISOString();
      out.updated_at = row.updatedAt.toISOString();
      return out as z.infer<typeof schema>;
    },
    columnsOf(input) {
      const columns: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(input)) {
        if (value !== undefined && key in o.fields) columns[o.fields[key].column] = value;
      }
      return columns;
    },
  };
}

/**
 * The update body of a resource: `site_id`, the object's id (`idKey`, "The lead to update"), and at
 * least one field to change.
 */
export function updateBodySchema<FS extends Fields, const K extends string>(
  // any id key: the body names it with `idKey`
  resource: Resource<FS, any>,
  idKey: K,
  description = 'Only the given fields change; null clears an optional field',
) {
  return z
    .strictObject({
      site_id: siteIdSchema,
      ...({ [idKey]: uuidSchema.describe(`The ${resource.name.toLowerCase()} to update`) } as { [P in K]: typeof uuidSchema }),
      ...resource.updateShape,
    })
    .refine((b) => Object.keys(b).some((k) => k !== 'site_id' && k !== idKey), 'Give at least one field to change')
    .describe(description);
}

/** The create body of a resource: `site_id` and its create fields. */
export const createBodySchema = <S extends z.ZodRawShape>(resource: { createShape: S }) =>
  z.strictObject({ site_id: siteIdSchema, ...resource.createShape });

/** The list body of a resource's tool: `site_id`, its filters and a page. */
export const listBodySchema = <S extends z.ZodRawShape>(filters: S) => z.strictObject({ site_id: siteIdSchema, ...filters, ...listBodyPagination });

/** A resource's answers: one object under `one` (`{segment}`), a page of them under `many` (`{segments, total, …}`). */
export function resultSchemas<S extends z.ZodType, const One extends string, const Many extends string>(schema: S, one: One, many: Many) {
  return {
    result: z.object({ [one]: schema } as { [P in One]: S }),
    list: z.object({ ...({ [many]: z.array(schema) } as { [P in Many]: z.ZodArray<S> }), ...listResultShape }),
  };
}
