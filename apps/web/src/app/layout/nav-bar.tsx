import { Burger, Button, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconPassword } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths.ts';
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

type NavBarProps = {
  user: CurrentUser;
  mobileOpened: boolean;
  onToggleMobile: () => void;
  onLogout: () => void;
};

function isActive(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

function TopLink({ item, pathname }: { item: NavItem; pathname: string }) {
  const active = isActive(pathname, item.href);
  return (
    <Button
      component={Link}
      to={item.href}
      variant={active ? 'light' : 'subtle'}
      color={active ? undefined : 'gray'}
      aria-current={active ? 'page' : undefined}
    >
      {item.label}
    </Button>
  );
}

/**
 * The header of the signed-in shell (part 1 §2 Navigation bar): burger on small screens, brand
 * text, Home, the Admin dropdown (Users and a divider for Administrators; the reference lists;
 * Annual Receipts, Settings, Audit, Jobs, Imports, Duplicates, Exchange rates, Collections and Bank statements for Administrators), Subscribers, Donations, Receipts, Sales, and on the right a dropdown labelled
 * with the user's full name holding Change Password and Logout.
 */
export function NavBar({ user, mobileOpened, onToggleMobile, onLogout }: NavBarProps) {
  const { pathname } = useLocation();
  const administrator = isAdministrator(user);
  const adminActive =
    adminItems.some((item) => isActive(pathname, item.href)) ||
    isActive(pathname, usersItem.href) ||
    isActive(pathname, settingsItem.href) ||
    isActive(pathname, annualReceiptsItem.href) ||
    isActive(pathname, auditItem.href) ||
    isActive(pathname, jobsItem.href) ||
    isActive(pathname, importsItem.href) ||
    isActive(pathname, duplicatesItem.href) ||
    isActive(pathname, exchangeRatesItem.href) ||
    isActive(pathname, collectionsItem.href) ||
    isActive(pathname, bankStatementsItem.href);

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={mobileOpened}
          onClick={onToggleMobile}
          hiddenFrom="sm"
          size="sm"
          aria-label="Toggle navigation"
        />
        <UnstyledButton component={Link} to={paths.home.href()}>
          <Text fw={700} size="lg" c="blue.8">
            Back Office
          </Text>
        </UnstyledButton>
        <Group gap={4} ml="md" visibleFrom="sm" wrap="nowrap" component="nav" aria-label="Main">
          <TopLink item={homeItem} pathname={pathname} />
          <Menu position="bottom-start" shadow="md" width={220}>
            <Menu.Target>
              <Button
                variant={adminActive ? 'light' : 'subtle'}
                color={adminActive ? undefined : 'gray'}
                rightSection={<IconChevronDown size={14} aria-hidden />}
              >
                Admin
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {administrator ? (
                <>
                  <Menu.Item component={Link} to={usersItem.href}>
                    {usersItem.label}
                  </Menu.Item>
                  <Menu.Divider />
                </>
              ) : null}
              {adminItems.map((item) => (
                <Menu.Item key={item.href} component={Link} to={item.href}>
                  {item.label}
                </Menu.Item>
              ))}
              {administrator ? (
                <>
                  <Menu.Divider />
                  <Menu.Item component={Link} to={annualReceiptsItem.href}>
                    {annualReceiptsItem.label}
                  </Menu.Item>
                  <Menu.Item component={Link} to={settingsItem.href}>
                    {settingsItem.label}
                  </Menu.Item>
                  <Menu.Item component={Link} to={auditItem.href}>
                    {auditItem.label}
                  </Menu.Item>
                  <Menu.Item component={Link} to={jobsItem.href}>
                    {jobsItem.label}
                  </Menu.Item>
                  <Menu.Item component={Link} to={importsItem.href}>
                    {importsItem.label}
                  </Menu.Item>
                  <Menu.Item component={Link} to={duplicatesItem.href}>
                    {duplicatesItem.label}
                  </Menu.Item>
                  <Menu.Item component={Link} to={exchangeRatesItem.href}>
                    {exchangeRatesItem.label}
                  </Menu.Item>
                  <Menu.Item component={Link} to={collectionsItem.href}>
                    {collectionsItem.label}
                  </Menu.Item>
                  <Menu.Item component={Link} to={bankStatementsItem.href}>
                    {bankStatementsItem.label}
                  </Menu.Item>
                </>
              ) : null}
            </Menu.Dropdown>
          </Menu>
          {mainItems.map((item) => (
            <TopLink key={item.href} item={item} pathname={pathname} />
          ))}
        </Group>
      </Group>
      <Group visibleFrom="sm" wrap="nowrap">
        <Menu position="bottom-end" shadow="md" width={200}>
          <Menu.Target>
            <Button variant="subtle" color="gray" rightSection={<IconChevronDown size={14} aria-hidden />}>
              {user.fullName}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              component={Link}
              to={changePasswordItem.href}
              leftSection={<IconPassword size={16} aria-hidden />}
            >
              {changePasswordItem.label}
            </Menu.Item>
            <Menu.Item onClick={onLogout} leftSection={<IconLogout size={16} aria-hidden />}>
              Logout
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
