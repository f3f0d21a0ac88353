import { DateTimeResolver } from 'graphql-scalars';
import type { Resolvers } from '../generated/graphql';
import { FKResultTableStatus, ResultTableStatus } from './lockOutcome';
import { syncTableRegistryResolver, TableInfo, table, tables } from './tables';
import { UpdateTableStatusWithLock } from './updateTableStatusWithLock';

export const resolvers: Resolvers = {
  DateTime: DateTimeResolver,
  Query: { tables, table },
  Mutation: { UpdateTableStatusWithLock, syncTableRegistry: syncTableRegistryResolver },
  TableInfo,
  ResultTableStatus,
  FKResultTableStatus,
};
