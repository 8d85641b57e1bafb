import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

/** Always 202, so the answer never tells whether an account exists. */
export const sendResetEmail = (body: { email: string }) =>
  request<unknown>('post', '/api/v1/user/password/send-reset-email', { data: body });

export const useSendResetEmail = () => useMutation({ mutationFn: sendResetEmail });
