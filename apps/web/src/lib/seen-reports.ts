/**
 * The dashboard's "new" marker: for each report, the `updated_at` the reporter last saw on its page, kept on
 * this device only (the server is not told what a reporter has read). A report is new when the server's
 * `updated_at` is later: a status change, a note or a message since the last visit.
 */
export const SEEN_REPORTS_KEY = 'ansim.seenReports';
/** Enough for anyone's own reports; the oldest entries go first beyond it. */
const MAX_ENTRIES = 200;

type Seen = Record<string, string>;

export function readSeenReports(): Seen {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(SEEN_REPORTS_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

export function markReportSeen(id: string, updatedAt: string): void {
  const seen = readSeenReports();
  if (seen[id] === updatedAt) return;
  delete seen[id];
  seen[id] = updatedAt;
  const entries = Object.entries(seen).slice(-MAX_ENTRIES);
  try {
    localStorage.setItem(SEEN_REPORTS_KEY, JSON.stringify(Object.fromEntries(entries)));
  } catch {
    // Storage full or disabled: the marker simply stays until the next successful visit.
  }
}

/** A report never opened here counts as seen as filed: the reporter knows what they submitted. */
export function isReportUnread(
  report: { id: string; created_at: string; updated_at: string },
  seen: Seen,
): boolean {
  const since = seen[report.id] ?? report.created_at;
  return Date.parse(report.updated_at) > Date.parse(since);
}
