/** See server-edges.mjs. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export function refuseMalformed(req: IncomingMessage, res: ServerResponse): boolean;
export interface RouteTable {
  routes: { path: string; methods: string[]; catch_all?: boolean }[];
}
export function routeTable(table: RouteTable): { refuseUnrouted(req: IncomingMessage, res: ServerResponse): boolean };
export function drainAfterAnswer(req: IncomingMessage, res: ServerResponse): void;
