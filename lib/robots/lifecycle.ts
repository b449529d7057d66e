import { now } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { enqueue } from '@/lib/jobs/queue';
import { robotProvider, type BrowserSession, type SavedBrowserState } from '@/lib/providers/robots';
import { fileStorage } from '@/lib/providers/storage';
import { insertLog, storedKeysOf } from './instance-logs-repo';
import type { InstanceStatus } from './instance-schema';
import { TRANSITIONS, type Operation } from './instance-states';
import { deleteInstanceRow, findInstance, updateInstanceRow, type InstanceRow } from './instances-repo';
import { allowRequest } from './outbound';
import { robotExpiryQueue } from './queue';
import { TIMEOUT_HOURS } from './schema';
import { claimRobotSlot, type RobotAccount } from './slots';

/**
 * The life of an instance's browser: start (or resume), pause, stop, delete, expiry. Each step
 * claims its transition in the database first (lib/instances/states.ts), so two requests on one
 * instance cannot both act; the browser work follows, and the final status is written after it.
 */
const HOUR_MS = 3_600_000;
// Storage keys are written once: each pause saves under a new key and drops the previous one.
const stateKeyOf = (siteId: string, id: string) => `${siteId}/instances/${id}/state-${crypto.randomUUID()}.json`;
export const screenshotKeyOf = (siteId: string, id: string, logId: string) => `${siteId}/instances/${id}/screenshots/${logId}.png`;

export async function loadInstance(siteId: string, id: string): Promise<InstanceRow> {
  return found(await findInstance(siteId, id), 'Instance');
}

const conflict = (op: string, status: InstanceStatus) => new ApiError('CONFLICT', `Cannot ${op} an instance that is ${status}`, { status });

/** Moves the instance into the operation's working status; 409 when its status does not allow it. */
async function claim(siteId: string, row: InstanceRow, op: Exclude<Operation, 'start'>): Promise<InstanceRow> {
  const t = TRANSITIONS[op];
  if (!(t.from as readonly InstanceStatus[]).includes(row.status)) throw conflict(op, row.status);
  return claimed(siteId, row.id, op, await updateInstanceRow(siteId, row.id, { status: t.via }, [row.status]));
}

async function claimed(siteId: string, id: string, label: string, row: InstanceRow | undefined): Promise<InstanceRow> {
  if (!row) throw conflict(label, (await loadInstance(siteId, id)).status);
  return row;
}

/** The start's claim: as `claim`, within the running-robot limits (429 beyond them, status unchanged). */
async function claimStart(siteId: string, row: InstanceRow, label: string): Promise<RobotAccount> {
  const t = TRANSITIONS.start;
  if (!(t.from as readonly InstanceStatus[]).includes(row.status)) throw conflict(label, row.status);
  const slot = await claimRobotSlot(siteId, row.id, [row.status], t.via);
  await claimed(siteId, row.id, label, slot.row);
  return slot.account;
}

export const systemLog = (siteId: string, id: string, message: string, details: Record<string, unknown> = {}, level = 'info') =>
  insertLog(siteId, id, { logType: level === 'error' ? 'error' : 'system', level, message, details });

/**
 * Stops the instance if it is still running past its expiry (the robot expiry job, queued when
 * its browser started; a resumed instance has a later expiry and its own job, so an earlier job
 * finds it not yet due and leaves it). Answers whether it stopped it. The browser is closed here
 * when this process holds it; a browser held by another process is closed there the next time
 * that process touches the instance (`liveSession`, `startInstance`).
 */
export async function expireInstance(siteId: string, id: string): Promise<boolean> {
  const row = await findInstance(siteId, id);
  if (!row || row.status !== 'running' || !row.expiresAt || row.expiresAt.getTime() > now()) return false;
  try {
    await claim(siteId, row, 'expire');
  } catch {
    return false; // another request is acting on it
  }
  await closeSession(id);
  await updateInstanceRow(siteId, id, { status: 'stopped', expiresAt: null, stateKey: null });
  await removeSavedState(siteId, row);
  await systemLog(siteId, id, 'Browser stopped: its timeout ran out', { timeout_hours: Number(row.timeoutHours) });
  return true;
}

async function closeSession(id: string): Promise<void> {
  let session: BrowserSession | undefined;
  try {
    session = robotProvider().session(id);
  } catch {
    return; // no provider: no browser to close
  }
  await session?.close();
}

async function removeSavedState(siteId: string, row: InstanceRow): Promise<void> {
  if (row.stateKey)
    await fileStorage()
      .remove(row.stateKey)
      .catch(() => undefined);
  await updateInstanceRow(siteId, row.id, { stateKey: null });
}

/**
 * The instance's live browser session. A `running` instance whose browser is gone (crash,
 * restart) is marked `error`; either way the answer is 409.
 */
export async function liveSession(siteId: string, row: InstanceRow): Promise<BrowserSession> {
  if (row.status !== 'running') {
    // A browser this process still holds for an instance stopped elsewhere (expired) goes now.
    if (!['starting', 'stopping'].includes(row.status)) await closeSession(row.id);
    throw new ApiError('CONFLICT', `The instance is ${row.status}; start or resume it first`, { status: row.status });
  }
  const session = robotProvider().session(row.id);
  if (session) return session;
  const lost = await updateInstanceRow(siteId, row.id, { status: 'error', expiresAt: null }, ['running']);
  if (lost) await systemLog(siteId, row.id, 'Browser lost: it is no longer running (the service restarted or the browser exited)', {}, 'error');
  throw new ApiError('CONFLICT', 'The instance is error: its browser is no longer running; resume it', { status: 'error' });
}

