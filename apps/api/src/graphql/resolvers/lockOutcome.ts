import type {
  FkResultTableStatusResolvers,
  ResultTableStatusResolvers,
} from '../generated/graphql';

// The legacy contract's result types spell fields in snake_case; the domain in camelCase.

export const ResultTableStatus: ResultTableStatusResolvers = {
  lock_result: (outcome) => outcome.lockResult,
  current_status: (outcome) => outcome.currentStatus,
  fk_current_status: (outcome) => outcome.fkCurrentStatus,
};

export const FKResultTableStatus: FkResultTableStatusResolvers = {
  table_name: (status) => status.tableName,
  current_status: (status) => status.currentStatus,
};
