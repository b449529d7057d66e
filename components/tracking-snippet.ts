/**
 * The tracking snippet a site pastes into its pages. The markup lives here only: the snippet
 * page and its copy button both render this string.
 */
export function trackingSnippet(origin: string, siteId: string): string {
  return `<script src="${origin}/t.js" data-site-id="${siteId}" async></script>`;
}
