-- Row scopes (docs/decisions/0021): the values a scope names, read as its column reads them, in
-- the statement that reads the scope's ground. "011" of an integer column is "11", so that two
-- scopes naming one row in two spellings overlap; a value that is none of the column's type has
-- no value (NULL). The column's type is known only as the statement runs (from the catalog), and
-- SQL casts to a type named in the statement's text: hence EXECUTE. The name is read back
-- through regtype, so only an existing type is ever written into the text, quoted as Postgres
-- quotes it.
CREATE FUNCTION "tablelock"."row_scope_values"(type_name text, texts text[])
RETURNS TABLE (given text, value text)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  t regtype := type_name::regtype;
BEGIN
  RETURN QUERY EXECUTE format(
    'SELECT g, CASE WHEN pg_input_is_valid(g, %L) THEN (g::%s)::text END FROM unnest($1) AS g',
    t::text, t::text)
  USING texts;
END;
$$;

REVOKE EXECUTE ON FUNCTION "tablelock"."row_scope_values"(text, text[]) FROM PUBLIC;
