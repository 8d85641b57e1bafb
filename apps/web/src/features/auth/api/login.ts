import type { LoginBody } from '@ansim/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../../components/header/use-current-user';
import { login } from '../../../lib/login-state';

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => login(body),
    // A new session may belong to another user than whatever was cached.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey }),
  });
}