/**
 * Starts the browser of a stopped, paused, new or failed instance (resume restores the state a
 * pause saved). 503 without a provider, 429 beyond the caps (status unchanged), 502 when the
 * browser fails to open (status `error`).
 */
export async function startInstance(siteId: string, id: string, o: { timeoutHours?: number; label?: string } = {}): Promise<InstanceRow> {
  const row = await loadInstance(siteId, id);
  if (row.instanceType !== 'browser')
    throw new ApiError('PROVIDER_NOT_CONFIGURED', `No robot provider runs ${row.instanceType} instances; only browser instances can start`);
  const provider = robotProvider();
  const previous = row.status;
  const account = await claimStart(siteId, row, o.label ?? 'start');
  let state: SavedBrowserState | undefined;
  try {
    if (row.stateKey) {
      const bytes = await fileStorage().get(row.stateKey);
      if (bytes) state = JSON.parse(Buffer.from(bytes).toString('utf8')) as SavedBrowserState;
    }
    // A browser left open here by an earlier run of the instance (stopped elsewhere since) goes first.
    await closeSession(id);
    const session = await provider.open({ siteId, instanceId: id, state, allowRequest, account });
    const timeoutHours = o.timeoutHours ?? Number(row.timeoutHours ?? TIMEOUT_HOURS.default);
    const started = new Date(now());
    const expiresAt = new Date(started.getTime() + timeoutHours * HOUR_MS);
    const running = await updateInstanceRow(siteId, id, {
      status: 'running',
      timeoutHours,
      startedAt: started,
      expiresAt,
      currentUrl: session.url().startsWith('http') ? session.url() : row.currentUrl,
    });
    await enqueue(robotExpiryQueue, { siteId, instanceId: id }, { startAfter: expiresAt });
    await systemLog(siteId, id, state ? 'Browser resumed from its saved state' : 'Browser started', {
      provider: provider.kind,
      timeout_hours: timeoutHours,
      url: state?.url ?? null,
    });
    return found(running, 'Instance');
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'RATE_LIMITED' || error.code === 'PROVIDER_NOT_CONFIGURED')) {
      await updateInstanceRow(siteId, id, { status: previous });
      throw error;
    }
    log.error('robot browser failed to start', { site_id: siteId, instance_id: id, ...errorFields(error) });
    await updateInstanceRow(siteId, id, { status: 'error', expiresAt: null });
    await systemLog(siteId, id, 'Browser failed to start', {}, 'error');
    throw new ApiError('PROVIDER_ERROR', 'The browser could not be started');
  }
}

/** Saves cookies, storage and URL (file storage), then closes the browser: `paused`. */
export async function pauseInstance(siteId: string, id: string): Promise<InstanceRow> {
  const row = await loadInstance(siteId, id);
  const session = await liveSession(siteId, row);
  await claim(siteId, row, 'pause');
  try {
    const state = await session.save();
    const key = stateKeyOf(siteId, id);
    await fileStorage().put(key, new TextEncoder().encode(JSON.stringify(state)), 'application/json');
    await session.close();
    const paused = await updateInstanceRow(siteId, id, { status: 'paused', stateKey: key, currentUrl: state.url, expiresAt: null });
    if (row.stateKey)
      await fileStorage()
        .remove(row.stateKey)
        .catch(() => undefined);
    await systemLog(siteId, id, 'Browser paused; its state was saved', { url: state.url });
    return found(paused, 'Instance');
  } catch (error) {
    log.error('robot pause failed', { site_id: siteId, instance_id: id, ...errorFields(error) });
    await session.close();
    await updateInstanceRow(siteId, id, { status: 'error', expiresAt: null });
    await systemLog(siteId, id, 'Pausing failed; the browser was closed', {}, 'error');
    throw new ApiError('PROVIDER_ERROR', 'The browser state could not be saved');
  }
}

/** Closes the browser for good (a later start is a fresh browser): `stopped`. */
export async function stopInstance(siteId: string, id: string): Promise<InstanceRow> {
  const row = await loadInstance(siteId, id);
  await claim(siteId, row, 'stop');
  await closeSession(id);
  await removeSavedState(siteId, row);
  const stopped = await updateInstanceRow(siteId, id, { status: 'stopped', expiresAt: null });
  await systemLog(siteId, id, 'Browser stopped');
  return found(stopped, 'Instance');
}

/** Closes the browser and removes the record with its logs, plans, screenshots and saved state. */
export async function deleteInstance(siteId: string, id: string): Promise<void> {
  const row = await loadInstance(siteId, id);
  const keys = await storedKeysOf(siteId, id);
  if (!(await deleteInstanceRow(siteId, id))) throw conflict('delete', (await loadInstance(siteId, id)).status);
  await closeSession(id);
  const storage = fileStorage();
  await Promise.all([...keys, ...(row.stateKey ? [row.stateKey] : [])].map((k) => storage.remove(k).catch(() => undefined)));
}
