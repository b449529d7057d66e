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

/**
 * The patch that turns `stored` into `next` under the merge rules: `next` where it is not an
 * object, objects key by key, and `null` for every stored key that `next` lacks (an undefined
 * `next` removes the field). For an editor that shows a field whole and saves it whole.
 */
export function replacementPatch(stored: unknown, next: unknown): unknown {
  if (next === undefined) return null;
  if (!isPlainObject(next) || !isPlainObject(stored)) return next;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(stored)) if (!(key in next) || next[key] === undefined) out[key] = null;
  for (const [key, value] of Object.entries(next)) if (value !== undefined) out[key] = replacementPatch(stored[key], value);
  return out;
}
