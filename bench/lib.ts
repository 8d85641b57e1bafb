import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';

export const repoRoot = path.resolve(import.meta.dirname, '..');

export interface Measurement {
  name: string;
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export function startProcess(
  script: string,
  env: Record<string, string>,
  options: { nodeArgs?: string[] } = {},
): ChildProcess {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export async function measure(name: string, options: autocannon.Options): Promise<Measurement> {
  const defaults = options.amount ? { connections: 50 } : { connections: 50, duration: 8 };
  const result = await autocannon({ ...defaults, ...options });
  return {
    name,
    requests: result.requests.total,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export interface LatencyMeasurement {
  name: string;
  requests: number;
  reqPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** The first failure's message: a baseline that fails is no baseline, and the bench says so. */
  firstError?: string;
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)]! * 100) / 100;
}

/** What the callers of one closed-loop stretch recorded. */
interface Slice {
  latencies: number[];
  errors: number;
  firstError?: string;
  seconds: number;
}

/**
 * `concurrency` callers calling `task` without pause for `leadMs` unmeasured, then `measureMs` measured. Only
 * calls that end inside the measured window count (successes and failures alike), and the window is its length,
 * not until the last caller returns: the callers still in flight at its end would otherwise count a tail in
 * which fewer of them run, which weighs more on the side with the longer calls.
 */
async function runSlice(
  task: (caller: number) => Promise<void>,
  concurrency: number,
  leadMs: number,
  measureMs: number,
): Promise<Slice> {
  const slice: Slice = { latencies: [], errors: 0, seconds: measureMs / 1000 };
  const windowStart = performance.now() + leadMs;
  const windowEnd = windowStart + measureMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, caller) => {
      while (performance.now() < windowEnd) {
        const t0 = performance.now();
        const failure = await task(caller).then(
          () => null,
          (error: unknown) => ({ error }),
        );
        const t1 = performance.now();
        if (t1 <= windowStart || t1 > windowEnd) continue;
        if (!failure) {
          slice.latencies.push(t1 - t0);
          continue;
        }
        slice.errors += 1;
        slice.firstError ??= failure.error instanceof Error ? failure.error.message : String(failure.error);
      }
    }),
  );
  return slice;
}

function measuredSlices(name: string, slices: Slice[]): LatencyMeasurement {
  const measured = summarize(
    name,
    slices.flatMap((slice) => slice.latencies),
    slices.reduce((seconds, slice) => seconds + slice.seconds, 0),
    slices.reduce((errors, slice) => errors + slice.errors, 0),
  );
  const firstError = slices.find((slice) => slice.firstError)?.firstError;
  if (firstError) {
    console.error(`[bench] ${name}: ${measured.errors} failed calls, the first: ${firstError}`);
    measured.firstError = firstError;
  }
  return measured;
}

/**
 * A closed-loop load of `concurrency` workers calling `task` for `durationMs`, with exact percentiles.
 * Used where the same work is measured through the API and directly against the database, so both sides
 * are driven by the same harness.
 */
export async function runClosedLoop(
  name: string,
  /** Called again and again by each of `concurrency` callers; `caller` says which one (0-based). */
  task: (caller: number) => Promise<void>,
  options: {
    concurrency: number;
    durationMs: number;
    /**
     * Run for this long first without recording: the scenario's statements are planned and kept, its index
     * pages cached, its code compiled by the time the figures start. Both sides of a comparison get the same.
     */
    warmupMs?: number;
  },
): Promise<LatencyMeasurement> {
  return measuredSlices(name, [
    await runSlice(task, options.concurrency, options.warmupMs ?? 0, options.durationMs),
  ]);
}

/**
 * Closed-loop loads measured in turns instead of one after the other: after each one's warm-up, `rounds` rounds
 * in which every scenario runs a slice of `sliceMs` (led by `leadMs` unmeasured), the order rotated by one each
 * round. A machine whose speed drifts during the comparison (other work on the host, a checkpoint, the table
 * growing) then weighs on every side alike, where back-to-back runs hand the whole drift to whichever ran in it.
 * Returns one measurement a scenario, in the order given.
 */
