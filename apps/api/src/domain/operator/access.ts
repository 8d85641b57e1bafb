import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { requireSession } from '../../plugins/session.ts';
import { hasSecondFactor } from '../mfa/factors.ts';

export interface OperatorContext {
  userId: string;
}

/**
 * Logged out → 401; anyone but the platform's operator → 403; an operator without a second factor → 403
 * MFA_ENROLLMENT_REQUIRED: the operator can suspend every company, so one stolen password must not be enough.
 */
export async function requireOperator(request: FastifyRequest): Promise<OperatorContext> {
  const session = await requireSession(request);
  if (session.user.role !== 'operator') throw new AppError('FORBIDDEN');
  if (!(await hasSecondFactor(request.server.deps.database.db, session.user.id)))
    throw new AppError('MFA_ENROLLMENT_REQUIRED');
  return { userId: session.user.id };
}
