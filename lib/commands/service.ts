import { currentDate } from '@/lib/core/clock';
import { found } from '@/lib/core/errors';
import { commandChanged } from './changes';
import { cancelCommand, getCommand, toCommand } from './repo';
import type { Command } from './schema';

/** The site's command; 404 for one of another site. */
export const siteCommand = async (siteId: string, commandId: string): Promise<Command> => found(await getCommand(siteId, commandId), 'Command');

/** Cancels a pending or running command of the site (a finished one is answered as it is); 404 for one of another site. */
export async function cancelSiteCommand(siteId: string, commandId: string): Promise<Command> {
  const row = found(await cancelCommand(siteId, commandId, currentDate()), 'Command');
  // A command this process runs stops now, wherever the database's announcement reaches.
  commandChanged(commandId);
  return toCommand(row);
}

export { claimCommand, commandStatus, failCommand, failInterrupted, findCommand, getCommand, listCommands, type CommandRow } from './repo';
