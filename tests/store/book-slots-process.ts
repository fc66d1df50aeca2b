/**
 * A second process for tests/store/postgres.test.ts: opens the store on DATABASE_URL (from the
 * environment: a password never goes in argv), says "ready", and on "go" on stdin books every slot
 * of `<first ISO start> <count> <minutes>` at once, then prints how many it got as JSON.
 * The store is opened only on "go", so two processes also race to apply the migrations.
 */
import { createInterface } from 'node:readline';
import { openPostgres } from '../../src/store/postgres.js';
import { createStore } from '../../src/store/store.js';

const [first = '', count = '0', minutes = '30'] = process.argv.slice(2);
const url = process.env.DATABASE_URL ?? '';
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  if (line !== 'go') continue;
  const store = await createStore(await openPostgres(url));
  const length = Number(minutes) * 60_000;
  const slots = Array.from({ length: Number(count) }, (_, index) => {
    const start = new Date(Date.parse(first) + index * length);
    return { slotStart: start.toISOString(), slotEnd: new Date(start.getTime() + length).toISOString() };
  });
  const results = await Promise.all(
    slots.map((slot) =>
      store.book({
        ...slot,
        start: slot.slotStart,
        end: slot.slotEnd,
        bookedAt: new Date().toISOString(),
        firstName: 'Process',
        lastName: String(process.pid),
        email: `p${process.pid}@example.com`,
      }),
    ),
  );
  await store.close();
  process.stdout.write(`${JSON.stringify({ booked: results.filter((result) => result.booked).length })}\n`);
  break;
}
lines.close();
