import { announceHere, onAnnouncement, type AnnouncementListener } from '@/lib/db/announcements';

/**
 * A command's status changes, heard as they commit (lib/db/announcements.ts): the database
 * announces each one on `command_changes` with the command's id (a trigger:
 * supabase/migrations/20261207160000_command_changes.sql), whoever wrote it — the cancel route, a
 * deadline job, a run on another process. A listener gets the id, or `undefined` when changes may
 * have been missed.
 */
const CHANNEL = 'command_changes';

export const onCommandChange = (listener: AnnouncementListener): Promise<() => void> => onAnnouncement(CHANNEL, listener);

/** A change this process committed, told to its own listeners at once. */
export const commandChanged = (commandId: string): void => announceHere(CHANNEL, commandId);
