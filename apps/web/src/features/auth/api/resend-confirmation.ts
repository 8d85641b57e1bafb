import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

export const resendConfirmation = (body: { email: string }) =>
  request<unknown>('post', '/api/v1/user/email/register', { data: body });

export const useResendConfirmation = () => useMutation({ mutationFn: resendConfirmation });
