import { AppError } from '../../lib/app-error.ts';
import type { ActiveSession } from '../sessions/sessions.ts';

export interface OperatorContext {
  userId: string;
}

/**
 * Logged out → 401; anyone but the platform's operator → 403; an operator without a second factor → 403
 * MFA_ENROLLMENT_REQUIRED: the operator can suspend every company, so one stolen password must not be enough.
 */
export async function requireOperator(session: ActiveSession | null): Promise<OperatorContext> {
  if (!session) throw new AppError('UNAUTHORIZED');
  if (session.user.role !== 'operator') throw new AppError('FORBIDDEN');
  // Read with the session itself (findSession), in the same request.
  if (!session.hasSecondFactor) throw new AppError('MFA_ENROLLMENT_REQUIRED');
  return { userId: session.user.id };
}
