// A worker of lib/remove-metadata.ts: strips one file per message, one at a time. Plain JavaScript so
// that it starts under any runner; the TypeScript it loads goes through tsx, as the server's own code does.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { stripMetadata } = await import('./strip-metadata.ts');

parentPort.on('message', async ({ contentType, input }) => {
  const { outcome, output } = await stripMetadata(
    contentType,
    Buffer.from(input.buffer, input.byteOffset, input.byteLength),
  );
  if (outcome !== 'removed') {
    parentPort.postMessage({ outcome });
    return;
  }
  // A copy of its own, so that its memory can move to the main thread instead of being copied again.
  const bytes = new Uint8Array(output);
  parentPort.postMessage({ outcome, output: bytes }, [bytes.buffer]);
});
