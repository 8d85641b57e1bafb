import { PageShell } from './page-shell';

/** The frame every account page shares: one h1, a short explanation and an outlined card (plain HTML). */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <PageShell title={title} subtitle={subtitle} maxWidth="sm">
      <div className="plain-surface auth-card">{children}</div>
    </PageShell>
  );
}
