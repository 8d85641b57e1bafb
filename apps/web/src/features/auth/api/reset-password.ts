import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

export const resetPassword = (body: { token: string; password: string }) =>
  request<unknown>('post', '/api/v1/user/email/reset-password', { data: body });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
