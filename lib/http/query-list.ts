/**
 * Every value of a query parameter that may repeat (`?filter=a&filter=b`): the pipeline's query
 * object keeps one value per name, a route that takes a list reads them all here.
 */
export const queryList = (req: Request, name: string): string[] => new URL(req.url).searchParams.getAll(name);
