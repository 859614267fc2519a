-- sqlmode2: the sql_mode flags that change how MySQL reads a statement's text
-- (ANSI_QUOTES, PIPES_AS_CONCAT, NO_BACKSLASH_ESCAPES, HIGH_NOT_PRECEDENCE,
-- IGNORE_SPACE, REAL_AS_FLOAT) or what a write stores (NO_AUTO_VALUE_ON_ZERO),
-- and the combination modes ANSI and TRADITIONAL.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/sql-mode.html
CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20));

-- ---------------------------------------------------------------- ANSI_QUOTES
SELECT "x", 'y';
SET sql_mode = 'ANSI_QUOTES';
SELECT @@sql_mode;
CREATE TABLE "q" ("x" INT, "y y" VARCHAR(10));
INSERT INTO "q" ("x", "y y") VALUES (1, 'one'), (2, 'it''s');
SELECT "x", "y y" FROM "q" ORDER BY "x";
SELECT "nope" FROM q;
SELECT 'str', "x" FROM q WHERE "y y" = 'one';
-- mysql: row x|int; row 'y y'|varchar(10) -- 8.4 manual 13.1.1 (display widths are deprecated and not shown)
SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'q' ORDER BY ORDINAL_POSITION;
UPDATE q SET "x" = "x" + 10 WHERE "y y" = 'one';
SET sql_mode = DEFAULT;
SELECT "x" AS s, x FROM q ORDER BY q.x;

-- ---------------------------------------------------------------- PIPES_AS_CONCAT
SET sql_mode = 'PIPES_AS_CONCAT';
SELECT 'a' || 'b', 1 || 0, 'a' || NULL, 'a' || 'b' || 'c';
SELECT x || '-' || "y y" FROM q ORDER BY x;
SELECT 1 + 2 || 3, 2 * 3 || '!';
UPDATE q SET `y y` = `y y` || '+' WHERE x = 2;
SELECT x, `y y` FROM q ORDER BY x;
SET sql_mode = DEFAULT;

-- ---------------------------------------------------------------- NO_BACKSLASH_ESCAPES
-- mysql: column 1 LONGLONG+binary; column 2 LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT 'a\nb' = 'a
b', LENGTH('a\\b'), 'a\'b';
SET sql_mode = 'NO_BACKSLASH_ESCAPES';
-- mysql: columns VAR_STRING LONGLONG+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT 'a\nb', LENGTH('a\\b'), LENGTH('a\'), 'a\' = CONCAT('a', CHAR(92));
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary; row 0|1|1|1 -- 8.4 manual 7.1.11 Server SQL Modes (NO_BACKSLASH_ESCAPES: LIKE has no escape character)
SELECT 'a_b' LIKE 'a\_b', 'a\xb' LIKE 'a\_b', 'a\_b' LIKE 'a\_b', 'a_b' LIKE 'a|_b' ESCAPE '|';
INSERT INTO a (v) VALUES ('c:\dir\');
-- mysql: column 2 LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT v, LENGTH(v) FROM a ORDER BY id;
-- mysql: row 'c:\\dir\\' -- 8.4 manual 7.1.11 Server SQL Modes (NO_BACKSLASH_ESCAPES: LIKE has no escape character)
SELECT v FROM a WHERE v LIKE 'c:\d%';
SET sql_mode = DEFAULT;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT v, LENGTH(v), v = 'c:\\dir\\' FROM a ORDER BY id;
-- mysql: columns LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT 'a_b' LIKE 'a\_b', 'axb' LIKE 'a\_b';

-- ---------------------------------------------------------------- HIGH_NOT_PRECEDENCE
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT NOT 1 BETWEEN -5 AND 5, NOT 0 = 1, NOT 1 IN (0, 1);
SET sql_mode = 'HIGH_NOT_PRECEDENCE';
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT NOT 1 BETWEEN -5 AND 5, NOT 0 = 1, NOT 1 IN (0, 1), NOT (1 = 2);
SELECT x FROM q WHERE NOT x = 2 ORDER BY x;
SELECT x FROM q WHERE x NOT IN (2) ORDER BY x;
SET sql_mode = DEFAULT;

-- ---------------------------------------------------------------- IGNORE_SPACE
SET sql_mode = 'IGNORE_SPACE';
SELECT COUNT (*), MAX (x) FROM q;
SELECT CONCAT ('a', 'b');
SET sql_mode = DEFAULT;

-- ---------------------------------------------------------------- NO_AUTO_VALUE_ON_ZERO
CREATE TABLE z (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20));
SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO';
INSERT INTO z (id, v) VALUES (0, 'zero');
INSERT INTO z (id, v) VALUES (NULL, 'null');
INSERT INTO z (id, v) VALUES (0, 'again');
INSERT INTO z (v) VALUES ('none');
SELECT id, v FROM z ORDER BY id;
SET sql_mode = DEFAULT;
INSERT INTO z (id, v) VALUES (7, 'seven'), (0, 'generated');
SELECT id, v FROM z ORDER BY id;

-- ---------------------------------------------------------------- REAL_AS_FLOAT
SET sql_mode = 'REAL_AS_FLOAT';
CREATE TABLE r (a REAL, b DOUBLE, c REAL NOT NULL DEFAULT 1);
SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'r' ORDER BY ORDINAL_POSITION;
SET sql_mode = DEFAULT;
CREATE TABLE r2 (a REAL);
SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'r2' ORDER BY ORDINAL_POSITION;

-- ---------------------------------------------------------------- ANSI and TRADITIONAL
SET sql_mode = 'ANSI';
-- mysql: row REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI -- 8.4 manual 7.1.11 Server SQL Modes (Combination SQL Modes)
SELECT @@sql_mode;
SELECT "x" || '!' FROM q ORDER BY "x";
SELECT x, COUNT(*) FROM q GROUP BY x ORDER BY x;
SET sql_mode = 'TRADITIONAL';
-- mysql: row STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION -- 8.4 manual 7.1.11 Server SQL Modes (Combination SQL Modes; NO_AUTO_CREATE_USER is gone)
SELECT @@sql_mode;
INSERT INTO a (id, v) VALUES (100, 'far too long for the column');
SET sql_mode = DEFAULT;
SELECT @@sql_mode;

-- ---------------------------------------------------------------- SET TRANSACTION: the next transaction only
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/set-transaction.html
CREATE TABLE tx (id INT PRIMARY KEY);
SET TRANSACTION READ ONLY;
INSERT INTO tx VALUES (1);
INSERT INTO tx VALUES (2);
SET TRANSACTION READ ONLY;
START TRANSACTION;
SELECT id FROM tx ORDER BY id;
INSERT INTO tx VALUES (3);
COMMIT;
INSERT INTO tx VALUES (4);
START TRANSACTION;
SET TRANSACTION READ ONLY;
INSERT INTO tx VALUES (5);
COMMIT;
SET SESSION TRANSACTION READ ONLY;
INSERT INTO tx VALUES (6);
START TRANSACTION;
INSERT INTO tx VALUES (7);
ROLLBACK;
SET SESSION TRANSACTION READ WRITE;
SELECT id FROM tx ORDER BY id;

-- ---------------------------------------------------------------- SET @v = NULL keeps the variable's type
SET @v = 5;
SET @v = NULL;
-- mysql: column 3 LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
SELECT @v, @v + 1, @v IS NULL;
SET @s = 'abc';
SET @s = NULL;
SELECT @s, CONCAT(@s, 'x');
SET @n = NULL;
SELECT @n;
