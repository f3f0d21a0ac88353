import { graphql } from '../generated';

/** What the app shows of a table, wherever it reads tables from. */
export const tableInfoFields = graphql(`
  fragment TableInfoFields on TableInfo {
    name
    status
    editor
    lockedBy
    references
    referencedBy
    version
    updatedAt
    acquiredAt
    leaseExpiresAt
    idleLimitSeconds
    editBlock {
      kind
      reason
      blockers {
        table
        editor
        rows
      }
    }
    waiters {
      editor
      reservedUntil
    }
    frozen {
      reason
      until
    }
    policy {
      readOnly
      takesPartInLocking
      changesNeedApproval
    }
    canTakeOver
    rowLockColumn
    rowLocks {
      editor
      rows
      acquiredAt
      leaseExpiresAt
    }
  }
`);

export const tablesQuery = graphql(`
  query Tables {
    tables {
      ...TableInfoFields
    }
  }
`);

export const tablePageQuery = graphql(`
  query TablePage($search: String, $status: TableStatus, $offset: Int!, $limit: Int!) {
    tablePage(search: $search, status: $status, offset: $offset, limit: $limit) {
      total
      counts {
        normal
        editing
        locked
      }
      tables {
        ...TableInfoFields
      }
    }
  }
`);

export const tablesNamedQuery = graphql(`
  query TablesNamed($names: [String!]!) {
    tablesNamed(names: $names) {
      ...TableInfoFields
    }
  }
`);

export const tableWithReferencesQuery = graphql(`
  query TableWithReferences($name: String!) {
    tablesNamed(names: [$name]) {
      ...TableInfoFields
      referencedTables {
        ...TableInfoFields
      }
    }
  }
`);
