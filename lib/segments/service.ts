/** The segments domain as the console and routes reach it; the tools call the same functions. */
export {
  assertSegmentOfSite,
  createSegment,
  deleteSegment,
  findSegment,
  listSegments,
  saveClusterSegments,
  segmentLeadCounts,
  updateSegment,
} from './repo';
