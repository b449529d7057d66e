import type { ReactNode } from 'react';
import { describedBy, ErrorText, Hint, Leaf, obj, type NodeProps } from './leaf-input';
import { ListInput, StringList } from './list-input';
import { blankValue, fieldId, type FormNode, type ObjectNode } from './nodes';

/**
 * The settings editor's input for a node of any kind (./nodes.ts): objects as fieldsets, lists
 * with add and remove buttons, maps as one input a key, the rest as one input (./leaf-input.tsx).
 */
export function NodeInput({ node, path, value, ctx, label }: NodeProps & { label?: string }) {
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
function ObjectInput({ node, path, value, ctx, legend }: NodeProps<ObjectNode> & { legend: ReactNode }) {
  return (
    <fieldset className="group" id={fieldId(path)} aria-describedby={describedBy(path, node, ctx)}>
      <legend>{legend}</legend>
      <Hint path={path} node={node} />
      <ObjectFields node={node} path={path} value={value} ctx={ctx} />
    </fieldset>
  );
}

export function ObjectFields({ node, path, value, ctx }: NodeProps<ObjectNode>) {
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

/** A list of objects: a fieldset each. */
function ObjectList(props: NodeProps<Extract<FormNode, { kind: 'objects' }>>) {
  const { node, path, ctx } = props;
  return (
    <ListInput
      {...props}
      blank={() => blankValue(node.item)}
      item={(item, i, remove) => (
        <div className="item" key={i}>
          <ObjectInput node={node.item} path={`${path}.${i}`} value={item} ctx={ctx} legend={`${node.itemLabel} ${i + 1}`} />
          {remove}
        </div>
      )}
    />
  );
}

/** The name of a pair in a record with free keys. */
const PAIR_KEY: FormNode = { kind: 'text', input: 'text', multiline: false, label: 'Name', required: true, maxLength: 100 };

/** A record with free keys (e.g. budget allocation): a list of name and value pairs. */
function PairList(props: NodeProps<Extract<FormNode, { kind: 'pairs' }>>) {
  const { node, path, ctx } = props;
  return (
    <ListInput
      {...props}
      blank={() => ({ key: '', value: blankValue(node.value) })}
      item={(item, i, remove) => {
        const itemPath = `${path}.${i}`;
        const pair = obj(item);
        return (
          <div className="item" key={i}>
            <fieldset className="group" id={fieldId(itemPath)}>
              <legend>{`${node.itemLabel} ${i + 1}`}</legend>
              <ErrorText path={itemPath} ctx={ctx} />
              <div className="settings-grid">
                <Leaf node={PAIR_KEY} path={`${itemPath}.key`} value={pair.key} ctx={ctx} />
                <NodeInput node={node.value} path={`${itemPath}.value`} value={pair.value} ctx={ctx} />
              </div>
            </fieldset>
            {remove}
          </div>
        );
      }}
    />
  );
}
