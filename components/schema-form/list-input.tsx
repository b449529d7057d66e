import type { ReactNode } from 'react';
import { describedBy, ErrorText, Hint, arr, str, type NodeProps } from './leaf-input';
import { fieldId, type FormNode, type FormValue } from './nodes';

type ListNode = Extract<FormNode, { kind: 'strings' | 'objects' | 'pairs' }> & { maxItems?: number };

/**
 * A list field: its items, each drawn by `item` with its remove button, and the add button. On
 * adding or removing, the focus moves to the item next to it: it never falls off the page.
 */
export function ListInput({
  node,
  path,
  value,
  ctx,
  blank,
  item,
}: NodeProps<ListNode> & { blank: () => FormValue; item: (value: FormValue, i: number, remove: ReactNode) => ReactNode }) {
  const items = arr(value);
  const add = () => {
    ctx.set(path, [...items, blank()]);
    ctx.focusLater(fieldId(`${path}.${items.length}`));
  };
  const remove = (i: number) => {
    ctx.set(
      path,
      items.filter((_, j) => j !== i),
    );
    ctx.focusLater(items.length > 1 ? fieldId(`${path}.${Math.max(0, i - 1)}`) : `${fieldId(path)}-add`);
  };
  const removeButton = (i: number) => (
    <button type="button" className="button small" onClick={() => remove(i)} aria-label={`Remove ${node.itemLabel.toLowerCase()} ${i + 1}`}>
      Remove
    </button>
  );
  const full = node.maxItems !== undefined && items.length >= node.maxItems;
  const drawn = items.map((v, i) => item(v, i, removeButton(i)));
  return (
    // An empty list is one compact line (its name and the add button), not a box saying "None yet".
    <fieldset
      className={items.length === 0 ? 'group list empty-list' : 'group list'}
      id={fieldId(path)}
      aria-describedby={describedBy(path, node, ctx)}
    >
      <legend>{node.label}</legend>
      <Hint path={path} node={node} />
      <ErrorText path={path} ctx={ctx} />
      {items.length > 0 && (node.kind === 'strings' ? <ol className="items">{drawn}</ol> : drawn)}
      <button type="button" className="button small" id={`${fieldId(path)}-add`} onClick={add} disabled={full} aria-label={`Add to ${node.label}`}>
        + Add {node.itemLabel.toLowerCase()}
      </button>
      {items.length === 0 && <span className="visually-hidden"> (empty)</span>}
    </fieldset>
  );
}

/** A list of texts: one line each. */
export function StringList(props: NodeProps<Extract<FormNode, { kind: 'strings' }>>) {
  const { node, path, ctx } = props;
  return (
    <ListInput
      {...props}
      blank={() => ''}
      item={(item, i, remove) => {
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
              {remove}
            </div>
            <ErrorText path={itemPath} ctx={ctx} />
          </li>
        );
      }}
    />
  );
}
