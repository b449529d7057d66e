'use client';

import { useActionState, useEffect, useState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { saveSettingsAction, type SavedSettings } from '@/app/(console)/_lib/settings-actions';
import { FormError } from '@/components/field';
import type { FormState } from '@/components/form-state';
import type { EditorCtx } from '@/components/schema-form/leaf-input';
import { NodeInput, ObjectFields } from '@/components/schema-form/node-input';
import { fieldId, type FormValue, type NodeField } from '@/components/schema-form/nodes';
import { SubmitButton } from '@/components/submit-button';

type Values = Record<string, FormValue>;

function setIn(root: FormValue, parts: string[], value: FormValue): FormValue {
  if (parts.length === 0) return value;
  const [head, ...rest] = parts;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[Number(head)] = setIn(copy[Number(head)], rest, value);
    return copy;
  }
  const obj = typeof root === 'object' && root !== null ? root : {};
  return { ...obj, [head]: setIn(obj[head], rest, value) };
}
/**
 * One group of the settings editor. The fields are controlled inputs, so what was typed stays
 * after an error; the form posts them as one JSON value to the server action, which validates
 * with the settings schema and answers with errors by field or the saved values.
 */
export function SettingsForm({ siteId, group, fields, initial }: { siteId: string; group: string; fields: NodeField[]; initial: Values }) {
  const [state, action] = useActionState(forSite(saveSettingsAction, siteId), {} as FormState<SavedSettings>);
  const [values, setValues] = useState<Values>(initial);
  const [focus, setFocus] = useState<string | null>(null);
  const savedAt = state.result?.at;

  useEffect(() => {
    if (state.result) setValues(state.result.values);
    // Only a new save replaces the form's values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedAt]);
  useEffect(() => {
    if (!focus) return;
    const target = document.getElementById(focus);
    const field = target?.matches('input, select, textarea, button') ? target : target?.querySelector<HTMLElement>('input, select, textarea');
    (field ?? target)?.focus();
    setFocus(null);
  }, [focus]);
  useEffect(() => {
    // After a failed save, take the user to the first field with an error.
    const first = Object.keys(state.errors ?? {}).find((k) => k !== 'form');
    if (first) setFocus(fieldId(first));
  }, [state.errors]);

  const ctx: EditorCtx = {
    errors: state.errors ?? {},
    set: (path, value) => setValues((v) => setIn(v, path.split('.'), value) as Values),
    focusLater: setFocus,
  };
  return (
    <form action={action} noValidate className="settings-form">
      <input type="hidden" name="group" value={group} />
      <input type="hidden" name="values" value={JSON.stringify(values)} />
      <FormError message={state.errors?.form} />
      {fields.length === 1 && fields[0].node.kind === 'object' ? (
        // A page of one object (branding, SWOT, …): its parts directly, under the page's heading.
        <ObjectFields node={fields[0].node} path={fields[0].key} value={values[fields[0].key]} ctx={ctx} />
      ) : (
        fields.map(({ key, node }) => <NodeInput key={key} node={node} path={key} value={values[key]} ctx={ctx} />)
      )}
      <div className="form-actions">
        <SubmitButton pending="Saving…">Save</SubmitButton>
        <span role="status" className="copy-status">
          {state.result && !state.errors ? 'Saved' : ''}
        </span>
      </div>
    </form>
  );
}
