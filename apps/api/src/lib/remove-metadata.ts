import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { type FairKey, FairQueue } from './fair-queue.ts';
import type { MetadataOutcome } from './metadata-outcome.ts';
import { METADATA_HANDLING, type MetadataResult } from './strip-metadata.ts';

/**
 * Runs metadata removal (lib/strip-metadata.ts) off the event loop: a crafted file must not stall every
 * other request (finding F1 of the red-team test froze the API with 3.4 KB). A small pool of worker
 * threads takes one file at a time each, with a time limit and a heap cap; a worker over either is
 * terminated, replaced, and its file is `unremovable`, never stored as if it had been cleaned.
 */

const WORKER_URL = new URL('./metadata-worker.mjs', import.meta.url);
/** Heap for one file: the largest upload, its copy and a parser's structures fit with room to spare. */
const WORKER_HEAP_MB = 1024;

/**
 * Workers for this machine: a core each, leaving one to the event loop, as many as the memory holds at two
 * heaps apiece, and never fewer than `minimum` (METADATA_WORKERS_MIN; two by default, so that one company's
 * uploads cannot hold every worker: see the fair queue below).
 */
export function metadataPoolSize(
  minimum: number,
  machine = { cores: os.availableParallelism(), memoryBytes: os.totalmem() },
): number {
  const byMemory = Math.floor(machine.memoryBytes / (2 * WORKER_HEAP_MB * 1024 * 1024));
  return Math.max(1, minimum, Math.min(machine.cores - 1, byMemory));
}

let MAX_WORKERS = metadataPoolSize(2);
/** Who waits for a worker, served round-robin by company and caller (lib/fair-queue.ts). */
const queue = new FairQueue(MAX_WORKERS);

/** Sizes the pool to the machine with the configured minimum (called once by the app at start). */
export function configureMetadataPool({ minimumWorkers }: { minimumWorkers: number }): void {
  MAX_WORKERS = metadataPoolSize(minimumWorkers);
  queue.resize(MAX_WORKERS);
}

/** The queue in front of the workers, for tests that need every worker busy. */
export const metadataQueue = queue;
/** An idle worker is kept this long for the next upload (starting one loads the parsers), then ended. */
const IDLE_WORKER_MS = 30_000;

interface Job {
  resolve: (result: MetadataResult) => void;
  input: Buffer;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  job?: Job;
  idleTimer?: NodeJS.Timeout;
}

const slots = new Set<Slot>();
const idle: Slot[] = [];
/** Files waiting for a worker; `undefined` when none could be started for them. */
const waiting: Array<(slot: Slot | undefined) => void> = [];

function unremovable(input: Buffer): MetadataResult {
  return { outcome: 'unremovable', output: input };
}

function spawn(): Slot {
  const slot: Slot = {
    worker: new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } }),
  };
  slots.add(slot);
  slot.worker.on('message', (message: { outcome: MetadataOutcome; output?: Uint8Array }) => {
    const job = slot.job;
    if (!job) return;
    const { output } = message;
    if (message.outcome === 'removed' && output) {
      finish(slot, {
        outcome: 'removed',
        output: Buffer.from(output.buffer, output.byteOffset, output.byteLength),
      });
    } else {
      finish(slot, {
        outcome: message.outcome === 'removed' ? 'unremovable' : message.outcome,
        output: job.input,
      });
    }
  });
  // A crash or running out of heap: `exit` follows and settles the file.
  slot.worker.on('error', () => {});
  slot.worker.on('exit', () => {
    slots.delete(slot);
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    clearTimeout(slot.idleTimer);
    if (slot.job) finish(slot, unremovable(slot.job.input), { healthy: false });
    const waiter = waiting.shift();
    if (waiter) waiter(spawnOrNothing());
  });
  return slot;
}

function spawnOrNothing(): Slot | undefined {
  try {
    return spawn();
  } catch {
    return undefined;
  }
}

function acquire(): Promise<Slot | undefined> {
  const ready = idle.pop();
  if (ready) {
    clearTimeout(ready.idleTimer);
    ready.worker.ref();
    return Promise.resolve(ready);
  }
  if (slots.size < MAX_WORKERS) return Promise.resolve(spawnOrNothing());
  return new Promise((resolve) => waiting.push(resolve));
}

function finish(slot: Slot, result: MetadataResult, { healthy = true } = {}) {
  const job = slot.job;
  if (!job) return;
  slot.job = undefined;
  clearTimeout(job.timer);
  job.resolve(result);
  if (!healthy) {
    // Its replacement, if a file is waiting, is started once this one has exited.
    void slot.worker.terminate();
    return;
  }
  const waiter = waiting.shift();
  if (waiter) {
    waiter(slot);
    return;
  }
  // An idle worker does not keep the process alive.
  slot.worker.unref();
  slot.idleTimer = setTimeout(() => void slot.worker.terminate(), IDLE_WORKER_MS);
  slot.idleTimer.unref();
  idle.push(slot);
}

/** Files being stripped or waiting for a worker, for tests and diagnostics. */
export function metadataJobsInProgress(): number {
  return queue.pending;
}

/** Whether the type's metadata is settled without reading the file (plain text, OLE documents). */
export function outcomeWithoutReading(contentType: string): MetadataOutcome | undefined {
  const handling = METADATA_HANDLING.get(contentType);
  if (handling === 'no-metadata') return 'none';
  if (handling === undefined || handling === 'cannot-remove') return 'unremovable';
  return undefined;
}

/**
 * The upload without its metadata, and what became of it. Never hangs past `timeoutMs` counted from when a
 * worker takes the file. Files wait for a worker in the fair queue, under `fairness` (its company and its
 * caller); one still waiting after `waitMs` is rejected with `QueueWaitExpired`, the only error thrown.
 */
export async function removeMetadata(
  contentType: string,
  input: Buffer,
  {
    timeoutMs,
    waitMs = 60_000,
    fairness = { group: '', caller: '' },
  }: { timeoutMs: number; waitMs?: number; fairness?: FairKey },
): Promise<MetadataResult> {
  const settled = outcomeWithoutReading(contentType);
  if (settled) return { outcome: settled, output: input };
  return queue.run(fairness, () => runInWorker(contentType, input, timeoutMs), { waitMs });
}

async function runInWorker(contentType: string, input: Buffer, timeoutMs: number): Promise<MetadataResult> {
  const slot = await acquire();
  if (!slot) return unremovable(input);
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(slot, unremovable(input), { healthy: false }), timeoutMs);
    slot.job = { resolve, input, timer };
    const copy = new Uint8Array(input);
    slot.worker.postMessage({ contentType, input: copy }, [copy.buffer]);
  });
}
