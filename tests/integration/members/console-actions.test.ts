import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedFor } from '@/app/(console)/_lib/define-action';
import { can, PERMISSIONS, ROLES, type Permission } from '@/lib/members/permissions';

/**
 * The console's server actions read the same permission table as the API: every action bound to
 * a site declares the permission it needs (the type requires it), and this list says which one
 * each must have, so a new site action without an entry fails here by name.
 */
const EXPECTED: Record<string, Permission> = {
  cancelCommandAction: 'crm.write',
  addRecipientAction: 'settings.manage',
  verifyRecipientAction: 'settings.manage',
  removeRecipientAction: 'settings.manage',
  saveSenderAction: 'settings.manage',
  saveMailboxAction: 'settings.manage',
  checkMailboxAction: 'crm.write',
  sendAgentReplyAction: 'crm.write',
  composeEmailAction: 'crm.write',
  createRoleQueryAction: 'crm.write',
  instanceAction: 'crm.write',
  createRobotAction: 'crm.write',
  createKeyAction: 'keys.manage',
  revokeKeyAction: 'keys.manage',
  updateLeadAction: 'crm.write',
  setLeadStatusAction: 'crm.write',
  addNoteAction: 'crm.write',
  deleteNoteAction: 'crm.write',
  mergeLeadsAction: 'crm.write',
  eraseLeadAction: 'people.erase',
  eraseVisitorAction: 'people.erase',
  inviteMemberAction: 'members.manage',
  changeRoleAction: 'members.manage',
  removeMemberAction: 'members.manage',
  revokeInvitationAction: 'members.manage',
  leaveSiteAction: 'site.read',
  addOriginAction: 'settings.manage',
  removeOriginAction: 'settings.manage',
  createAppAction: 'platform.manage',
  createPlatformKeyAction: 'platform.manage',
  revokePlatformKeyAction: 'platform.manage',
  addSecretAction: 'secrets.manage',
  deleteSecretAction: 'secrets.manage',
  createSegmentAction: 'crm.write',
  updateSegmentAction: 'crm.write',
  deleteSegmentAction: 'crm.write',
  saveSettingsAction: 'settings.manage',
  updateSiteAction: 'settings.manage',
  saveTimeZoneAction: 'settings.manage',
  deleteSiteAction: 'site.delete',
  createEndpointAction: 'webhooks.manage',
  pingEndpointAction: 'webhooks.manage',
  deleteEndpointAction: 'webhooks.manage',
  updateEndpointAction: 'webhooks.manage',
  cancelRunAction: 'crm.write',
  startWorkflowAction: 'crm.write',
  createSequenceAction: 'crm.write',
  updateSequenceAction: 'crm.write',
  setSequenceStatusAction: 'crm.write',
  previewStepAction: 'crm.write',
  testSendStepAction: 'crm.write',
  enrollAction: 'crm.write',
  unenrollAction: 'crm.write',
  approveDraftAction: 'crm.write',
  createGoalAction: 'settings.manage',
  deleteGoalAction: 'settings.manage',
  createPropertyAction: 'settings.manage',
  updatePropertyAction: 'settings.manage',
  deletePropertyAction: 'settings.manage',
  createShareAction: 'settings.manage',
  revokeShareAction: 'settings.manage',
  createAnnotationAction: 'crm.write',
  deleteAnnotationAction: 'crm.write',
  saveReportsAction: 'settings.manage',
};

const dir = path.resolve(__dirname, '../../../app/(console)/_lib');
const files = readdirSync(dir).filter((f) => f.endsWith('-actions.ts'));

describe('console actions', () => {
  it('each site action declares the permission of the table', async () => {
    const declared: Record<string, Permission> = {};
    for (const file of files) {
      const actions = (await import(/* @vite-ignore */ path.join(dir, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(actions)) {
        if (typeof value === 'function' && 'permission' in value) declared[name] = (value as { permission: Permission }).permission;
      }
    }
    expect(declared).toEqual(EXPECTED);
  });

  it('refuses a role the table does not allow, with the role named, and lets the others through', () => {
    for (const role of ROLES) {
      for (const permission of PERMISSIONS) {
        const refused = refusedFor(role, permission);
        if (can(role, permission)) expect(refused).toBeUndefined();
        else expect(refused?.form).toContain(`(${role})`);
      }
    }
  });
});
