import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userTokens } from '../../db/schema.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';

export type TokenPurpose = 'confirm_email' | 'reset_password';

export const TOKEN_LIFETIME_SECONDS: Record<TokenPurpose, number> = {
  confirm_email: 24 * 3600,
  reset_password: 3600,
};

type Executor = Pick<Db, 'insert' | 'update'>;

/** Issues a new token and retires the user's earlier unused ones of the same purpose. */
export async function issueUserToken(tx: Executor, userId: string, purpose: TokenPurpose): Promise<string> {
  const token = randomToken();
  await tx
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
  await tx.insert(userTokens).values({
    tokenHash: sha256Hex(token),
    userId,
    purpose,
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_SECONDS[purpose] * 1000),
  });
  return token;
}

/**
 * Marks a token used and returns its user, in one statement so two concurrent uses cannot both succeed.
 * Unknown, used and expired tokens all return null.
 */
export async function consumeUserToken(
  tx: Executor,
  token: string,
  purpose: TokenPurpose,
): Promise<string | null> {
  const [row] = await tx
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userTokens.tokenHash, sha256Hex(token)),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: userTokens.userId });
  return row?.userId ?? null;
}
