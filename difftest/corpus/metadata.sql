-- metadata: what ORMs (SQLAlchemy, Django, Rails, Hibernate), dump tools and DBAs
-- ask information_schema and SHOW: tables, columns with their types and
-- defaults, keys, foreign keys, checks, SHOW ... LIKE and WHERE, variables.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/information-schema.html
-- (chapter 28) and 15.7.7 SHOW Statements.

CREATE TABLE authors (id INT PRIMARY KEY AUTO_INCREMENT, email VARCHAR(120) NOT NULL, name VARCHAR(50) DEFAULT 'anon', UNIQUE KEY uq_email (email));
CREATE TABLE books (id BIGINT UNSIGNED PRIMARY KEY, author_id INT NOT NULL, title VARCHAR(200), price DECIMAL(10,2) DEFAULT '0.00', stock INT UNSIGNED NOT NULL DEFAULT 0, kind ENUM('paper','ebook') NOT NULL DEFAULT 'paper', created DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), note TEXT, KEY ix_title (title), KEY ix_kind_stock (kind, stock), CONSTRAINT fk_author FOREIGN KEY (author_id) REFERENCES authors (id) ON DELETE CASCADE, CONSTRAINT ck_price CHECK (price >= 0));
INSERT INTO authors (email) VALUES ('a@x.io'), ('b@x.io');

-- ---------------------------------------------------------------- TABLES (SQLAlchemy has_table, Django, mysqldump)
SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name;
SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'metadata' AND table_name = 'books';
SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'metadata' AND TABLE_NAME = 'nosuch';
SELECT TABLE_NAME, ENGINE, TABLE_COLLATION FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME;
-- mysql: column 2 STRING -- 8.4 manual 28.3.38 (TABLE_TYPE is ENUM('BASE TABLE','VIEW','SYSTEM VIEW'))
SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY 1;
SELECT table_collation FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'authors';
SELECT engine FROM information_schema.tables WHERE table_name = 'books' AND table_schema = DATABASE();
SELECT table_name, auto_increment FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name;
-- mysql: column 2 BLOB -- 8.4 manual 28.3.38 (TABLE_COMMENT is TEXT)
SELECT table_name, table_comment FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name;

