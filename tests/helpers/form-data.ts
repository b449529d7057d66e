/** A form's fields as the browser posts them: `[name, value]` pairs, repeats kept in order. */
export function postedForm(entries: [string, string][]): FormData {
  const form = new FormData();
  for (const [name, value] of entries) form.append(name, value);
  return form;
}
