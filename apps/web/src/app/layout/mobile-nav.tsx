import { Divider, NavLink, ScrollArea, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { type CurrentUser, isAdministrator } from '../../entities/current-user/index.ts';
import {
  adminItems,
  annualReceiptsItem,
  auditItem,
  bankStatementsItem,
  changePasswordItem,
  collectionsItem,
  duplicatesItem,
  exchangeRatesItem,
  homeItem,
  importsItem,
  jobsItem,
  mainItems,
  type NavItem,
  settingsItem,
  usersItem,
} from './nav-items.ts';

type MobileNavProps = {
  user: CurrentUser;
  onNavigate: () => void;
  onLogout: () => void;
};

/**
 * The navigation bar's content on small screens, shown when the burger is opened (part 1 §2
 * Navigation bar: collapsible on small screens). Same items as the header, listed vertically.
 */
export function MobileNav({ user, onNavigate, onLogout }: MobileNavProps) {
  const { pathname } = useLocation();
  const administrator = isAdministrator(user);
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
      {administrator ? link(usersItem) : null}
      {adminItems.map(link)}
      {administrator ? link(annualReceiptsItem) : null}
      {administrator ? link(settingsItem) : null}
      {administrator ? link(auditItem) : null}
      {administrator ? link(jobsItem) : null}
      {administrator ? link(importsItem) : null}
      {administrator ? link(duplicatesItem) : null}
      {administrator ? link(exchangeRatesItem) : null}
      {administrator ? link(collectionsItem) : null}
      {administrator ? link(bankStatementsItem) : null}
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
