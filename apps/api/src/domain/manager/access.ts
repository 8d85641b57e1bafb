import { isHandlerRole } from '@ansim/shared/constants';
import { AppError } from '../../lib/app-error.ts';
import type { ActiveSession } from '../sessions/sessions.ts';
import { type HandlerContext, seesEveryCase } from './case-scope.ts';

export type { HandlerContext, ManagerContext } from './case-scope.ts';
export { canHandleCase } from './case-scope.ts';

/**
 * Logged out → 401; logged in but not a case handler of a company → 403; a handler without a second factor → 403
 * MFA_ENROLLMENT_REQUIRED (case data is never one stolen password away). Company scoping starts here; which
 * cases of the company the handler may see is `caseAccessCondition`.
 */
export async function requireHandler(session: ActiveSession | null): Promise<HandlerContext> {
  if (!session) throw new AppError('UNAUTHORIZED');
  const { role, companyId } = session.user;
  if (!isHandlerRole(role) || !companyId) throw new AppError('FORBIDDEN');
  // Read with the session itself (findSession), in the same request: no query of its own.
  if (!session.hasSecondFactor) throw new AppError('MFA_ENROLLMENT_REQUIRED');
  return { userId: session.user.id, name: session.user.name, companyId, role };
}

/** Every case handler; the name older routes use. */
export const requireManager = requireHandler;

/** A manager or admin: sees every case, assigns, reads the statistics. An investigator gets 403. */
export async function requireCaseManager(session: ActiveSession | null): Promise<HandlerContext> {
  const handler = await requireHandler(session);
  if (!seesEveryCase(handler)) throw new AppError('FORBIDDEN');
  return handler;
}

/** The company's administrator: runs its settings (people, domains, join code, deadlines, templates). */
export async function requireCompanyAdmin(session: ActiveSession | null): Promise<HandlerContext> {
  const handler = await requireHandler(session);
  if (handler.role !== 'admin') throw new AppError('FORBIDDEN');
  return handler;
}
