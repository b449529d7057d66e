import { randomUUID } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { resetProviders } from '@/lib/core/providers';
import { robotProvider, type BrowserSession } from '@/lib/providers/robots';
import { allowRequest } from '@/lib/robots/outbound';

/**
 * A robot's page cannot reach the machine's own services: every vector a page has to open a
 * connection to a loopback port — WebRTC TURN over TCP and STUN over UDP, an iframe, a meta
 * refresh, `location.href`, `window.open`, a form submission — is tried against a TCP listener
 * and a UDP socket on 127.0.0.1, and neither sees a single connection or datagram. Each page
 * marks itself done when the browser has finished the attempt (ICE gathering complete, the
 * frame's load after its navigation failed), so the counts are read after the fact, not after a
 * guessed delay.
 */
const ROBOT_ENV: Record<string, string> = { ROBOTS_MAX_PER_SITE: '2', ROBOTS_MAX_TOTAL: '4', ROBOTS_ACTION_TIMEOUT_MS: '15000' };

let tcp: net.Server;
let udp: dgram.Socket;
let tcpPort: number;
let udpPort: number;
let connections = 0;
let datagrams = 0;
let session: BrowserSession;

beforeAll(async () => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  Object.assign(process.env, ROBOT_ENV);
  resetConfig();
  tcp = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as AddressInfo).port;
  udp = dgram.createSocket('udp4');
  udp.on('message', () => datagrams++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  udpPort = udp.address().port;
  session = await robotProvider().open({ siteId: randomUUID(), instanceId: randomUUID(), allowRequest, account: { id: randomUUID(), limit: 1 } });
});

afterAll(async () => {
  await session?.close().catch(() => undefined);
  await resetProviders();
  await new Promise<void>((resolve) => tcp?.close(() => resolve()));
  await new Promise<void>((resolve) => (udp ? udp.close(() => resolve()) : resolve()));
  for (const k of Object.keys(ROBOT_ENV)) delete process.env[k];
  resetConfig();
});

const dataPage = (body: string) => `data:text/html;charset=utf-8,${encodeURIComponent(`<!doctype html><html><body>${body}</body></html>`)}`;
const done = `document.body.insertAdjacentHTML('beforeend', '<p id="done">done</p>')`;
/** A frame that is navigated by `how` and marks the page done once that navigation ended (failed or not). */
const frameNavigated = (frameHtml: string) =>
  `<iframe id="f"></iframe><script>
     const f = document.getElementById('f');
     let loads = 0;
     f.addEventListener('load', () => { if (++loads === 2) ${done}; });
     f.srcdoc = ${JSON.stringify(frameHtml)};
   </script>`;

function vectors(): [string, string][] {
  const target = `http://127.0.0.1:${tcpPort}/`;
  const ice = (server: Record<string, unknown>) =>
    `<script>
       const pc = new RTCPeerConnection({ iceServers: [${JSON.stringify(server)}], iceTransportPolicy: 'all' });
       pc.createDataChannel('x');
       pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') ${done}; };
       pc.createOffer().then((o) => pc.setLocalDescription(o));
     </script>`;
  // A frame that requests the target after the vector started; its load (of the refusal) marks the page done.
  const checkFrame = `<script>
      const check = document.createElement('iframe');
      check.onload = () => ${done};
      check.src = ${JSON.stringify(target + 'after')};
      document.body.appendChild(check);
    </script>`;
  /** The vector runs in a frame, then the check frame follows. */
  const afterwards = (frameHtml: string) => `<iframe srcdoc="${frameHtml.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"></iframe>${checkFrame}`;
  return [
    ['RTCPeerConnection with turn: over TCP', ice({ urls: `turn:127.0.0.1:${tcpPort}?transport=tcp`, username: 'u', credential: 'p' })],
    ['RTCPeerConnection with turn: over UDP', ice({ urls: `turn:127.0.0.1:${udpPort}?transport=udp`, username: 'u', credential: 'p' })],
    ['RTCPeerConnection with stun:', ice({ urls: `stun:127.0.0.1:${udpPort}` })],
    ['an iframe', `<iframe src="${target}" onload="${done.replace(/"/g, '&quot;')}"></iframe>`],
    ['a meta refresh', frameNavigated(`<meta http-equiv="refresh" content="0;url=${target}">`)],
    ['location.href', afterwards(`<script>location.href = ${JSON.stringify(target)};</script>`)],
    [
      'a form submission',
      afterwards(`<form method="post" action="${target}"><input name="a" value="b"></form><script>document.forms[0].submit();</script>`),
    ],
    ['window.open', `<script>window.open(${JSON.stringify(target)}, '_blank');</script>${checkFrame}`],
  ];
}

describe('robot egress', () => {
  it('every vector a page has opens zero connections to a loopback listener', async () => {
    const outcomes: Record<string, { connections: number; datagrams: number }> = {};
    for (const [name, body] of vectors()) {
      const before = { connections, datagrams };
      await session.perform({ type: 'navigate', url: dataPage(body) });
      await session.perform({ type: 'wait', selector: '#done' }).catch((error: Error) => {
        throw new Error(`${name}: the page never finished (${error.message})`);
      });
      outcomes[name] = { connections: connections - before.connections, datagrams: datagrams - before.datagrams };
    }
    expect(outcomes).toEqual(Object.fromEntries(vectors().map(([name]) => [name, { connections: 0, datagrams: 0 }])));
    expect({ connections, datagrams }).toEqual({ connections: 0, datagrams: 0 });
  });
});
