import type {
  Passkey,
  PasskeyRegistered,
  PasswordOnlyBody,
  RecoveryCodes,
  TotpCodeBody,
  TotpStart,
} from '@ansim/shared/contract/user';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../../components/header/use-current-user';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export type { Passkey, TotpStart };

const PASSKEYS_PATH = '/api/v1/user/mfa/passkeys/';
const passkeysQuery = () => ({
  queryKey: queryKey(PASSKEYS_PATH),
  queryFn: ({ signal }: { signal: AbortSignal }) => request<Passkey[]>('get', PASSKEYS_PATH, { signal }),
});

export function usePasskeys() {
  return useQuery(passkeysQuery());
}

/** Every change to the factors changes what GET /user reports (and the passkey list): both are re-read. */
function useMfaMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: passkeysQuery().queryKey }),
      ]);
    },
  });
}

export const useStartTotp = () => useMfaMutation(() => request<TotpStart>('post', '/api/v1/user/mfa/totp/'));

export const useConfirmTotp = () =>
  useMfaMutation((data: TotpCodeBody) =>
    request<RecoveryCodes>('post', '/api/v1/user/mfa/totp/confirm', { data }),
  );

export const useRemoveTotp = () =>
  useMfaMutation((data: TotpCodeBody) => request<void>('delete', '/api/v1/user/mfa/totp/', { data }));

export const useRegenerateRecoveryCodes = () =>
  useMfaMutation((data: PasswordOnlyBody) =>
    request<RecoveryCodes>('post', '/api/v1/user/mfa/recovery-codes', { data }),
  );

/** Asks the browser for a new passkey (options from the server, the answer checked by the server). */
export const useRegisterPasskey = () =>
  useMfaMutation(async (input: { name: string; password: string }) => {
    const { startRegistration } = await import('@simplewebauthn/browser');
    const options = await request<Parameters<typeof startRegistration>[0]['optionsJSON']>(
      'post',
      '/api/v1/user/mfa/passkeys/registration/options',
    );
    const response = await startRegistration({ optionsJSON: options });
    return request<PasskeyRegistered>('post', '/api/v1/user/mfa/passkeys/registration/verify', {
      data: { ...input, response },
    });
  });

export const useRemovePasskey = () =>
  useMfaMutation((input: { id: string; password: string }) =>
    request<void>('delete', `${PASSKEYS_PATH}${encodeURIComponent(input.id)}`, {
      data: { password: input.password },
    }),
  );
