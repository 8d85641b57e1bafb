import type { JoinCompanyBody } from '@ansim/shared/auth';
import type { CurrentUser } from '@ansim/shared/contract/user';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../../components/header/use-current-user';
import { request } from '../../../lib/request';

/** `POST /api/v1/user/join`: the answer is the updated user, written straight into its cache entry. */
export function useJoinCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (data: JoinCompanyBody) => request<CurrentUser>('post', '/api/v1/user/join', { data }),
    onSuccess: (user) => queryClient.setQueryData(currentUserQuery().queryKey, user),
  });
}
