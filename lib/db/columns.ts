/**
 * The columns to write for an API payload: each field present in `input` (undefined = absent)
 * mapped to its column key by `map`; `null` is kept, so it clears the column.
 */
export function pickColumns<C>(input: object, map: Record<string, keyof C>): C {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) {
    if (field in map && value !== undefined) out[map[field] as string] = value;
  }
  return out as C;
}
