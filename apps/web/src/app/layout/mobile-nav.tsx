import { Divider, NavLink, ScrollArea, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { SessionUser } from '../../lib/session.ts';
import {
  adminItems,
  annualReceiptsItem,
  auditItem,
  changePasswordItem,
  homeItem,
  jobsItem,
  mainItems,
  type NavItem,
  settingsItem,
  usersItem,
} from './nav-items.ts';

type MobileNavProps = {
  user: SessionUser;
  onNavigate: () => void;
  onLogout: () => void;
};

/**
 * The navigation bar's content on small screens, shown when the burger is opened (part 1 §2
 * Navigation bar: collapsible on small screens). Same items as the header, listed vertically.
 */
export function MobileNav({ user, onNavigate, onLogout }: MobileNavProps) {
  const { pathname } = useLocation();
  const isAdministrator = user.role === 'Administrator';
  const link = (item: NavItem) => (
    <NavLink
      key={item.href}
      component={Link}
      to={item.href}
      label={item.label}
      active={pathname === item.href}
      onClick={onNavigate}
    />
  );

  return (
    <ScrollArea component="nav" aria-label="Main" p="sm">
      {link(homeItem)}
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
        Admin
      </Text>
      {isAdministrator ? link(usersItem) : null}
      {adminItems.map(link)}
      {isAdministrator ? link(annualReceiptsItem) : null}
      {isAdministrator ? link(settingsItem) : null}
      {isAdministrator ? link(auditItem) : null}
      {isAdministrator ? link(jobsItem) : null}
      <Divider my="sm" />
      {mainItems.map(link)}
      <Divider my="sm" />
      <Text size="xs" fw={700} c="dimmed" px="sm" pb={4}>
        {user.fullName}
      </Text>
      {link(changePasswordItem)}
      <NavLink component="button" type="button" label="Logout" onClick={onLogout} />
    </ScrollArea>
  );
}
