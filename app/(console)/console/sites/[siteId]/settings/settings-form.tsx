'use client';

import { useActionState, useEffect, useState, type ReactNode } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { saveSettingsAction, type SavedSettings } from '@/app/(console)/_lib/settings-actions';
import { blankValue, fieldId, type FormValue, type ObjectNode, type SettingsField, type SettingsNode } from '@/app/(console)/_lib/settings-form';
import { FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

type Values = Record<string, FormValue>;
type Errors = Record<string, string>;
interface Ctx {
  errors: Errors;
  set(path: string, value: FormValue): void;
  /** Moves the focus to an element (or the first field inside it) once the next render is on screen. */
  focusLater(id: string): void;
}

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
export function SettingsForm({ siteId, group, fields, initial }: { siteId: string; group: string; fields: SettingsField[]; initial: Values }) {
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

  const ctx: Ctx = {
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

function ErrorText({ path, ctx }: { path: string; ctx: Ctx }) {
  const message = ctx.errors[path];
  return message ? (
    <p className="error" id={`${fieldId(path)}-error`}>
      {message}
    </p>
  ) : null;
}

function describedBy(path: string, node: { hint?: string }, ctx: Ctx) {
  const id = fieldId(path);
  return [node.hint ? `${id}-hint` : '', ctx.errors[path] ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

function Hint({ path, node }: { path: string; node: { hint?: string } }) {
  return node.hint ? (
    <p className="hint" id={`${fieldId(path)}-hint`}>
      {node.hint}
    </p>
  ) : null;
}

const str = (v: FormValue | undefined) => (typeof v === 'string' ? v : '');
const arr = (v: FormValue | undefined) => (Array.isArray(v) ? v : []);
const obj = (v: FormValue | undefined) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});

function NodeInput({ node, path, value, ctx, label }: { node: SettingsNode; path: string; value: FormValue | undefined; ctx: Ctx; label?: string }) {
  switch (node.kind) {
    case 'object':
      return <ObjectInput node={node} path={path} value={value} ctx={ctx} legend={label ?? node.label} />;
    case 'strings':
      return <StringList node={node} path={path} value={value} ctx={ctx} />;
    case 'objects':
      return <ObjectList node={node} path={path} value={value} ctx={ctx} />;
    case 'map':
      return (
        <fieldset className="group" id={fieldId(path)} aria-describedby={describedBy(path, node, ctx)}>
          <legend>{node.label}</legend>
          <Hint path={path} node={node} />
          <ErrorText path={path} ctx={ctx} />
          <div className="settings-grid map">
            {node.keys.map(({ key, label }) => (
              <NodeInput key={key} node={node.value} path={`${path}.${key}`} value={obj(value)[key]} ctx={ctx} label={label} />
            ))}
          </div>
        </fieldset>
      );
    case 'pairs':
      return <PairList node={node} path={path} value={value} ctx={ctx} />;
    default:
      return <Leaf node={node} path={path} value={value} ctx={ctx} label={label} />;
  }
}

const humanizeKey = (k: string) => {
  const text = k.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** One input: text, long text, number, yes/no or a choice, with its label, hint and error. */
function Leaf({
  node,
  path,
  value,
  ctx,
  label,
  hideLabel = false,
}: {
  node: SettingsNode;
  path: string;
  value: FormValue | undefined;
  ctx: Ctx;
  label?: string;
  hideLabel?: boolean;
}) {
  const id = fieldId(path);
  const invalid = ctx.errors[path] ? true : undefined;
  const common = { id, 'aria-invalid': invalid, 'aria-describedby': describedBy(path, node, ctx) };
  const text = label ?? node.label;
  let input: ReactNode;
  if (node.kind === 'boolean') {
    return (
      <div className="field check">
        <label>
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => ctx.set(path, e.target.checked)} /> {text}
        </label>
        <Hint path={path} node={node} />
        <ErrorText path={path} ctx={ctx} />
      </div>
    );
  }
  if (node.kind === 'choice') {
    const options = node.options.map((o) => [o, humanizeKey(o)]);
    input = (
      <select {...common} value={str(value)} onChange={(e) => ctx.set(path, e.target.value)}>
        <option value="">— not set —</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    );
  } else if (node.kind === 'text' && node.multiline) {
    input = (
      <textarea
        {...common}
        rows={path === 'about' ? 8 : 3}
        maxLength={node.maxLength}
        value={str(value)}
        onChange={(e) => ctx.set(path, e.target.value)}
      />
    );
  } else if (node.kind === 'number') {
    input = (
      <input
        {...common}
        type="number"
        inputMode={node.integer ? 'numeric' : 'decimal'}
        step={node.integer ? 1 : 'any'}
        min={node.min}
        value={str(value)}
        onChange={(e) => ctx.set(path, e.target.value)}
      />
    );
  } else if (node.kind === 'text') {
    input = (
      <input
        {...common}
        type={node.input}
        maxLength={node.maxLength}
        spellCheck={node.input === 'text' ? undefined : false}
        value={str(value)}
        onChange={(e) => ctx.set(path, e.target.value)}
      />
    );
  }
  return (
    <div className={node.kind === 'text' && node.multiline ? 'field wide' : 'field'}>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {text}
        {node.required && <span className="required"> (required)</span>}
      </label>
      {input}
      <Hint path={path} node={node} />
      <ErrorText path={path} ctx={ctx} />
    </div>
  );
}

function ObjectInput({
  node,
  path,
  value,
  ctx,
  legend,
}: {
  node: ObjectNode;
  path: string;
  value: FormValue | undefined;
  ctx: Ctx;
  legend: ReactNode;
}) {
  return (
    <fieldset className="group" id={fieldId(path)} aria-describedby={describedBy(path, node, ctx)}>
      <legend>{legend}</legend>
      <Hint path={path} node={node} />
      <ObjectFields node={node} path={path} value={value} ctx={ctx} />
    </fieldset>
  );
}

function ObjectFields({ node, path, value, ctx }: { node: ObjectNode; path: string; value: FormValue | undefined; ctx: Ctx }) {
  const fields = obj(value);
  return (
    <>
      <ErrorText path={path} ctx={ctx} />
      {/* Objects of lists only (SWOT, journey stages, do and don't lists) put the lists side by side. */}
      <div className={node.fields.every((f) => f.node.kind === 'strings') ? 'settings-grid lists' : 'settings-grid'}>
        {node.fields.map((f) => (
          <NodeInput key={f.key} node={f.node} path={`${path}.${f.key}`} value={fields[f.key]} ctx={ctx} />
        ))}
      </div>
    </>
  );
}

/** The add button of a list, and what happens on removal: the focus never falls off the page. */
function useList(path: string, value: FormValue | undefined, ctx: Ctx, blank: () => FormValue) {
  const items = arr(value);
  return {
    items,
    add() {
      ctx.set(path, [...items, blank()]);
      ctx.focusLater(fieldId(`${path}.${items.length}`));
    },
    remove(i: number) {
      ctx.set(
        path,
        items.filter((_, j) => j !== i),
      );
      ctx.focusLater(items.length > 1 ? fieldId(`${path}.${Math.max(0, i - 1)}`) : `${fieldId(path)}-add`);
    },
  };
}

function ListShell({
  node,
  path,
  ctx,
  count,
  children,
  onAdd,
}: {
  node: SettingsNode & { itemLabel: string; maxItems?: number };
  path: string;
  ctx: Ctx;
  count: number;
  children: ReactNode;
  onAdd(): void;
}) {
  const full = node.maxItems !== undefined && count >= node.maxItems;
  return (
    // An empty list is one compact line (its name and the add button), not a box saying "None yet".
    <fieldset className={count === 0 ? 'group list empty-list' : 'group list'} id={fieldId(path)} aria-describedby={describedBy(path, node, ctx)}>
      <legend>{node.label}</legend>
      <Hint path={path} node={node} />
      <ErrorText path={path} ctx={ctx} />
      {count > 0 && children}
      <button type="button" className="button small" id={`${fieldId(path)}-add`} onClick={onAdd} disabled={full} aria-label={`Add to ${node.label}`}>
        + Add {node.itemLabel.toLowerCase()}
      </button>
      {count === 0 && <span className="visually-hidden"> (empty)</span>}
    </fieldset>
  );
}

function StringList({
  node,
  path,
  value,
  ctx,
}: {
  node: Extract<SettingsNode, { kind: 'strings' }>;
  path: string;
  value: FormValue | undefined;
  ctx: Ctx;
}) {
  const list = useList(path, value, ctx, () => '');
  return (
    <ListShell node={node} path={path} ctx={ctx} count={list.items.length} onAdd={list.add}>
      {list.items.length > 0 && (
        <ol className="items">
          {list.items.map((item, i) => {
            const itemPath = `${path}.${i}`;
            const id = fieldId(itemPath);
            return (
              <li key={i}>
                <div className="item-row">
                  <label htmlFor={id} className="visually-hidden">
                    {`${node.itemLabel} ${i + 1}`}
                  </label>
                  <input
                    id={id}
                    type="text"
                    maxLength={node.maxLength}
                    value={str(item)}
                    aria-invalid={ctx.errors[itemPath] ? true : undefined}
                    aria-describedby={ctx.errors[itemPath] ? `${id}-error` : undefined}
                    onChange={(e) => ctx.set(itemPath, e.target.value)}
                  />
                  <button
                    type="button"
                    className="button small"
                    onClick={() => list.remove(i)}
                    aria-label={`Remove ${node.itemLabel.toLowerCase()} ${i + 1}`}
                  >
                    Remove
                  </button>
                </div>
                <ErrorText path={itemPath} ctx={ctx} />
              </li>
            );
          })}
        </ol>
      )}
    </ListShell>
  );
}

function ObjectList({
  node,
  path,
  value,
  ctx,
}: {
  node: Extract<SettingsNode, { kind: 'objects' }>;
  path: string;
  value: FormValue | undefined;
  ctx: Ctx;
}) {
  const list = useList(path, value, ctx, () => blankValue(node.item));
  return (
    <ListShell node={node} path={path} ctx={ctx} count={list.items.length} onAdd={list.add}>
      {list.items.map((item, i) => (
        <div className="item" key={i}>
          <ObjectInput node={node.item} path={`${path}.${i}`} value={item} ctx={ctx} legend={`${node.itemLabel} ${i + 1}`} />
          <button
            type="button"
            className="button small"
            onClick={() => list.remove(i)}
            aria-label={`Remove ${node.itemLabel.toLowerCase()} ${i + 1}`}
          >
            Remove
          </button>
        </div>
      ))}
    </ListShell>
  );
}

/** A record with free keys (e.g. budget allocation): a list of name and value pairs. */
function PairList({
  node,
  path,
  value,
  ctx,
}: {
  node: Extract<SettingsNode, { kind: 'pairs' }>;
  path: string;
  value: FormValue | undefined;
  ctx: Ctx;
}) {
  const list = useList(path, value, ctx, () => ({ key: '', value: blankValue(node.value) }));
  const keyNode: SettingsNode = { kind: 'text', input: 'text', multiline: false, label: 'Name', required: true, maxLength: 100 };
  return (
    <ListShell node={node} path={path} ctx={ctx} count={list.items.length} onAdd={list.add}>
      {list.items.map((item, i) => {
        const itemPath = `${path}.${i}`;
        const pair = obj(item);
        return (
          <div className="item" key={i}>
            <fieldset className="group" id={fieldId(itemPath)}>
              <legend>{`${node.itemLabel} ${i + 1}`}</legend>
              <ErrorText path={itemPath} ctx={ctx} />
              <div className="settings-grid">
                <Leaf node={keyNode} path={`${itemPath}.key`} value={pair.key} ctx={ctx} />
                <NodeInput node={node.value} path={`${itemPath}.value`} value={pair.value} ctx={ctx} />
              </div>
            </fieldset>
            <button
              type="button"
              className="button small"
              onClick={() => list.remove(i)}
              aria-label={`Remove ${node.itemLabel.toLowerCase()} ${i + 1}`}
            >
              Remove
            </button>
          </div>
        );
      })}
    </ListShell>
  );
}
