import { useId } from 'react';

/** A titled part of a step (h3 under the step's h2), in plain HTML so that a step can draw without MUI. */
export function StepSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h3
        id={id}
        className={description ? 'step-section__title step-section__title--described' : 'step-section__title'}
      >
        {title}
      </h3>
      {description && (
        <p className="plain-body2 plain-text-secondary step-section__description">{description}</p>
      )}
      <div className="step-section__fields">{children}</div>
    </section>
  );
}
