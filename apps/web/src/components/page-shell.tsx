import { useDocumentTitle } from './page-title';

interface PageShellProps {
  /** The page's one h1, also used for the document title. */
  title: string;
  subtitle?: React.ReactNode;
  maxWidth?: 'sm' | 'md' | 'lg';
  children: React.ReactNode;
}

/**
 * Plain HTML (styles/plain-controls.css) with MUI Container's widths and the theme's h1: it frames MUI pages and
 * the pages that draw without MUI alike.
 */
export function PageShell({ title, subtitle, maxWidth = 'md', children }: PageShellProps) {
  useDocumentTitle(title);
  return (
    <div className={`shell-container page-shell page-shell--${maxWidth}`}>
      <div className="page-shell__head">
        <h1 className="page-shell__title">{title}</h1>
        {subtitle && <p className="page-shell__subtitle">{subtitle}</p>}
      </div>
      {children}
    </div>
  );
}
