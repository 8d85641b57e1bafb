import type { RegisterBody } from '@ansim/shared/auth';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

/** 201 whether or not the address is already taken, so registration reveals no accounts (R-ACC-1). */
export const registerUser = (body: RegisterBody) => request<unknown>('post', '/api/v1/user/', { data: body });

export const useRegisterUser = () => useMutation({ mutationFn: registerUser });
