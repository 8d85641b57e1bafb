import { createContext, useContext } from 'react';
import type { InvitationKind } from './api/invitation-api';
import { type StatementDraftState, statementDraftStore } from './statement-draft-store';

interface StatementContextValue {
  kind: InvitationKind;
  token: string;
}

const StatementContext = createContext<StatementContextValue | null>(null);
export const StatementProvider = StatementContext.Provider;

export function useStatementContext(): StatementContextValue {
  const value = useContext(StatementContext);
  if (!value) throw new Error('useStatementContext must be used inside a StatementProvider');
  return value;
}

/** Reads the current invitee's draft (the store of this page's kind). */
export function useStatementDraft<T>(selector: (state: StatementDraftState) => T): T {
  const { kind } = useStatementContext();
  return statementDraftStore(kind)(selector);
}
