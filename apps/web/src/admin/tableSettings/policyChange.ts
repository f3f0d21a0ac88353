import type { Role, TablePolicyInput, WriteGuard } from '../../generated/graphql';

/** A table's policy as an admin sees it in the settings page. */
export interface StoredPolicy {
  readOnly: boolean;
  editRoles: readonly Role[];
  editGroups: readonly string[];
  takesPartInLocking: boolean;
  maxLeaseSeconds?: number | null;
  writeGuard?: WriteGuard | null;
  labelColumn?: string | null;
  rowLockColumn?: string | null;
  changesNeedApproval: boolean;
  approverRoles: readonly Role[];
  approverGroups: readonly string[];
}

/** A policy's inputs as typed: group names comma-separated, numbers and columns as text. */
export interface PolicyForm {
  readOnly: boolean;
  takesPartInLocking: boolean;
  editRoles: Role[];
  editGroups: string;
  maxLease: string;
  writeGuard: WriteGuard;
  labelColumn: string;
  rowLockColumn: string;
  changesNeedApproval: boolean;
  approverRoles: Role[];
  approverGroups: string;
}

/** The form of a stored policy; a table without a write guard of its own shows the default. */
export function policyFormOf(policy: StoredPolicy, defaultGuard: WriteGuard): PolicyForm {
  return {
    readOnly: policy.readOnly,
    takesPartInLocking: policy.takesPartInLocking,
    editRoles: [...policy.editRoles],
    editGroups: policy.editGroups.join(', '),
    maxLease: policy.maxLeaseSeconds?.toString() ?? '',
    writeGuard: policy.writeGuard ?? defaultGuard,
    labelColumn: policy.labelColumn ?? '',
    rowLockColumn: policy.rowLockColumn ?? '',
    changesNeedApproval: policy.changesNeedApproval,
    approverRoles: [...policy.approverRoles],
    approverGroups: policy.approverGroups.join(', '),
  };
}

/** Names as the API stores them: trimmed, none blank, each once, sorted. */
const groupsOf = (typed: string) =>
  [
    ...new Set(
      typed
        .split(',')
        .map((group) => group.trim())
        .filter((group) => group !== ''),
    ),
  ].sort();

const rolesOf = (roles: readonly Role[]) => [...new Set(roles)].sort();

const optionalText = (typed: string) => (typed.trim() === '' ? null : typed.trim());

/** The form's settings in the API's terms, to compare and to send. */
function settingsOf(form: PolicyForm): Required<TablePolicyInput> {
  return {
    readOnly: form.readOnly,
    takesPartInLocking: form.takesPartInLocking,
    editRoles: rolesOf(form.editRoles),
    editGroups: groupsOf(form.editGroups),
    maxLeaseSeconds: form.maxLease.trim() === '' ? null : Number(form.maxLease),
    writeGuard: form.writeGuard,
    labelColumn: optionalText(form.labelColumn),
    rowLockColumn: optionalText(form.rowLockColumn),
    changesNeedApproval: form.changesNeedApproval,
    approverRoles: rolesOf(form.approverRoles),
    approverGroups: groupsOf(form.approverGroups),
  };
}

/**
 * Only the settings the admin changed: the security history records the settings given, so a
 * switch saved in the browser is recorded as the command line records it, and a row scope held
 * on the table does not refuse the save of an unrelated setting as a change of its column.
 */
export function policyChangeOf(
  policy: StoredPolicy,
  defaultGuard: WriteGuard,
  form: PolicyForm,
): TablePolicyInput {
  const before = settingsOf(policyFormOf(policy, defaultGuard));
  const after = settingsOf(form);
  return Object.fromEntries(
    Object.entries(after).filter(
      ([key, value]) =>
        JSON.stringify(value) !== JSON.stringify(before[key as keyof TablePolicyInput]),
    ),
  );
}
