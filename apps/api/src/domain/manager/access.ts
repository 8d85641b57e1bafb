import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { requireSession } from '../../plugins/session.ts';

export interface ManagerContext {
  userId: string;
  name: string;
  companyId: string;
}

/** Logged out → 401; logged in but not a manager of a company → 403. Company scoping starts here. */
export async function requireManager(request: FastifyRequest): Promise<ManagerContext> {
  const session = await requireSession(request);
  if (session.user.role !== 'manager' || !session.user.companyId) throw new AppError('FORBIDDEN');
  return { userId: session.user.id, name: session.user.name, companyId: session.user.companyId };
}
