-- Value help finds a word anywhere in a label (issue 42): "sakura" finds "Supplier Sakura 6",
-- "ｻｸﾗ" and "さくら" find "サクラ商事". A label and a search are compared in one form, made
-- here so that an index can be built on it (README, "Index for value help on large tables"):
-- NFKC folds full- and half-width forms (ＳＡＫＵＲＡ, ｻｸﾗ) into one, Unicode lower case (the
-- builtin pg_c_utf8 collation, whatever the database's locale), katakana as hiragana.
CREATE FUNCTION "tablelock"."search_form"(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN translate(
        lower(normalize(value, NFKC) COLLATE "pg_c_utf8"),
        'ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲンヴヵヶ',
        'ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖ'
    );

-- Labels listed in the order people read them: numbers by their value (Supplier 12 before
-- Supplier 102), then case and accents only to break ties.
CREATE COLLATION "tablelock"."natural_order" (provider = icu, locale = 'und-u-kn-true');
