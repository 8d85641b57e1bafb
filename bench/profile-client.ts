// The load of the profiling aids (bench/profile-api-list.ts, bench/profile-submit.ts), in a process of its own so
// that the profiled process's CPU is the server's alone: `concurrency` callers, each on the bench's own HTTP
// client (bench/lib.ts), send the same request with one of the given cookies in turn. It warms up, says `warm`,
// waits for a line on stdin, then sends `iterations` requests and prints their rate, latencies and its own CPU.
import { performance } from 'node:perf_hooks';
import { httpClient, percentile } from './lib.ts';

export interface ProfileLoad {
  port: number;
  method: 'GET' | 'POST';
  path: string;
  /** The status every answer must have. */
  status: number;
  headers: Record<string, string>;
  /** One per caller's request in turn (a session each). */
  cookies: string[];
  body?: string;
  iterations: number;
  concurrency: number;
  warmup: number;
}

const load = JSON.parse(process.argv[2]!) as ProfileLoad;
const client = httpClient(`http://127.0.0.1:${load.port}`, load.concurrency);
let turn = 0;
const send = async () => {
  const cookie = load.cookies[turn++ % load.cookies.length]!;
  const status = await client.request(load.method, load.path, { ...load.headers, cookie }, load.body);
  if (status !== load.status) throw new Error(`answered ${status}, not ${load.status}`);
};
for (let i = 0; i < load.warmup; i++) await send();
process.stdout.write('warm\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const times: number[] = [];
let next = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
await Promise.all(
  Array.from({ length: load.concurrency }, async () => {
    while (next++ < load.iterations) {
      const t = performance.now();
      await send();
      times.push(performance.now() - t);
    }
  }),
);
const wall = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
times.sort((a, b) => a - b);
process.stdout.write(
  `${times.length} requests in ${(wall / 1000).toFixed(2)} s: ${((times.length / wall) * 1000).toFixed(0)}/s, ` +
    `p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, ` +
    `load generator CPU ${((cpu.user + cpu.system) / 1000 / times.length).toFixed(3)} ms a request\n`,
);
client.close();
process.exit(0);
