/**
 * The path of a request with its ids taken out, for logs: `/sites/5f0…/commands` →
 * `/sites/{site_id}/commands`. Each segment equal to a path param's value becomes the param's name.
 */
export function routePattern(pathname: string, params: Record<string, string | string[]>): string {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) names.set(v, name);
  return pathname
    .split('/')
    .map((segment) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return '{?}';
      }
      const name = names.get(decoded);
      return name ? `{${name}}` : segment;
    })
    .join('/');
}
