-- CreateEnum
CREATE TYPE "tablelock"."SecurityAction" AS ENUM ('login', 'login_failed', 'logout', 'user_created', 'role_changed', 'password_changed', 'user_disabled', 'user_enabled', 'api_key_created', 'api_key_revoked');

-- CreateTable
CREATE TABLE "tablelock"."security_event" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" "tablelock"."SecurityAction" NOT NULL,
    "actor" TEXT,
    "subject" TEXT NOT NULL,
    "ip" TEXT,
    "details" JSONB,

    CONSTRAINT "security_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "security_event_actor_id_idx" ON "tablelock"."security_event"("actor", "id");

-- CreateIndex
CREATE INDEX "security_event_subject_id_idx" ON "tablelock"."security_event"("subject", "id");

-- CreateIndex
CREATE INDEX "security_event_at_idx" ON "tablelock"."security_event"("at");
