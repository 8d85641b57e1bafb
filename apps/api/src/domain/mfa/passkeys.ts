import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { mfaChallenges, mfaPasskeys, mfaRecoveryCodes, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { type Challenge, createChallenge, deleteUserChallenges, setWebauthnChallenge } from './challenges.ts';
import {
  type Deps,
  dropRecoveryCodesIfNoFactor,
  endOtherSessions,
  mailMfaChange,
  replaceRecoveryCodes,
  requireCurrentPassword,
} from './factors.ts';

/** The relying party is the address users reach: its host is the RP ID, its origin the expected origin. */
function relyingParty(config: Pick<Config, 'PUBLIC_URL'>): { rpID: string; origin: string } {
  const url = new URL(config.PUBLIC_URL);
  return { rpID: url.hostname, origin: url.origin };
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');

export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export async function listPasskeys(database: Database, userId: string): Promise<PasskeyView[]> {
  const rows = await database.db
    .select({
      id: mfaPasskeys.id,
      name: mfaPasskeys.name,
      createdAt: mfaPasskeys.createdAt,
      lastUsedAt: mfaPasskeys.lastUsedAt,
    })
    .from(mfaPasskeys)
    .where(eq(mfaPasskeys.userId, userId))
    .orderBy(asc(mfaPasskeys.createdAt));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/**
 * Options for `navigator.credentials.create()`. The challenge is kept server-side (one pending registration
 * per account); the verify step must answer it within a few minutes.
 */
export async function passkeyRegistrationOptions(
  { database, config }: Deps,
  userId: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const [user] = await database.db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHORIZED');
  const existing = await database.db
    .select({ credentialId: mfaPasskeys.credentialId, transports: mfaPasskeys.transports })
    .from(mfaPasskeys)
    .where(eq(mfaPasskeys.userId, userId));
  const options = await generateRegistrationOptions({
    rpName: '안심신고',
    rpID: relyingParty(config).rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: uuidBytes(userId),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports })),
    // A second factor, not a username-less login: no resident key needed, any authenticator will do.
    authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
  });
  await deleteUserChallenges(database, userId, 'passkey_register');
  await createChallenge(database, userId, 'passkey_register', options.challenge);
  return options;
}

export async function registerPasskey(
  deps: Deps,
  session: { userId: string; idHash: string },
  input: { password: string; name: string; response: RegistrationResponseJSON },
): Promise<{ passkey: PasskeyView; recovery_codes: string[] | null }> {
  const { database, config } = deps;
  const { email } = await requireCurrentPassword(deps, session.userId, input.password);
  // Taken (deleted) before verifying, so one challenge answers one registration at most.
  const taken = await database.db.transaction(async (tx) => {
    const rows = await tx
      .delete(mfaChallenges)
      .where(and(eq(mfaChallenges.userId, session.userId), eq(mfaChallenges.purpose, 'passkey_register')))
      .returning({ challenge: mfaChallenges.webauthnChallenge, expiresAt: mfaChallenges.expiresAt });
    return rows.find((row) => row.challenge && row.expiresAt.getTime() > Date.now());
  });
  if (!taken?.challenge) throw new AppError('MFA_CHALLENGE_EXPIRED');
  const { rpID, origin } = relyingParty(config);
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: taken.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    throw new AppError('INVALID_MFA_CODE');
  }
  if (!verification.verified) throw new AppError('INVALID_MFA_CODE');
  const { credential } = verification.registrationInfo;
  const result = await database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mfaPasskeys)
      .values({
        userId: session.userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: input.name,
      })
      .onConflictDoNothing({ target: mfaPasskeys.credentialId })
      .returning();
    if (!row) throw new AppError('CONFLICT');
    // The first factor of an account comes with recovery codes; a later one leaves the existing codes alone.
    const [anyCode] = await tx
      .select({ id: mfaRecoveryCodes.id })
      .from(mfaRecoveryCodes)
      .where(eq(mfaRecoveryCodes.userId, session.userId))
      .limit(1);
    const codes = anyCode ? null : await replaceRecoveryCodes(tx, session.userId);
    await endOtherSessions(tx, session.userId, session.idHash);
    await mailMfaChange(tx, email, 'passkey_added');
    return {
      passkey: {
        id: row.id,
        name: row.name,
        created_at: row.createdAt.toISOString(),
        last_used_at: null,
      },
      recovery_codes: codes,
    };
  });
  wakeMailWorkers();
  return result;
}

export async function removePasskey(
  deps: Deps,
  userId: string,
  passkeyId: string,
  password: string,
): Promise<void> {
  const { email } = await requireCurrentPassword(deps, userId, password);
  await deps.database.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(mfaPasskeys)
      .where(and(eq(mfaPasskeys.id, passkeyId), eq(mfaPasskeys.userId, userId)))
      .returning({ id: mfaPasskeys.id });
    if (deleted.length === 0) throw new AppError('NOT_FOUND');
    await dropRecoveryCodesIfNoFactor(tx, userId);
    await mailMfaChange(tx, email, 'passkey_removed');
  });
  wakeMailWorkers();
}

/** Options for `navigator.credentials.get()` during a login challenge; the WebAuthn challenge joins it. */
export async function passkeyLoginOptions(
  { database, config }: Deps,
  challenge: Challenge,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const keys = await database.db
    .select({ credentialId: mfaPasskeys.credentialId, transports: mfaPasskeys.transports })
    .from(mfaPasskeys)
    .where(eq(mfaPasskeys.userId, challenge.userId));
  if (keys.length === 0) throw new AppError('NOT_FOUND');
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(config).rpID,
    allowCredentials: keys.map((key) => ({ id: key.credentialId, transports: key.transports as never })),
    userVerification: 'preferred',
  });
  await setWebauthnChallenge(database, challenge.idHash, options.challenge);
  return options;
}

/** Checks a passkey's answer to a login challenge; true when it is right (its signature counter is stored). */
export async function verifyPasskeyLogin(
  { database, config }: Deps,
  challenge: Challenge,
  response: AuthenticationResponseJSON,
): Promise<boolean> {
  if (!challenge.webauthnChallenge) return false;
  const [key] = await database.db
    .select()
    .from(mfaPasskeys)
    .where(and(eq(mfaPasskeys.userId, challenge.userId), eq(mfaPasskeys.credentialId, response.id)));
  if (!key) return false;
  const { rpID, origin } = relyingParty(config);
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.webauthnChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: key.credentialId,
        publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64url')),
        counter: key.counter,
        transports: key.transports as never,
      },
      requireUserVerification: false,
    });
    if (!verification.verified) return false;
    await database.db
      .update(mfaPasskeys)
      .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
      .where(eq(mfaPasskeys.id, key.id));
    return true;
  } catch {
    return false;
  }
}
