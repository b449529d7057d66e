/**
 * One web instance of the app in its own process, for the suite that takes access away on one
 * instance and hammers another (tests/integration/keys/revocation-across-instances.test.ts): the
 * fast path's routes (scripts/fast-path.ts) and the routes that take access away — key revocation
 * and scope change, site deletion, sign-out, password reset — with the reads and writes that use
 * the credentials, served by the route modules through the server entry's dispatcher on the
 * configured database (DATABASE_URL). Prints `listening <url>` once it serves.
 */
import http from 'node:http';
import * as leadsCreate from '@/app/api/agents/tools/leads/create/route';
import * as me from '@/app/api/auth/me/route';
import * as reset from '@/app/api/auth/password/reset/route';
import * as token from '@/app/api/auth/token/route';
import * as keys from '@/app/api/keys/route';
import * as member from '@/app/api/sites/[site_id]/members/[user_id]/route';
import * as members from '@/app/api/sites/[site_id]/members/route';
import * as site from '@/app/api/sites/[site_id]/route';
import * as sites from '@/app/sites/route';
import { nodeDispatcher } from '@/lib/http/node-dispatch';
import { FAST_ROUTES } from '@/scripts/fast-path';
import { listenInTestRange } from './serve';

const dispatch = nodeDispatcher([
  ...FAST_ROUTES,
  { path: '/api/agents/tools/leads/create', module: leadsCreate },
  { path: '/api/auth/me', module: me },
  { path: '/api/auth/password/reset', module: reset },
  { path: '/api/auth/token', module: token },
  { path: '/api/keys', module: keys },
  { path: '/api/sites/{site_id}', module: site },
  { path: '/api/sites/{site_id}/members', module: members },
  { path: '/api/sites/{site_id}/members/{user_id}', module: member },
  { path: '/sites', module: sites },
]);

const server = http.createServer((req, res) => {
  if (req.socket.remoteAddress) req.headers['x-forwarded-for'] = req.socket.remoteAddress;
  if (!dispatch(req, res)) res.writeHead(404).end();
});
server.keepAliveTimeout = 65_000;
void listenInTestRange(server).then((port) => console.log(`listening http://127.0.0.1:${port}`));
process.once('SIGTERM', () => process.exit(0));
