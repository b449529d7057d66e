import { currentDate } from '@/lib/core/clock';
import { found } from '@/lib/core/errors';
import { cancelCommand, getCommand, toCommand } from './repo';
import type { Command } from './schema';

/** The site's command; 404 for one of another site. */
export const siteCommand = async (siteId: string, commandId: string): Promise<Command> => found(await getCommand(siteId, commandId), 'Command');

/** Cancels a pending or running command of the site (a finished one is answered as it is); 404 for one of another site. */
export const cancelSiteCommand = async (siteId: string, commandId: string): Promise<Command> =>
  toCommand(found(await cancelCommand(siteId, commandId, currentDate()), 'Command'));

export { listCommands } from './repo';
