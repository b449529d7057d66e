/** Instances and robots (their auth is `policies.key`: read for GET, write otherwise). */
export const INSTANCE_TAGS = ['Instances'];
export const ROBOT_TAGS = ['Robots'];
