import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
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
  if (options.warmupMs) {
    const warmupEnd = performance.now() + options.warmupMs;
    await Promise.all(
      Array.from({ length: options.concurrency }, async (_, caller) => {
        while (performance.now() < warmupEnd) await task(caller).catch(() => undefined);
      }),
    );
  }
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, caller) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await task(caller);
          latencies.push(performance.now() - t0);
        } catch (error) {
          errors += 1;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  const measured = summarize(name, latencies, (performance.now() - started) / 1000, errors);
  if (firstError) {
    console.error(`[bench] ${name}: ${errors} failed calls, the first: ${firstError}`);
    measured.firstError = firstError;
  }
  return measured;
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

/**
 * The load generator's HTTP client for the closed-loop scenarios: node:http over a keep-alive Agent with one
 * socket per concurrent caller. `fetch` (undici) spent several times more CPU per request on this machine,
 * whose two cores the client shares with the server and the database, and so inflated the figures it measured.
 */
export function httpClient(base: string, sockets: number) {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return {
    /** Sends one request and reads the whole answer; resolves with its status. */
    request(
      method: string,
      pathname: string,
      headers: Record<string, string>,
      body?: string,
    ): Promise<number> {
      return new Promise((resolve, reject) => {
        const request = http.request(
          {
            hostname,
            port,
            method,
            path: pathname,
            agent,
            headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (response) => {
            response.on('data', () => {});
            response.on('end', () => resolve(response.statusCode ?? 0));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
