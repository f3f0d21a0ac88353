import { describe, expect, it } from 'vitest';
import { isPostgresUrl, postgresHosts, primaryOnlyServers } from '../src/access/postgresHosts';

describe('postgresHosts', () => {
  it('reads every server of a libpq multi-host URL, and gives pg one URL per server', () => {
    const servers = postgresHosts(
      'postgres://u:p%40ss@h1:5432,h2,[::1]:5434/db?sslmode=disable&target_session_attrs=read-write',
    );
    expect(servers.hosts).toEqual([
      { host: 'h1', port: 5432 },
      { host: 'h2', port: 5432 },
      { host: '::1', port: 5434 },
    ]);
    expect(servers.primaryOnly).toBe(true);
    expect(servers.hosts.map(servers.urlFor)).toEqual([
      'postgres://u:p%40ss@h1:5432/db?sslmode=disable',
      'postgres://u:p%40ss@h2:5432/db?sslmode=disable',
      'postgres://u:p%40ss@[::1]:5434/db?sslmode=disable',
    ]);
  });

  it('leaves a single-host URL without target_session_attrs to pg, as before', () => {
    expect(primaryOnlyServers('postgresql://u:p@db.example.com:5432/tablelock')).toBeUndefined();
    expect(primaryOnlyServers('postgresql://u:p@h1/db?target_session_attrs=primary')).toBeDefined();
    expect(primaryOnlyServers('postgresql://u:p@h1,h2/db')).toBeDefined();
  });

  it('refuses what it cannot honour', () => {
    expect(() => postgresHosts('postgres://h1,h2/db?target_session_attrs=standby')).toThrow(
      'target_session_attrs=standby is not supported',
    );
    expect(isPostgresUrl('postgres://u:p@h1:5432,h2:5433/db')).toBe(true);
    expect(isPostgresUrl('postgres://u:p@h1:port/db')).toBe(false);
    expect(isPostgresUrl('mysql://h1/db')).toBe(false);
  });
});