export async function runInterleaved(
  scenarios: { name: string; task: (caller: number) => Promise<void> }[],
  options: { concurrency: number; rounds: number; sliceMs: number; leadMs: number; warmupMs: number },
): Promise<LatencyMeasurement[]> {
  for (const scenario of scenarios) await runSlice(scenario.task, options.concurrency, options.warmupMs, 0);
  const slices = scenarios.map((): Slice[] => []);
  for (let round = 0; round < options.rounds; round++) {
    for (let turn = 0; turn < scenarios.length; turn++) {
      const index = (round + turn) % scenarios.length;
      slices[index]!.push(
        await runSlice(scenarios[index]!.task, options.concurrency, options.leadMs, options.sliceMs),
      );
    }
  }
  return scenarios.map((scenario, index) => measuredSlices(scenario.name, slices[index]!));
}

/** Exact percentiles of a set of latencies (ms) measured over `seconds`. */
export function summarize(
  name: string,
  latencies: number[],
  seconds: number,
  errors: number,
): LatencyMeasurement {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    name,
    requests: sorted.length,
    reqPerSec: Math.round(sorted.length / seconds),
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    errors,
  };
}

/**
 * A probe, not a load: one request at a time every `intervalMs` until `until` settles (or `durationMs`
 * passes), each latency recorded. Measures how a cheap route answers while something else loads the server.
 */
export async function probeLatency(
  name: string,
  url: string,
  options: { intervalMs: number; until?: Promise<unknown>; durationMs?: number },
): Promise<LatencyMeasurement> {
  const latencies: number[] = [];
  let errors = 0;
  let done = false;
  void options.until?.finally(() => {
    done = true;
  });
  const deadline = performance.now() + (options.durationMs ?? Number.POSITIVE_INFINITY);
  const started = performance.now();
  while (!done && performance.now() < deadline) {
    const t0 = performance.now();
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) latencies.push(performance.now() - t0);
      else errors += 1;
    } catch {
      errors += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
  return summarize(name, latencies, (performance.now() - started) / 1000, errors);
}

