/** The segments domain as the console and routes reach it; the tools call the same functions. */
export { createSegment, deleteSegment, findSegment, listSegments, segmentLeadCounts, updateSegment } from './repo';