-- ---------------------------------------------------------------- COLUMNS (Django get_table_description, Hibernate, Rails)
SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'books' ORDER BY ordinal_position;
-- mysql: column 2 LONG+unsigned -- 8.4 manual 28.3.8 (ORDINAL_POSITION is INT UNSIGNED)
SELECT column_name, ordinal_position FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'authors' ORDER BY ordinal_position;
-- mysql: column 2 BLOB; column 3 LONGLONG -- 8.4 manual 28.3.8 (DATA_TYPE is LONGTEXT, CHARACTER_MAXIMUM_LENGTH BIGINT)
SELECT column_name, data_type, character_maximum_length, numeric_precision, numeric_scale FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'books' ORDER BY ordinal_position;
-- mysql: row id|'bigint unsigned'; row author_id|int; row title|varchar(200); row price|decimal(10,2); row stock|'int unsigned'; row kind|'enum(\'paper\',\'ebook\')'; row created|datetime(3); row note|text -- 8.4 manual 13.1.6 (integer display width is deprecated and not shown)
SELECT column_name, column_type FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'books' ORDER BY ordinal_position;
-- mysql: column 3 STRING -- 8.4 manual 28.3.8 (COLUMN_KEY is ENUM('','PRI','UNI','MUL'))
SELECT column_name, is_nullable, column_key FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'books' ORDER BY ordinal_position;
-- mysql: row id|NULL; row author_id|NULL; row title|NULL; row price|0.00; row stock|0; row kind|paper; row created|CURRENT_TIMESTAMP(3); row note|NULL -- 8.4 manual 28.3.8 (COLUMN_DEFAULT is NULL without a default; literals unquoted)
SELECT column_name, column_default FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'books' ORDER BY ordinal_position;
-- mysql: row created|DEFAULT_GENERATED; row id|auto_increment -- 8.4 manual 28.3.8 (EXTRA: DEFAULT_GENERATED for expression defaults)
SELECT column_name, extra FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name IN ('authors', 'books') AND extra <> '' ORDER BY column_name;
SELECT column_name, character_set_name, collation_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'authors' ORDER BY ordinal_position;
-- mysql: column 2 LONG+unsigned -- 8.4 manual 28.3.8 (DATETIME_PRECISION is INT UNSIGNED)
SELECT column_name, datetime_precision FROM information_schema.columns WHERE table_schema = DATABASE() AND data_type = 'datetime';
-- mysql: columns VAR_STRING BLOB LONGLONG LONGLONG+unsigned LONGLONG+unsigned VAR_STRING BLOB VAR_STRING LONGLONG+binary; row id|bigint|NULL|20|0|''|NULL|NULL|1; row author_id|int|NULL|10|0|''|NULL|NULL|0; row title|varchar|200|NULL|NULL|''|NULL|NULL|0; row price|decimal|NULL|10|2|''|0.00|NULL|0; row stock|int|NULL|10|0|''|0|NULL|1; row kind|enum|5|NULL|NULL|''|paper|NULL|0; row created|datetime|NULL|NULL|NULL|DEFAULT_GENERATED|CURRENT_TIMESTAMP(3)|NULL|0; row note|text|65535|NULL|NULL|''|NULL|NULL|0 -- 8.4 manual 28.3.8 (Django's get_table_description; COLUMN_DEFAULT NULL and unquoted, DEFAULT_GENERATED) and 14.5 (CASE of integers is BIGINT)
SELECT column_name, data_type, character_maximum_length, numeric_precision, numeric_scale, extra, column_default, CASE WHEN collation_name = 'utf8mb4_general_ci' THEN NULL ELSE collation_name END AS collation_name, CASE WHEN column_type LIKE '% unsigned' THEN 1 ELSE 0 END AS is_unsigned FROM information_schema.columns WHERE table_name = 'books' AND table_schema = DATABASE() ORDER BY ordinal_position;
SELECT table_name, COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() GROUP BY table_name ORDER BY table_name;
SELECT c.table_name, c.column_name FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name WHERE c.table_schema = DATABASE() AND t.table_type = 'BASE TABLE' AND c.column_key = 'PRI' ORDER BY 1;
SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'books' AND column_name LIKE '%o%' ORDER BY column_name;

-- ---------------------------------------------------------------- STATISTICS (indexes)
-- mysql: column 4 LONG -- 8.4 manual 28.3.34 (NON_UNIQUE is INT)
SELECT index_name, seq_in_index, column_name, non_unique FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'books' ORDER BY index_name, seq_in_index;
SELECT DISTINCT index_name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'authors' ORDER BY index_name;
SELECT index_name, nullable, index_type FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'books' AND seq_in_index = 1 ORDER BY index_name;

-- ---------------------------------------------------------------- KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS (foreign keys)
SELECT column_name, referenced_table_name, referenced_column_name FROM information_schema.key_column_usage WHERE table_name = 'books' AND table_schema = DATABASE() AND referenced_table_name IS NOT NULL AND referenced_column_name IS NOT NULL;
SELECT kc.constraint_name, kc.column_name, kc.referenced_table_name, kc.referenced_column_name FROM information_schema.key_column_usage AS kc WHERE kc.table_schema = DATABASE() AND kc.table_name = 'books' ORDER BY kc.constraint_name, kc.ordinal_position;
-- mysql: column 4 LONG+unsigned -- 8.4 manual 28.3.16 (ORDINAL_POSITION is INT UNSIGNED)
SELECT constraint_name, table_name, column_name, ordinal_position FROM information_schema.key_column_usage WHERE table_schema = DATABASE() ORDER BY table_name, constraint_name;
-- mysql: column 3 STRING -- 8.4 manual 28.3.25 (DELETE_RULE is an ENUM)
SELECT constraint_name, unique_constraint_name, delete_rule, table_name, referenced_table_name FROM information_schema.referential_constraints WHERE constraint_schema = DATABASE();
SELECT rc.constraint_name, kcu.column_name, kcu.referenced_table_name FROM information_schema.referential_constraints rc JOIN information_schema.key_column_usage kcu ON kcu.constraint_schema = rc.constraint_schema AND kcu.constraint_name = rc.constraint_name WHERE rc.constraint_schema = DATABASE();

-- ---------------------------------------------------------------- TABLE_CONSTRAINTS and CHECK_CONSTRAINTS
SELECT c.constraint_name, c.constraint_type FROM information_schema.table_constraints AS c WHERE c.table_schema = DATABASE() AND c.table_name = 'books' ORDER BY c.constraint_name;
SELECT constraint_name, constraint_type FROM information_schema.table_constraints WHERE table_schema = DATABASE() AND table_name = 'authors' ORDER BY constraint_name;
-- mysql: row ck_price|'(`price` >= 0)' -- 8.4 manual 28.3.5 (CHECK_CLAUSE as SHOW CREATE TABLE prints the expression)
SELECT cc.constraint_name, cc.check_clause FROM information_schema.check_constraints AS cc, information_schema.table_constraints AS tc WHERE cc.constraint_schema = DATABASE() AND tc.table_schema = cc.constraint_schema AND cc.constraint_name = tc.constraint_name AND tc.constraint_type = 'CHECK' AND tc.table_name = 'books';

-- ---------------------------------------------------------------- SCHEMATA, empty object tables, server tables
SELECT schema_name, default_character_set_name FROM information_schema.schemata WHERE schema_name = DATABASE();
SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'information_schema';
SELECT COUNT(*) FROM information_schema.views WHERE table_schema = DATABASE();
SELECT COUNT(*) FROM information_schema.triggers WHERE trigger_schema = DATABASE();
SELECT COUNT(*) FROM information_schema.routines WHERE routine_schema = DATABASE();
-- mysql: column 3 LONG+unsigned -- 8.4 manual 28.3.4 (MAXLEN is INT UNSIGNED)
SELECT character_set_name, default_collate_name, maxlen FROM information_schema.character_sets WHERE character_set_name IN ('latin1', 'utf8mb3') ORDER BY 1;
-- mysql: column 3 LONGLONG+unsigned; row latin1_swedish_ci|latin1|8|Yes; row utf8mb4_general_ci|utf8mb4|45|''; row utf8mb4_bin|utf8mb4|46|'' -- 8.4 manual 12.10.1 (utf8mb4's default collation is utf8mb4_0900_ai_ci)
SELECT collation_name, character_set_name, id, is_default FROM information_schema.collations WHERE collation_name IN ('latin1_swedish_ci', 'utf8mb4_general_ci', 'utf8mb4_bin') ORDER BY id;
SELECT engine, support FROM information_schema.engines WHERE engine = 'InnoDB';
SELECT COUNT(*) FROM information_schema.processlist WHERE id = CONNECTION_ID();
SELECT user, db, command FROM information_schema.processlist WHERE id = CONNECTION_ID();

-- ---------------------------------------------------------------- SHOW with LIKE and WHERE
SHOW TABLES LIKE 'b%';
SHOW FULL TABLES;
SHOW FULL TABLES WHERE Table_type = 'BASE TABLE';
SHOW TABLES WHERE Tables_in_metadata = 'authors';
SHOW COLUMNS FROM books LIKE 'p%';
-- mysql: column 9 BLOB; row id|int|NULL|NO|PRI|NULL|auto_increment|select,insert,update,references|''; row email|varchar(120)|utf8mb4_general_ci|NO|UNI|NULL|''|select,insert,update,references|''; row name|varchar(50)|utf8mb4_general_ci|YES|''|anon|''|select,insert,update,references|'' -- 8.4 manual 15.7.7.6 (SHOW COLUMNS reads information_schema.COLUMNS; no integer display width)
SHOW FULL COLUMNS FROM authors;
-- mysql: row id|'bigint unsigned'|NO|PRI|NULL|'' -- 8.4 manual 15.7.7.6 (no integer display width)
SHOW COLUMNS FROM books WHERE `Key` = 'PRI';
-- mysql: row id|'bigint unsigned'|NO|PRI|NULL|''; row stock|'int unsigned'|NO|''|0|'' -- 8.4 manual 15.7.7.6 (no integer display width)
SHOW COLUMNS FROM books WHERE Field IN ('id', 'stock');
-- compare: shape -- Cardinality is InnoDB's estimate
-- mysql: columns VAR_STRING LONG VAR_STRING LONG+unsigned VAR_STRING VAR_STRING LONGLONG LONGLONG VAR_STRING VAR_STRING VAR_STRING VAR_STRING VAR_STRING VAR_STRING BLOB; row authors|0|PRIMARY|1|id|A|2|NULL|NULL|''|BTREE|''|''|YES|NULL; row authors|0|uq_email|1|email|A|2|NULL|NULL|''|BTREE|''|''|YES|NULL -- 8.4 manual 15.7.7.23 (Visible and Expression columns)
SHOW INDEX FROM authors;
-- mysql: columns VAR_STRING LONG VAR_STRING LONG+unsigned VAR_STRING VAR_STRING LONGLONG LONGLONG VAR_STRING VAR_STRING VAR_STRING VAR_STRING VAR_STRING VAR_STRING BLOB; row books|1|ix_kind_stock|1|kind|A|0|NULL|NULL|''|BTREE|''|''|YES|NULL; row books|1|ix_kind_stock|2|stock|A|0|NULL|NULL|''|BTREE|''|''|YES|NULL -- 8.4 manual 15.7.7.23 (Visible and Expression columns)
SHOW KEYS FROM books WHERE Key_name = 'ix_kind_stock';
SHOW DATABASES LIKE 'metadata';
SHOW DATABASES WHERE `Database` = 'information_schema';
SHOW VARIABLES LIKE 'lower_case_table_names';
SHOW VARIABLES WHERE Variable_name IN ('autocommit', 'sql_auto_is_null');
SHOW GLOBAL VARIABLES LIKE 'innodb_file_per_table';
SHOW SESSION VARIABLES LIKE 'sql_quote_show_create';
-- mysql: columns VAR_STRING VAR_STRING LONGLONG+unsigned VAR_STRING VAR_STRING LONG+unsigned VAR_STRING; row latin1_swedish_ci|latin1|8|Yes|Yes|1|'PAD SPACE' -- 8.4 manual 15.7.7.5 (Pad_attribute column)
SHOW COLLATION LIKE 'latin1_swedish_ci';
-- mysql: columns VAR_STRING VAR_STRING LONGLONG+unsigned VAR_STRING VAR_STRING LONG+unsigned VAR_STRING; row utf8mb4_bin|utf8mb4|46|''|Yes|1|'PAD SPACE' -- 8.4 manual 15.7.7.5 (Pad_attribute column)
SHOW COLLATION WHERE Collation = 'utf8mb4_bin';
-- mysql: column 4 LONG+unsigned -- 8.4 manual 28.3.4 (SHOW CHARACTER SET reads CHARACTER_SETS; MAXLEN is INT UNSIGNED)
SHOW CHARACTER SET LIKE 'latin1';
-- mysql: column 4 LONG+unsigned -- 8.4 manual 28.3.4 (SHOW CHARACTER SET reads CHARACTER_SETS; MAXLEN is INT UNSIGNED)
SHOW CHARACTER SET WHERE Charset = 'ascii';
SHOW STATUS LIKE 'nosuch%';

-- ---------------------------------------------------------------- variables tools read and set
SELECT @@sql_auto_is_null, @@default_storage_engine;
-- mysql: row 1 -- 8.4 manual 19.1.6.4 (binary logging is on by default; @@log_bin is 1)
SELECT @@log_bin;
SELECT @@sql_quote_show_create;
SET @@SQL_QUOTE_SHOW_CREATE = 1;
SELECT @@innodb_file_per_table;
-- mysql: column 1 LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT @@global.innodb_buffer_pool_size > 0;
