import type { ConfirmedEmail, TokenBody } from '@ansim/shared/contract/user';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

export const confirmEmail = (body: TokenBody) =>
  request<ConfirmedEmail>('post', '/api/v1/user/email/confirm-email', { data: body });

export const useConfirmEmail = () => useMutation({ mutationFn: confirmEmail });
