import { graphql } from '../../generated';

export const tableSettingsQuery = graphql(`
  query TableSettings {
    tablePolicies {
      table
      readOnly
      editRoles
      editGroups
      takesPartInLocking
      maxLeaseSeconds
      writeGuard
      labelColumn
      rowLockColumn
      changesNeedApproval
      approverRoles
      approverGroups
    }
    writeGuardStatus {
      defaultGuard
      unguardedTables {
        table
        wanted
        grant
      }
      historyBytes
      unlockedWrites
    }
    takeOverSettings {
      rule
      idleMinutes
    }
  }
`);

export const setTablePolicyMutation = graphql(`
  mutation SetTablePolicy($table: String!, $policy: TablePolicyInput!) {
    setTablePolicy(table: $table, policy: $policy) {
      table
    }
  }
`);

export const freezeTablesMutation = graphql(`
  mutation FreezeTables(
    $tables: [String!]
    $all: Boolean
    $reason: String!
    $until: DateTime
    $rule: FreezeRule!
  ) {
    freezeTables(tables: $tables, all: $all, reason: $reason, until: $until, rule: $rule) {
      tables
      endedLocks
    }
  }
`);

export const thawTablesMutation = graphql(`
  mutation ThawTables($tables: [String!], $all: Boolean) {
    thawTables(tables: $tables, all: $all) {
      tables
    }
  }
`);

export const setTakeOverRuleMutation = graphql(`
  mutation SetTakeOverRule($rule: TakeOverRule!, $idleMinutes: Int) {
    setTakeOverRule(rule: $rule, idleMinutes: $idleMinutes) {
      rule
    }
  }
`);
