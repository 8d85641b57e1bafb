import type { ReportStatus } from '@ansim/shared/constants';
import {
  measureUpdateBodyFor,
  type RecordedMeasure,
  statusChangeBodyFrom,
} from '@ansim/shared/contract/manager';
import { zodResolver } from '@hookform/resolvers/zod';

/**
 * The manager dialogs' resolvers, in a module of their own so that zod loads with a dialog's first validation,
 * not with the case page (lib/lazy-resolver.ts, R-PERF-2). They check with the schemas the API checks
 * the same bodies with, judged against the status or measure the dialog shows.
 */
export const statusChangeResolver = (from: ReportStatus) => zodResolver(statusChangeBodyFrom(from));

export const measureDecisionResolver = (recorded: RecordedMeasure) =>
  zodResolver(measureUpdateBodyFor(recorded));
