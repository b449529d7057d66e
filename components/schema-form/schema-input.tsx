import { Field, SelectField, TextAreaField } from '@/components/field';
import type { SchemaField } from '@/components/schema-form/fields';

/** One field of a form generated from a body schema (./fields.ts), labelled, with its hint and error. */
export function SchemaInput({ field: f, value, error }: { field: SchemaField; value?: string; error?: string }) {
  const label = f.required ? f.label : `${f.label} (optional)`;
  const id = `field-${f.name}`;
  const described = [f.description && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const hintText = f.description && (
    <>
      {f.description}
      {f.kind === 'lines' && ' — one per line'}
      {f.kind === 'json' && ' — a JSON object'}
    </>
  );
  const hint = hintText && (
    <p className="hint" id={`${id}-hint`}>
      {hintText}
    </p>
  );
  const err = error && (
    <p className="error" id={`${id}-error`}>
      {error}
    </p>
  );
  const shown = value ?? (Array.isArray(f.defaultValue) ? f.defaultValue.join('\n') : typeof f.defaultValue === 'string' ? f.defaultValue : '');
  switch (f.kind) {
    case 'boolean':
      return (
        <div className="field check-field">
          <label>
            <input type="checkbox" name={f.name} defaultChecked={f.defaultValue === true} aria-describedby={described} /> {f.label}
          </label>
          {hint}
          {err}
        </div>
      );
    case 'select':
      return (
        <SelectField
          name={f.name}
          label={label}
          options={[...(f.required ? [] : [{ value: '', label: '—' }]), ...f.options!.map((o) => ({ value: o }))]}
          defaultValue={shown}
          hint={hintText}
          error={error}
        />
      );
    case 'checks': {
      const picked = Array.isArray(f.defaultValue) ? f.defaultValue : [];
      return (
        <fieldset aria-describedby={described}>
          <legend>{label}</legend>
          <div className="checks">
            {f.options!.map((o) => (
              <label key={o}>
                <input type="checkbox" name={f.name} value={o} defaultChecked={picked.includes(o)} /> {o}
              </label>
            ))}
          </div>
          {hint}
          {err}
        </fieldset>
      );
    }
    case 'lines':
    case 'json':
      return <TextAreaField name={f.name} label={label} defaultValue={shown} hint={hintText} error={error} />;
    default:
      return (
        <Field name={f.name} label={label} type={f.kind === 'number' ? 'number' : 'text'} defaultValue={shown} hint={f.description} error={error} />
      );
  }
}
