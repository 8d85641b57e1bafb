const DAY_MS = 86_400_000;

export type DeadlineState =
  | { kind: 'done'; at: string }
  | { kind: 'overdue'; days: number }
  | { kind: 'due'; days: number };

/**
 * Where a legal deadline stands: met (with when), overdue by whole days, or due in whole days (0 = today).
 * The server's overdue flag wins over the clock, so the page never contradicts the list and the stats.
 */
export function deadlineState(
  input: { dueAt: string; doneAt: string | null; isOverdue: boolean },
  now: number = Date.now(),
): DeadlineState {
  if (input.doneAt) return { kind: 'done', at: input.doneAt };
  const remaining = new Date(input.dueAt).getTime() - now;
  if (input.isOverdue || remaining < 0) {
    return { kind: 'overdue', days: Math.max(0, Math.floor(-remaining / DAY_MS)) };
  }
  return { kind: 'due', days: Math.floor(remaining / DAY_MS) };
}

/** "2026-11" → a short month label for the chart axis. */
export function formatMonth(month: string, language: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (!year || !monthNumber) return month;
  return language === 'en'
    ? new Intl.DateTimeFormat('en', { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(
        new Date(Date.UTC(year, monthNumber - 1, 1)),
      )
    : `${String(year).slice(2)}.${String(monthNumber).padStart(2, '0')}`;
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}
