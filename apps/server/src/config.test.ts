import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the defaults of docs/spec/design.md', () => {
    const config = loadConfig({ INIT_CWD: '/srv/app' });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/srv/app/data',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      tokenTtlSeconds: 3600,
      trustProxy: false,
      exportStallTimeoutSeconds: 60,
      orgTimezone: 'Europe/Paris',
    });
  });

  it('reads TRUST_PROXY as a list of addresses and CIDR ranges, refusing anything else', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    for (const bad of ['true', '*', '10.0.0.0/33', '10.0.0.1/8/2', 'proxy.example.org'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: must be a comma-separated list/,
      );
  });

  it('refuses an ORG_TIMEZONE that is not an IANA time zone and a stall timeout of 0', () => {
    expect(loadConfig({ ORG_TIMEZONE: 'Europe/Zurich' }).orgTimezone).toBe('Europe/Zurich');
    expect(() => loadConfig({ ORG_TIMEZONE: 'Paris' })).toThrow(/ORG_TIMEZONE: must be an IANA time zone/);
    expect(() => loadConfig({ EXPORT_STALL_TIMEOUT_SECONDS: '0' })).toThrow(/EXPORT_STALL_TIMEOUT_SECONDS/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: ' ', INIT_CWD: '/x' }).databaseUrl).toBeUndefined();
  });

  it('refuses an ADMIN_PASSWORD that is a common password or the email, naming ADMIN_PASSWORD', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'Password123' })).toThrow(
      /ADMIN_PASSWORD: is a common password/,
    );
    expect(() => loadConfig({ ADMIN_EMAIL: 'chef@example.org', ADMIN_PASSWORD: 'CHEF@example.org' })).toThrow(
      /ADMIN_PASSWORD: must not be the Administrator's email address \(chef@example\.org\)/,
    );
    // Unset ADMIN_EMAIL means admin@example.org, whose part before @ is refused too.
    expect(() => loadConfig({ ADMIN_PASSWORD: 'admin@example.org' })).toThrow(/ADMIN_PASSWORD: must not be/);
    expect(() => loadConfig({ PORT: 'eighty', ADMIN_PASSWORD: 'qwertyuiop' })).toThrow(
      /PORT: [^\n]*\n {2}ADMIN_PASSWORD: is a common password/,
    );
    expect(loadConfig({ ADMIN_PASSWORD: 'violet-otter-on-the-quay' }).adminPassword).toBe(
      'violet-otter-on-the-quay',
    );
  });

  it('names every bad variable in one error', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'short' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'])
        expect(message).toContain(name);
    }
  });
});
