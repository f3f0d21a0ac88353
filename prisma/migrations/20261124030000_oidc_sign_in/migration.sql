-- Company sign-in through OpenID Connect: users found by the provider's iss + sub, where their
-- role came from, their groups, break-glass admins, and sign-ins under way.

-- CreateEnum
CREATE TYPE "tablelock"."RoleSource" AS ENUM ('local', 'oidc');

-- AlterTable: a user who only signs in through the provider has no password.
ALTER TABLE "tablelock"."user"
    ALTER COLUMN "password_hash" DROP NOT NULL,
    ADD COLUMN "role_source" "tablelock"."RoleSource" NOT NULL DEFAULT 'local',
    ADD COLUMN "oidc_issuer" TEXT,
    ADD COLUMN "oidc_subject" TEXT,
    ADD COLUMN "groups" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    ADD COLUMN "break_glass" BOOLEAN NOT NULL DEFAULT false,
    ADD CONSTRAINT "user_oidc_identity_whole"
        CHECK (("oidc_issuer" IS NULL) = ("oidc_subject" IS NULL)),
    ADD CONSTRAINT "user_oidc_role_has_identity"
        CHECK ("role_source" <> 'oidc' OR "oidc_subject" IS NOT NULL);

-- CreateIndex
CREATE UNIQUE INDEX "user_oidc_issuer_oidc_subject_key"
    ON "tablelock"."user"("oidc_issuer", "oidc_subject");

-- CreateTable
CREATE TABLE "tablelock"."oidc_sign_in" (
    "state" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oidc_sign_in_pkey" PRIMARY KEY ("state")
);

-- CreateIndex
CREATE INDEX "oidc_sign_in_expires_at_idx" ON "tablelock"."oidc_sign_in"("expires_at");
