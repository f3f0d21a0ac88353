-- Views that stay: each user's grid layout per master table, and saved views (private or
-- shared). Owners are principal names, like the lock's editor: API keys may keep views too.
CREATE TABLE "tablelock"."grid_layout" (
    "owner_name" TEXT NOT NULL,
    "table_name" TEXT NOT NULL,
    "columns" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "grid_layout_pkey" PRIMARY KEY ("owner_name", "table_name"),
    CONSTRAINT "grid_layout_columns_is_array" CHECK (jsonb_typeof("columns") = 'array')
);

CREATE TABLE "tablelock"."saved_view" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "owner_name" TEXT NOT NULL,
    "table_name" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "sort" JSONB NOT NULL,
    "filter" JSONB NOT NULL,
    "columns" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_view_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "saved_view_name_length" CHECK (char_length("name") BETWEEN 1 AND 100)
);

CREATE UNIQUE INDEX "saved_view_owner_name_table_name_name_key"
    ON "tablelock"."saved_view"("owner_name", "table_name", "name");

CREATE INDEX "saved_view_table_name_idx" ON "tablelock"."saved_view"("table_name");
