import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { apiPackageDir } from '../apiPackageDir';
import { enforceFieldAccess } from './plugins/enforceFieldAccess';
import { resolvers } from './resolvers';

// Read from the source folder also by the compiled app: the SDL files are not compiled.
const schemaDir = join(apiPackageDir, 'src/graphql/schema');

/** The SDL files, the API's single source of truth for its types. */
export const typeDefs = readdirSync(schemaDir)
  .filter((file) => file.endsWith('.graphql'))
  .sort()
  .map((file) => readFileSync(join(schemaDir, file), 'utf8'));

export const schema = enforceFieldAccess(makeExecutableSchema({ typeDefs, resolvers }));
