import { rmSync } from 'node:fs';
import { readServerState } from './server-state';

export default async function globalTeardown(): Promise<void> {
  const { pid, dataDir } = readServerState();
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } catch {
      break;
    }
  }
  if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
}
