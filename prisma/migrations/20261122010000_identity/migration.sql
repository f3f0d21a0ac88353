-- CreateEnum
CREATE TYPE "tablelock"."Role" AS ENUM ('viewer', 'editor', 'admin');

-- CreateTable
CREATE TABLE "tablelock"."user" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "username" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "tablelock"."Role" NOT NULL,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tablelock"."session" (
    "token_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "session_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "tablelock"."api_key" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "role" "tablelock"."Role" NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_username_key" ON "tablelock"."user"("username");

-- CreateIndex
CREATE INDEX "session_user_id_idx" ON "tablelock"."session"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_name_key" ON "tablelock"."api_key"("name");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "tablelock"."api_key"("key_hash");

-- AddForeignKey
ALTER TABLE "tablelock"."session" ADD CONSTRAINT "session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "tablelock"."user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
