import { defineConfig } from 'prisma/config';

// `prisma generate` needs no schema engine, but the CLI looks for one first. Where no engine is
// installed (no network to fetch it), point it at a harmless executable so generate still runs.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/false';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