/** A response as far as the load generator reads it: its status, and whether the server keeps the socket. */
interface ParsedResponse {
  status: number;
  /** Bytes of the buffer the response took (status line, headers and body). */
  length: number;
  keepAlive: boolean;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * The response at the start of `buffer` once all of it has arrived, or null while it has not: HTTP/1.1 with a
 * Content-Length or a chunked body (without trailers), which is what Fastify answers.
 */
export function parseResponse(buffer: Buffer): ParsedResponse | null {
  const headerEnd = buffer.indexOf(HEADER_END);
  if (headerEnd < 0) return null;
  const head = buffer.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const keepAlive = !/\r\nconnection:\s*close/i.test(head);
  const bodyStart = headerEnd + 4;
  const contentLength = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (contentLength) {
    const length = bodyStart + Number(contentLength[1]);
    return buffer.length >= length ? { status, length, keepAlive } : null;
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return { status, length: bodyStart, keepAlive };
  let offset = bodyStart;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', offset, 'latin1');
    if (lineEnd < 0) return null;
    const size = Number.parseInt(buffer.toString('latin1', offset, lineEnd), 16);
    const next = lineEnd + 2 + size + 2;
    if (buffer.length < next) return null;
    offset = next;
    if (size === 0) return { status, length: offset, keepAlive };
  }
}

/**
 * The load generator's HTTP client for the closed-loop scenarios: HTTP/1.1 written straight on a keep-alive
 * socket per caller, and only as much of each response parsed as says its status and where it ends. The client
 * shares the machine's two cores with the server and the database, so its own CPU is taken from what it measures:
 * under the list's load (bench/profile-api-list.ts) node:http spent 0.37–0.41 ms a request and this 0.19–0.20 ms,
 * most of it the kernel waking the process for each answer (undici's fetch spent several times node:http's).
 */
export function httpClient(base: string, sockets: number) {
  const { hostname, port } = new URL(base);
  const host = `${hostname}:${port}`;
  interface Caller {
    socket: net.Socket | null;
    received: Buffer;
    waiting: { resolve: (status: number) => void; reject: (error: Error) => void } | null;
  }
  const callers: Caller[] = Array.from({ length: sockets }, () => ({
    socket: null,
    received: Buffer.alloc(0),
    waiting: null,
  }));
  const fail = (caller: Caller, error: Error) => {
    caller.socket?.destroy();
    caller.socket = null;
    caller.received = Buffer.alloc(0);
    const waiting = caller.waiting;
    caller.waiting = null;
    waiting?.reject(error);
  };
  const connect = (caller: Caller): net.Socket => {
    const socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      caller.received = caller.received.length ? Buffer.concat([caller.received, chunk]) : chunk;
      const response = parseResponse(caller.received);
      if (!response) return;
      caller.received = caller.received.subarray(response.length);
      if (!response.keepAlive) {
        socket.destroy();
        caller.socket = null;
      }
      const waiting = caller.waiting;
      caller.waiting = null;
      waiting?.resolve(response.status);
    });
    socket.on('error', (error) => fail(caller, error));
    socket.on('close', () => {
      if (caller.socket === socket) fail(caller, new Error('the server closed the connection'));
    });
    return socket;
  };
  return {
    /** Sends one request on an idle caller's socket and reads the whole answer; resolves with its status. */
    request(
      method: string,
      pathname: string,
      headers: Record<string, string>,
      body?: string,
    ): Promise<number> {
      const caller = callers.find((candidate) => !candidate.waiting);
      if (!caller) return Promise.reject(new Error(`more than ${sockets} requests at once`));
      caller.socket ??= connect(caller);
      const lines = [`${method} ${pathname} HTTP/1.1`, `host: ${host}`];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
      const socket = caller.socket;
      return new Promise((resolve, reject) => {
        caller.waiting = { resolve, reject };
        socket.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
      });
    },
    close: () => {
      for (const caller of callers) caller.socket?.destroy();
    },
  };
}

const USER_HZ = 100;

/** CPU (user + system, ms) of every PostgreSQL backend connected to the database `name` (Linux /proc). */
export function backendCpuMs(name: string): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.startsWith('postgres:') || !cmdline.includes(` ${name} `)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/**
 * Busy CPU (ms) of the whole machine so far: every process and the kernel's interrupt work, which is where a
 * loopback socket's delivery to another process is paid. Read before and after a loop, it is what the loop cost
 * on all cores, the load generator and PostgreSQL's background writers included.
 */
export function machineBusyCpuMs(): number {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / USER_HZ;
}

/**
 * Starts bench/profile-client.ts with `load`, waits for its warm-up, and returns `run`: it lets the load go and
 * resolves with the client's report once every request is answered. The profiling aids read their meters just
 * before `run`, so the warm-up stays out of their figures.
 */
export async function startProfileLoad(load: import('./profile-client.ts').ProfileLoad) {
  const client = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'bench/profile-client.ts'), JSON.stringify(load)],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  client.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => client.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('warm\n')) {
        output = '';
        client.stdout.off('data', check);
        resolve();
      }
    };
    client.stdout.on('data', check);
    void exited.then((code) =>
      reject(new Error(`the load generator stopped (${code}) before its warm-up ended`)),
    );
  });
  return {
    async run(): Promise<string> {
      client.stdin.end('go\n');
      const code = await exited;
      if (code !== 0) throw new Error(`the load generator failed (${code})`);
      return output.trim();
    },
  };
}
