// `node --import tsx bench/body-stall.ts [rounds] [sliceSeconds]`: how `/api/health` answers while ten callers
// send 1 MiB JSON bodies without pause, with the CSRF cookie and header pair any caller can make up. Two loads in
// turns: FLAT bodies (one long string: the baseline, what any 1 MiB body costs to read and parse) and DEEP
// bodies (brackets nested 500,000 levels, which JSON.parse would take seconds of the event loop over). Each round
// runs each load for `sliceSeconds` (default 5), the order rotated, `rounds` rounds (default 4); meanwhile one
// probe asks /api/health one request at a time. Prints each load's health latencies (p50, p95, p99, max), how
// the bodies were answered, and exits 1 when health p95 under the deep load is 100 ms or more.

import { apiRequest, BENCH_CSRF, withApi } from './api-server.ts';
import { httpClient, percentile } from './lib.ts';

const ROUNDS = Number(process.argv[2] ?? 4);
const SLICE_MS = Number(process.argv[3] ?? 5) * 1000;
const SENDERS = 10;
const MIB = 1024 * 1024;
const TARGET = '/api/v1/user/';

const flat = `{"email":"${'x'.repeat(MIB - 12)}"}`;
const depth = MIB / 2 - 1;
const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
const print = (line: string) => process.stdout.write(`${line}\n`);

interface Load {
  name: string;
  body: string;
  health: number[];
  statuses: Map<number, number>;
  sent: number;
}

async function runSlice(base: string, load: Load, durationMs: number, record: boolean) {
  const senders = httpClient(base, SENDERS);
  const probe = httpClient(base, 1);
  const headers = {
    'content-type': 'application/json',
    'x-csrftoken': BENCH_CSRF,
    cookie: `csrftoken=${BENCH_CSRF}`,
  };
  const end = performance.now() + durationMs;
  const sending = Array.from({ length: SENDERS }, async () => {
    while (performance.now() < end) {
      const status = await senders.request('POST', TARGET, headers, load.body).catch(() => 0);
      if (!record) continue;
      load.sent += 1;
      load.statuses.set(status, (load.statuses.get(status) ?? 0) + 1);
    }
  });
  // The probe starts once the senders are under way, and stops with them.
  await new Promise((resolve) => setTimeout(resolve, 200));
  while (performance.now() < end) {
    const t0 = performance.now();
    const status = await probe.request('GET', '/api/health', {});
    if (record && status === 200) load.health.push(performance.now() - t0);
  }
  await Promise.all(sending);
  senders.close();
  probe.close();
}

async function main() {
  await withApi({ ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000' }, async ({ base }) => {
    const csrf = await apiRequest(base, 'GET', '/api/csrf');
    if (csrf.status >= 400) throw new Error(`the API is not answering: ${csrf.status}`);
    const loads: Load[] = [
      { name: 'ten 1 MiB FLAT bodies (baseline)', body: flat },
      { name: 'ten 1 MiB DEEP bodies (500,000 levels)', body: deep },
    ].map((load) => ({ ...load, health: [], statuses: new Map(), sent: 0 }));
    for (const load of loads) await runSlice(base, load, 1000, false);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let turn = 0; turn < loads.length; turn += 1)
        await runSlice(base, loads[(round + turn) % loads.length]!, SLICE_MS, true);
    }
    print(
      `POST ${TARGET} from ${SENDERS} callers, ${ROUNDS} rounds of ${SLICE_MS / 1000} s a load, in turns`,
    );
    print('| load | health probes | p50 ms | p95 ms | p99 ms | max ms | bodies sent | their answers |');
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const load of loads) {
      const sorted = [...load.health].sort((a, b) => a - b);
      const answers = [...load.statuses].map(([status, count]) => `${status} × ${count}`).join(', ');
      print(
        `| ${load.name} | ${sorted.length} | ${percentile(sorted, 0.5)} | ${percentile(sorted, 0.95)} | ${percentile(sorted, 0.99)} | ${percentile(sorted, 1)} | ${load.sent} | ${answers} |`,
      );
    }
    const deepP95 = percentile(
      [...loads[1]!.health].sort((a, b) => a - b),
      0.95,
    );
    if (deepP95 >= 100) process.exitCode = 1;
  });
}

await main();
