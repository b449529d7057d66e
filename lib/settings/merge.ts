const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The settings merge rules: keys absent from the patch keep their value; a plain object merges
 * into the stored object key by key, recursively; arrays and scalars replace the stored value;
 * `null` removes the key. Neither argument is modified.
 */
export function mergeSettings(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (isPlainObject(value)) out[key] = mergeSettings(isPlainObject(out[key]) ? out[key] : {}, value);
    else out[key] = value;
  }
  return out;
}
