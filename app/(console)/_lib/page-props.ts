/**
 * What Next hands a site's page: the site id from the path (and, on a page of one thing, that
 * thing's id: `SitePageProps<Query, { leadId: string }>`) and the query the page reads.
 */
export interface SitePageProps<Query extends Record<string, string | undefined>, Path extends Record<string, string> = Record<never, string>> {
  params: Promise<{ siteId: string } & Path>;
  searchParams: Promise<Query>;
}

/** What Next hands a page that a link from an email opens: `?token=`. */
export interface TokenPageProps {
  searchParams: Promise<{ token?: string | string[] }>;
}

/** The link's token; none (an empty one) when the link has no token or several. */
export async function tokenOf({ searchParams }: TokenPageProps): Promise<string> {
  const { token } = await searchParams;
  return typeof token === 'string' ? token : '';
}
