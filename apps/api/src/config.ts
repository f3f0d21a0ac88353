import { z } from 'zod';

const repoRoot = new URL('../../..', import.meta.url).pathname;

const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  /** Express `trust proxy`: `true`, a hop count or a subnet list, when behind a reverse proxy. */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value) =>
      value === 'true'
        ? true
        : value === 'false'
          ? false
          : /^\d+$/.test(value)
            ? Number(value)
            : value,
    ),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  /** An external Postgres; without it the embedded one starts under TABLELOCK_DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  MASTER_SCHEMA: z.string().min(1).max(63).default('master'),
  TABLELOCK_DATA_DIR: z.string().default(`${repoRoot}.data`),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof environment>;

/** Reads the settings from environment variables; a bad value stops the start with its name. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) throw new Error(`Bad configuration:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
