import { graphql } from '../generated';

// The governance operations the tests send, typed from the API's SDL by codegen.

export const setTablePolicyMutation = graphql(`
  mutation SetTablePolicy($table: String!, $policy: TablePolicyInput!) {
    setTablePolicy(table: $table, policy: $policy) {
      table
      readOnly
      editRoles
      editGroups
      takesPartInLocking
      maxLeaseSeconds
      writeGuard
      changesNeedApproval
      approverRoles
      approverGroups
      updatedBy
    }
  }
`);

export const tablePoliciesQuery = graphql(`
  query TablePolicies {
    tablePolicies {
      table
      readOnly
      editGroups
      maxLeaseSeconds
      changesNeedApproval
      approverRoles
      approverGroups
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
  mutation ThawTables($tables: [String!], $all: Boolean, $reason: String) {
    thawTables(tables: $tables, all: $all, reason: $reason) {
      tables
    }
  }
`);

export const setTakeOverRuleMutation = graphql(`
  mutation SetTakeOverRule($rule: TakeOverRule!, $idleMinutes: Int) {
    setTakeOverRule(rule: $rule, idleMinutes: $idleMinutes) {
      rule
      idleMinutes
      updatedBy
    }
  }
`);

export const takeOverSettingsQuery = graphql(`
  query TakeOverSettings {
    takeOverSettings {
      rule
      idleMinutes
    }
  }
`);

export const governedTableQuery = graphql(`
  query GovernedTable($name: String!) {
    table(name: $name) {
      status
      editor
      canTakeOver
      frozen {
        reason
        by
        until
      }
      policy {
        readOnly
        takesPartInLocking
      }
      editBlock {
        kind
        reason
        blockers {
          table
          editor
        }
      }
    }
  }
`);

export const policySecurityEventsQuery = graphql(`
  query PolicySecurityEvents {
    securityEvents(filter: { actions: [table_policy_changed, take_over_rule_changed] }) {
      events {
        action
        actor
        subject
        changes
      }
    }
  }
`);
