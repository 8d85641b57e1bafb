import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the global setup hands to the specs and to the teardown. */
export interface ServerState {
  baseURL: string;
  dataDir: string;
  pid: number;
  logFile: string;
}

/** E2E_ARTIFACTS lets two runs on one machine keep their server state and results apart. */
export const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(import.meta.dirname, 'artifacts');
const STATE_FILE = join(ARTIFACTS, 'server.json');
/** TOTP secrets the specs enrolled on this run's servers (e2e/fixtures.ts). */
export const TOTP_SECRETS_FILE = join(ARTIFACTS, 'totp-secrets.json');

export function writeServerState(state: ServerState): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
}

export function readServerState(): ServerState {
  return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as ServerState;
}
