import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { resolvers } from './resolvers';

const schemaDir = new URL('./schema', import.meta.url).pathname;

/** The SDL files, the API's single source of truth for its types. */
export const typeDefs = readdirSync(schemaDir)
  .filter((file) => file.endsWith('.graphql'))
  .sort()
  .map((file) => readFileSync(join(schemaDir, file), 'utf8'));

export const schema = makeExecutableSchema({ typeDefs, resolvers });
