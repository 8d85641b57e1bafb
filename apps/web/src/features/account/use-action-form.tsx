import { useState } from 'react';
import { type DefaultValues, type FieldValues, type Path, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form/form-alert';
import { lazyResolver } from '../../lib/lazy-resolver';
import { errorText } from '../../lib/messages';
import { type RequestError, toRequestError } from '../../lib/request-error';
import { applyServerErrors } from '../../lib/server-errors';

/**
 * A small form whose server errors land on its fields. Every change on this page asks for the current
 * password, so a session left open on a shared computer cannot change the account's factors.
 */
export function useActionForm<T extends FieldValues>(
  loadResolver: () => Promise<Resolver<T, unknown, T>>,
  defaults: DefaultValues<T>,
) {
  const [failure, setFailure] = useState<RequestError | 'cancelled' | null>(null);
  const form = useForm<T, unknown, T>({
    resolver: lazyResolver(loadResolver) as Resolver<T, unknown, T>,
    defaultValues: defaults,
  });
  const submit = (action: (values: T) => Promise<void>) =>
    form.handleSubmit(async (values) => {
      setFailure(null);
      try {
        await action(values);
      } catch (error) {
        // The browser's passkey prompt was closed or timed out: nothing reached the server.
        if (error instanceof Error && error.name === 'NotAllowedError') return setFailure('cancelled');
        setFailure(
          applyServerErrors(error, form.setError, Object.keys(defaults as object) as Path<T>[]) ??
            toRequestError(error),
        );
      }
    });
  return { form, failure, submit };
}

export function ActionAlert({ failure }: { failure: RequestError | 'cancelled' | null }) {
  const { t } = useTranslation();
  if (!failure) return null;
  return (
    <FormAlert>{failure === 'cancelled' ? t('mfa.login.passkeyCancelled') : errorText(t, failure)}</FormAlert>
  );
}
