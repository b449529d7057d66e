/**
 * The one rule for text the API accepts, applied to every string of a request (params, query,
 * body, at any depth of a JSON value, object keys included) and of the console's forms.
 *
 * A string is accepted when every character is an XML 1.0 `Char`: TAB, LF, CR, and U+0020 and
 * above, except lone UTF-16 surrogates and the noncharacters U+FFFE / U+FFFF. So:
 *   - U+0000 is refused: PostgreSQL cannot store it in `text` or `jsonb`.
 *   - A lone surrogate is refused: it is not Unicode text; `text` would silently store U+FFFD
 *     instead and `jsonb` refuses the escaped form.
 *   - Other C0 controls (U+0001–U+0008, U+000B, U+000C, U+000E–U+001F) are refused: nobody types
 *     them, they are how terminal-escape and log/CSV injection travel, and exports to XML-based
 *     formats could not carry them. TAB, LF and CR are ordinary text and are kept.
 *   - DEL and C1 controls (U+007F–U+009F) are kept: XML 1.0 allows them, and text pasted from
 *     mis-decoded Windows-1252 sources carries them in otherwise good data.
 * Only strings are checked; numbers, booleans and files pass (a file's name is a string and is
 * checked under `<field>.name`).
 */

export interface TextIssue {
  /** Where the refused string is: object keys and array indexes from the checked value's root. */
  path: (string | number)[];
  message: string;
}

const REFUSED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` is refused, or undefined when it is acceptable text. */
export function textProblem(value: string): string | undefined {
  const match = REFUSED.exec(value);
  if (!match) return undefined;
  const code = match[0].charCodeAt(0);
  const at = `U+${code.toString(16).toUpperCase().padStart(4, '0')} at character ${match.index + 1}`;
  if (code === 0) return `Must not contain the NUL character (${at})`;
  if (code >= 0xd800 && code <= 0xdfff) return `Must be valid Unicode text: lone surrogate ${at}`;
  if (code >= 0xfffe) return `Must not contain the Unicode noncharacter ${at}`;
  return `Must not contain control characters other than tab, line feed and carriage return (${at})`;
}

/**
 * Values nested deeper than this are refused: no stored JSON needs more, and a deeper value
 * (a 1 MiB body can nest half a million levels) would exhaust the stack of whatever walks it
 * next — serializers, the database's jsonb parser.
 */
export const MAX_INPUT_DEPTH = 64;

/**
 * The first string of `value` that is refused (depth-first, a key before its value), or a value
 * nested deeper than MAX_INPUT_DEPTH. Iterative, so no input can overflow the stack here.
 */
export function findInputIssue(value: unknown): TextIssue | undefined {
  const stack: { value: unknown; path: (string | number)[]; key?: true }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: item, path, key } = stack.pop()!;
    if (typeof item === 'string') {
      const message = textProblem(item);
      if (message) return { path, message: key ? `Field name: ${message}` : message };
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path, message: `Must not be nested deeper than ${MAX_INPUT_DEPTH} levels` };
    if (typeof Blob !== 'undefined' && item instanceof Blob) {
      const name = (item as Blob & { name?: unknown }).name;
      if (typeof name === 'string') stack.push({ value: name, path: [...path, 'name'] });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(item) ? item.map((v, i) => [i, v]) : Object.entries(item);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [name, child] = entries[i];
      stack.push({ value: child, path: [...path, name] });
      if (typeof name === 'string') stack.push({ value: name, path: [...path, name], key: true });
    }
  }
  return undefined;
}
