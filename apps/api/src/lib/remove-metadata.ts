import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { MetadataOutcome } from './metadata-outcome.ts';
import { METADATA_HANDLING, type MetadataResult } from './strip-metadata.ts';

/**
 * Runs metadata removal (lib/strip-metadata.ts) off the event loop: a crafted file must not stall every
 * other request (finding F1 of the red-team test froze the API with 3.4 KB). Each file gets a fresh worker
 * thread, so nothing a crafted file does to a parser outlives it, with a time limit and a heap cap; a
 * worker over either is terminated and the file is `unremovable`, never stored as if it had been cleaned.
 */

const WORKER_URL = new URL('./metadata-worker.mjs', import.meta.url);
/** Heap for one file: the largest upload, its copy and a parser's structures fit with room to spare. */
const WORKER_HEAP_MB = 1024;
const MAX_CONCURRENT_WORKERS = Math.max(1, Math.min(2, os.availableParallelism() - 1));

let running = 0;
const waiting: Array<() => void> = [];

async function withWorkerSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** Whether the type's metadata is settled without reading the file (plain text, OLE documents). */
export function outcomeWithoutReading(contentType: string): MetadataOutcome | undefined {
  const handling = METADATA_HANDLING.get(contentType);
  if (handling === 'no-metadata') return 'none';
  if (handling === undefined || handling === 'cannot-remove') return 'unremovable';
  return undefined;
}

function runWorker(contentType: string, input: Buffer, timeoutMs: number): Promise<MetadataResult> {
  return new Promise((resolve) => {
    const unremovable = () => resolve({ outcome: 'unremovable', output: input });
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    const timer = setTimeout(() => {
      unremovable();
      void worker.terminate();
    }, timeoutMs);
    const finish = (result: MetadataResult) => {
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    worker.once('message', (message: { outcome: MetadataOutcome; output?: Uint8Array }) => {
      finish(
        message.outcome === 'removed' && message.output
          ? {
              outcome: 'removed',
              output: Buffer.from(
                message.output.buffer,
                message.output.byteOffset,
                message.output.byteLength,
              ),
            }
          : { outcome: message.outcome === 'removed' ? 'unremovable' : message.outcome, output: input },
      );
    });
    // A crash, running out of heap, or exiting without an answer.
    worker.once('error', () => finish({ outcome: 'unremovable', output: input }));
    worker.once('exit', () => finish({ outcome: 'unremovable', output: input }));
    const copy = new Uint8Array(input);
    worker.postMessage({ contentType, input: copy }, [copy.buffer]);
  });
}

/**
 * The upload without its metadata, and what became of it. Never throws, never hangs past `timeoutMs`
 * (counted from when the file's worker starts; at most two run at once, others wait their turn).
 */
export async function removeMetadata(
  contentType: string,
  input: Buffer,
  { timeoutMs }: { timeoutMs: number },
): Promise<MetadataResult> {
  const settled = outcomeWithoutReading(contentType);
  if (settled) return { outcome: settled, output: input };
  return withWorkerSlot(() => runWorker(contentType, input, timeoutMs));
}
