import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { requireSession } from '../../plugins/session.ts';
import { hasSecondFactor } from '../mfa/factors.ts';

export interface ManagerContext {
  userId: string;
  name: string;
  companyId: string;
}

/**
 * Logged out → 401; logged in but not a manager of a company → 403; a manager without a second factor → 403
 * MFA_ENROLLMENT_REQUIRED (case data is never one stolen password away). Company scoping starts here.
 */
export async function requireManager(request: FastifyRequest): Promise<ManagerContext> {
  const session = await requireSession(request);
  if (session.user.role !== 'manager' || !session.user.companyId) throw new AppError('FORBIDDEN');
  if (!(await hasSecondFactor(request.server.deps.database.db, session.user.id)))
    throw new AppError('MFA_ENROLLMENT_REQUIRED');
  return { userId: session.user.id, name: session.user.name, companyId: session.user.companyId };
}
