import type { LoginBody } from '@ansim/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../../components/header/use-current-user';
import { login, loginWithMfaCode, loginWithPasskey } from '../../../lib/login-actions';

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => login(body),
    // A new session may belong to another user than whatever was cached.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey }),
  });
}

/** The second step: `{code}` for a TOTP or recovery code, `{passkey: true}` for a passkey. */
export function useMfaLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { code: string } | { passkey: true }) =>
      'code' in input ? loginWithMfaCode(input.code) : loginWithPasskey(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey }),
  });
}
