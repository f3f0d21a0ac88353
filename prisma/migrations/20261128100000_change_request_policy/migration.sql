-- Four-eyes change requests: a table's policy may require that another person approve every
-- change. Empty approver_roles and approver_groups mean any editor other than the author;
-- admins always may approve, nobody their own request.
ALTER TABLE "tablelock"."table_policy"
    ADD COLUMN "changes_need_approval" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "approver_roles" "tablelock"."Role"[] NOT NULL DEFAULT ARRAY[]::"tablelock"."Role"[],
    ADD COLUMN "approver_groups" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    -- Viewers never approve.
    ADD CONSTRAINT "table_policy_approver_roles_no_viewer"
        CHECK (NOT ('viewer' = ANY ("approver_roles")));
