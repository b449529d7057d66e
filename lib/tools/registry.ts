import type { AnyTool } from './define-tool';
import { analyzeICPTotalCountTool, createIcpMiningTool, getFinderCategoryIdsTool, searchRegionVenuesTool } from './finder';
import { createLeadTool, getLeadPropertiesTool, getLeadsTool, identifyLeadTool, qualifyLeadTool, updateLeadTool } from './leads';
import { createRequirementTool, getRequirementsTool, updateRequirementTool } from './requirements';
import { createSegmentTool, getSegmentsTool, updateSegmentTool } from './segments';
import { updateSiteSettingsTool } from './settings';

/** Every tool: the REST tool routes, the MCP server and the agents all read this list. */
export const tools: readonly AnyTool[] = [
  createLeadTool,
  getLeadsTool,
  updateLeadTool,
  qualifyLeadTool,
  identifyLeadTool,
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
] as unknown as AnyTool[];

export const toolByName = (name: string): AnyTool | undefined => tools.find((t) => t.name === name);
