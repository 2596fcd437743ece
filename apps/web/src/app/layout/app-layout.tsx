import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { Navigate, Outlet, useNavigation } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useCurrentUser } from '../../entities/current-user/index.ts';
import { useLogout } from '../../features/auth/api/logout.ts';
import { endSession } from '../../lib/end-session.ts';
import { useSessionExpiryWatch } from '../use-session-expiry-watch.ts';
import { AppFooter } from './app-footer.tsx';
import { MobileNav } from './mobile-nav.tsx';
import { NavBar } from './nav-bar.tsx';

/**
 * The signed-in shell (part 1 §2 Navigation bar, §4 Session): header with navigation, the screen,
 * the footer; watches the token expiry every 10 s. Signing out anywhere (another tab too) leaves it.
 */
export function AppLayout() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigation = useNavigation();
  const [mobileOpened, { toggle, close }] = useDisclosure(false);
  useSessionExpiryWatch();

  useEffect(() => {
    // Signed out elsewhere (another tab): forget the cached data too before showing the login screen.
    if (!user) endSession();
  }, [user]);

  if (!user) return <Navigate to={paths.login.href()} replace />;

  const handleLogout = () => {
    close();
    logout();
  };

  return (
    <AppShell
      header={{ height: 60 }}
      footer={{ height: 40 }}
      navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !mobileOpened, desktop: true } }}
      padding="lg"
    >
      <AppShell.Header>
        <NavBar user={user} mobileOpened={mobileOpened} onToggleMobile={toggle} onLogout={handleLogout} />
      </AppShell.Header>
      <AppShell.Navbar>
        {mobileOpened ? <MobileNav user={user} onNavigate={close} onLogout={handleLogout} /> : null}
      </AppShell.Navbar>
      <AppShell.Main aria-busy={navigation.state === 'loading'}>
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer>
        <AppFooter />
      </AppShell.Footer>
    </AppShell>
  );
}
