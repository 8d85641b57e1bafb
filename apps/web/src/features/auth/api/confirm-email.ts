import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

export const confirmEmail = (body: { token: string }) =>
  request<{ email: string }>('post', '/api/v1/user/email/confirm-email', { data: body });

export const useConfirmEmail = () => useMutation({ mutationFn: confirmEmail });
