/**
 * Another process of the app holding a robot browser, for the holders suite
 * (tests/integration/robots/holders.test.ts): on DATABASE_URL it claims the start of
 * HOLD_INSTANCE_ID of HOLD_SITE_ID as any process does before it opens a browser, prints
 * `claimed <holder id>`, and lives until it is killed.
 */
import { claimRobotSlot } from '@/lib/robots/slots';

async function main(): Promise<void> {
  const { row } = await claimRobotSlot(process.env.HOLD_SITE_ID!, process.env.HOLD_INSTANCE_ID!, ['pending'], 'starting');
  process.stdout.write(`claimed ${row?.holderId}\n`);
  // Nothing else: the process holds its browser until it is killed.
  process.stdin.resume();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
