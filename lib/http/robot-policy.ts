import { TOOL_KEY_HEADERS } from './tool-route';

/** Instances and robots: a site's API key, as Bearer or x-api-key; `read` for GET, `write` otherwise. */
export const robotAuth = { kind: 'apiKey', headers: TOOL_KEY_HEADERS } as const;
export const INSTANCE_TAGS = ['Instances'];
export const ROBOT_TAGS = ['Robots'];
