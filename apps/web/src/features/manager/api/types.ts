import type { ReportStatus } from '@ansim/shared/constants';
import type { ReportForm } from '@ansim/shared/report-form';

/** Wire shapes of the manager API (apps/api/src/domain/manager), named as the server names them. */
export interface ManagerListRow {
  id: string;
  case_number: string;
  report_type: string;
  status: ReportStatus;
  accused_name: string;
  created_at: string;
  updated_at: string;
  ack_due_at: string;
  feedback_due_at: string;
  is_ack_overdue: boolean;
  is_feedback_overdue: boolean;
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface ReportStats {
  total: number;
  by_status: Record<string, number>;
  by_type: Record<string, number>;
  by_month: { month: string; count: number }[];
  median_days_to_close: number | null;
  overdue: { ack: number; feedback: number; total: number };
}

export interface CaseFile {
  id: string;
  name: string;
  size: number;
  content_type: string;
  sha256: string;
}

export interface CaseHistoryEntry {
  from_status: ReportStatus | null;
  to_status: ReportStatus;
  note_for_reporter: string;
  internal_note: string;
  actor_name: string | null;
  created_at: string;
}

export interface CaseMessage {
  id: string;
  author_kind: 'reporter' | 'manager';
  author_name: string;
  body: string;
  created_at: string;
}

export type MeasureDecision = 'pending' | 'granted' | 'refused';

export interface CaseMeasure {
  id: string;
  measure: string;
  detail: string;
  requested_by_reporter: boolean;
  reporter_consent: boolean | null;
  decision: MeasureDecision;
  reason: string;
  decided_at: string | null;
}

export interface CaseInvitation {
  id: string;
  kind: 'defendant' | 'reference';
  name: string;
  email: string;
  witness_index: number | null;
  share_evidence: boolean;
  expires_at: string;
  sent_at: string | null;
  opened_at: string | null;
  acknowledged_at: string | null;
  responded_at: string | null;
  revoked_at: string | null;
  is_expired: boolean;
}

export interface CaseStatement {
  id: string;
  invitation_id: string;
  kind: 'defendant' | 'reference';
  name: string;
  form: Partial<ReportForm>;
  sha256: string;
  created_at: string;
}

export interface ManagerCase {
  id: string;
  case_number: string;
  report_type: string;
  status: ReportStatus;
  created_at: string;
  updated_at: string;
  ack_due_at: string;
  feedback_due_at: string;
  acknowledged_at: string | null;
  feedback_at: string | null;
  closed_at: string | null;
  is_ack_overdue: boolean;
  is_feedback_overdue: boolean;
  allowed_transitions: ReportStatus[];
  /** Null for an anonymous report: the server never tells the company who filed it. */
  reporter: { name: string; email: string } | null;
  form: ReportForm;
  files: CaseFile[];
  history: CaseHistoryEntry[];
  messages: CaseMessage[];
  measures: CaseMeasure[];
  audit: { action: string; actor_name: string | null; at: string }[];
  invitations: CaseInvitation[];
  statements: CaseStatement[];
}
