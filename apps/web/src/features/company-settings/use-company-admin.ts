import { useCurrentUser } from '../../components/header/use-current-user';

/** The client only hides what a non-admin cannot use; the API answers 403 to anyone but the company's admin. */
export function useCompanyAdmin() {
  const { data: user, isPending } = useCurrentUser();
  return { isAdmin: user?.role === 'admin' && Boolean(user?.company), isPending, user };
}
