import type { CurrentUser } from '@ansim/shared/contract/user';
import { useEffect, useState } from 'react';
import { useIsLoggedIn } from '../../lib/login-state';
import { currentUserQuery } from './current-user-query';

/**
 * The header lives outside the pages' query provider so that the landing page ships without TanStack Query;
 * it observes the same shared cache through a lazily loaded observer, and only once someone is logged in.
 */
export function useHeaderUser(): CurrentUser | null {
  const isLoggedIn = useIsLoggedIn();
  const [user, setUser] = useState<CurrentUser | null>(null);
  useEffect(() => {
    if (!isLoggedIn) {
      setUser(null);
      return;
    }
    let cancelled = false;
    let unsubscribe = () => {};
    void Promise.all([import('../../lib/query-provider'), import('@tanstack/react-query')]).then(
      ([{ queryClient }, { QueryObserver }]) => {
        if (cancelled) return;
        const observer = new QueryObserver(queryClient, currentUserQuery());
        setUser(observer.getCurrentResult().data ?? null);
        unsubscribe = observer.subscribe((result) => setUser(result.data ?? null));
      },
    );
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [isLoggedIn]);
  return user;
}
