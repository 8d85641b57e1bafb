import { create } from 'zustand';
import type { IntakeGrant } from '../api/intake';
import { readDraftField, removeDraftField, writeDraftField } from '../lib/draft-storage';

/** The header that carries an anonymous draft's intake token (docs/decisions/0005): never the account cookie. */
export const INTAKE_HEADER = 'X-Intake-Token';

/** Kept under the draft's prefix: it belongs to the draft, and logout removes it with the draft. */
const INTAKE_FIELD = 'intake';
const FILES_LOST_FIELD = 'intake_files_lost';

export interface IntakeSession {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** The company's public intake code when the draft was started from `/c/{code}`; null for a member. */
  code: string | null;
  companyName: string;
}

/** The API's `expires`: epoch seconds like the login's, or an ISO date. */
export function expiresToMillis(expires: unknown): number {
  if (typeof expires === 'number' && Number.isFinite(expires))
    return expires < 1e12 ? expires * 1000 : expires;
  if (typeof expires === 'string') {
    const parsed = Date.parse(expires);
    if (Number.isFinite(parsed)) return parsed;
  }
  return Number.NaN;
}

function isSession(value: unknown): value is IntakeSession {
  const candidate = value as IntakeSession | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.token === 'string' &&
    candidate.token.length > 0 &&
    typeof candidate.expiresAt === 'number' &&
    (candidate.code === null || typeof candidate.code === 'string') &&
    typeof candidate.companyName === 'string'
  );
}

function loadSession(): IntakeSession | null {
  const stored = readDraftField<unknown>(INTAKE_FIELD);
  return isSession(stored) ? stored : null;
}

interface IntakeState {
  session: IntakeSession | null;
  /** The public code survives an expired token, so a stranger can renew it on the wizard with a captcha. */
  code: string | null;
  /** Set when an expired token took the draft's files with it; the wizard asks to attach them again. */
  filesLost: boolean;
  start: (session: IntakeSession) => void;
  /** The server no longer knows the token: forget it, keep the code, and note that the files are gone. */
  expire: () => void;
  dismissFilesLost: () => void;
  clear: () => void;
  reload: () => void;
}

const initial = () => {
  const session = loadSession();
  const storedCode = readDraftField<unknown>('intake_code');
  return {
    session,
    code: session?.code ?? (typeof storedCode === 'string' && storedCode ? storedCode : null),
    filesLost: readDraftField<unknown>(FILES_LOST_FIELD) === true,
  };
};

export const useIntakeToken = create<IntakeState>((set, get) => ({
  ...initial(),
  start: (session) => {
    writeDraftField(INTAKE_FIELD, session);
    if (session.code) writeDraftField('intake_code', session.code);
    else removeDraftField('intake_code');
    set({ session, code: session.code });
  },
  expire: () => {
    const hadToken = get().session !== null;
    removeDraftField(INTAKE_FIELD);
    if (hadToken) writeDraftField(FILES_LOST_FIELD, true);
    set((state) => ({ session: null, filesLost: state.filesLost || hadToken }));
  },
  dismissFilesLost: () => {
    removeDraftField(FILES_LOST_FIELD);
    set({ filesLost: false });
  },
  clear: () => {
    removeDraftField(INTAKE_FIELD);
    removeDraftField('intake_code');
    removeDraftField(FILES_LOST_FIELD);
    set({ session: null, code: null, filesLost: false });
  },
  reload: () => set(initial()),
}));

export const isSessionUsable = (session: IntakeSession | null, now: number = Date.now()): boolean =>
  session !== null && session.expiresAt > now;

/** The token to send, or null when there is none or it has run out by this device's clock. */
export function currentIntakeToken(): string | null {
  const { session } = useIntakeToken.getState();
  return isSessionUsable(session) ? session!.token : null;
}

/** Headers of a call made for an anonymous draft; empty when the draft holds no intake token. */
export function intakeHeaders(): Record<string, string> {
  const token = currentIntakeToken();
  return token ? { [INTAKE_HEADER]: token } : {};
}

/** Whether the guard may open the anonymous wizard without a login: a token, or a code to renew one with. */
export const useHasIntake = (): boolean =>
  useIntakeToken((state) => state.session !== null || state.code !== null);

/** Keeps a token the server just granted with the draft. */
export function startIntake(grant: IntakeGrant, code: string | null): void {
  const expiresAt = expiresToMillis(grant.expires);
  useIntakeToken.getState().start({
    token: grant.token,
    // A missing or unreadable expiry is treated as the server's 7 days; the server still has the last word.
    expiresAt: Number.isFinite(expiresAt) ? expiresAt : Date.now() + 7 * 24 * 60 * 60 * 1000,
    code,
    companyName: grant.company?.name ?? '',
  });
}
