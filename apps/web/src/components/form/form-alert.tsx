import { useEffect, useRef } from 'react';
import { Icon, type IconName } from '../icons';

type Severity = 'error' | 'warning' | 'info' | 'success';

const ICONS: Record<Severity, IconName> = {
  error: 'errorOutline',
  warning: 'reportProblemOutlined',
  info: 'infoOutlined',
  success: 'successOutlined',
};

/** MUI's standard Alert in plain HTML (styles/plain-controls.css), for pages that draw without MUI. */
export function PlainAlert({
  severity = 'error',
  title,
  children,
  ref,
  className,
  ...props
}: {
  severity?: Severity;
  /** A heading above the message, as MUI's AlertTitle. */
  title?: React.ReactNode;
  children: React.ReactNode;
  ref?: React.Ref<HTMLDivElement>;
} & Omit<React.HTMLAttributes<HTMLDivElement>, 'title'> & { 'data-testid'?: string }) {
  return (
    <div
      ref={ref}
      className={`plain-alert plain-alert--${severity}${className ? ` ${className}` : ''}`}
      {...props}
    >
      <div className="plain-alert__icon">
        <Icon name={ICONS[severity]} />
      </div>
      <div className="plain-alert__message">
        {title}
        {children}
      </div>
    </div>
  );
}

/**
 * Form-level message; role=alert makes screen readers read it the moment it appears, and focus moves to it
 * so keyboard users are not left on the submit button, above nothing that changed for them.
 */
export function FormAlert({
  children,
  severity = 'error',
  ...props
}: {
  children: React.ReactNode;
  severity?: Severity;
  'data-testid'?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (children) ref.current?.focus();
  }, [children]);
  if (!children) return null;
  return (
    <PlainAlert ref={ref} tabIndex={-1} role="alert" severity={severity} className="form-alert" {...props}>
      {children}
    </PlainAlert>
  );
}
