import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;
const DOC_ID = 'https://site-growth.invalid/openapi.json';

/**
 * Validates values against schemas of an OpenAPI document (JSON Schema 2020-12), with the
 * document's `#/components/...` references resolved. Returns the errors, or [] when valid.
 */
export function documentValidator(doc: { components: object }) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components } as Json);
  const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();
  const absolute = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(absolute);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : absolute(v)]),
    );
  };
  return (schema: object, value: unknown): string[] => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(absolute(schema) as Json)));
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}
