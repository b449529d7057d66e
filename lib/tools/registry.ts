import type { AnyTool } from './define-tool';
import { analyzeICPTotalCountTool, createIcpMiningTool, getFinderCategoryIdsTool, searchRegionVenuesTool } from './finder';
import { createLeadTool, getLeadPropertiesTool, getLeadsTool, identifyLeadTool, qualifyLeadTool, updateLeadTool } from './leads';
import { addLeadNoteTool, getLeadNotesTool, getLeadTimelineTool, mergeLeadsTool } from './people';
import { createRequirementTool, getRequirementsTool, updateRequirementTool } from './requirements';
import { createSegmentTool, getSegmentsTool, updateSegmentTool } from './segments';
import {
  createSequenceTool,
  enrollInSequenceTool,
  getSequencesTool,
  getSequenceTool,
  unenrollFromSequenceTool,
  updateSequenceTool,
} from './sequences';
import { updateSiteSettingsTool } from './settings';

/** Every tool: the REST tool routes, the MCP server and the agents all read this list. */
export const tools: readonly AnyTool[] = [
  createLeadTool,
  getLeadsTool,
  updateLeadTool,
  qualifyLeadTool,
  identifyLeadTool,
  addLeadNoteTool,
  getLeadNotesTool,
  getLeadTimelineTool,
  mergeLeadsTool,
  getLeadPropertiesTool,
  createSegmentTool,
  getSegmentsTool,
  updateSegmentTool,
  createRequirementTool,
  getRequirementsTool,
  updateRequirementTool,
  updateSiteSettingsTool,
  getFinderCategoryIdsTool,
  analyzeICPTotalCountTool,
  createIcpMiningTool,
  searchRegionVenuesTool,
  getSequencesTool,
  getSequenceTool,
  createSequenceTool,
  updateSequenceTool,
  enrollInSequenceTool,
  unenrollFromSequenceTool,
] as unknown as AnyTool[];

export const toolByName = (name: string): AnyTool | undefined => tools.find((t) => t.name === name);
