import type { TestProject } from 'vitest/node';
import { bundleWorkflows } from '@/lib/workflows/engines/temporal/worker';
import { findTemporalCli, missingCliMessage, startTemporalDevServer, type TemporalTestServer } from './temporal-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dev server and the workflow bundle of this run; null when the CLI is absent (outside CI). */
    temporal: (TemporalTestServer & { workflowBundle: string }) | null;
  }
}

/**
 * One Temporal dev server and one workflow bundle (webpack takes seconds) for every Temporal
 * suite of the run. Under CI=true a missing CLI fails the run instead of skipping.
 */
export default async function setup(project: TestProject) {
  const cli = findTemporalCli();
  if (!cli) {
    if (process.env.CI === 'true') throw new Error(`The Temporal suites are required under CI=true, but ${missingCliMessage()}`);
    console.warn(`Temporal suites skipped: ${missingCliMessage()}; they are required under CI=true.`);
    project.provide('temporal', null);
    return;
  }
  const [server, bundle] = await Promise.all([startTemporalDevServer(cli), bundleWorkflows()]);
  project.provide('temporal', { address: server.address, namespace: server.namespace, workflowBundle: bundle.code });
  return () => server.stop();
}
