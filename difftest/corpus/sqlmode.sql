-- sqlmode: warnings and errors raised while a statement runs (division by zero,
-- integer overflow), and sql_mode: without strict mode a write stores what a column
-- can hold of a value, with a warning, where strict mode refuses it.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/sql-mode.html
CREATE TABLE t (id INT PRIMARY KEY, ti TINYINT, k INT NOT NULL, v VARCHAR(3), d DECIMAL(5,2), f DOUBLE);
INSERT INTO t (id, ti, k, v, d, f) VALUES (1, 1, 1, 'a', 1.5, 2.5), (2, 100, 0, 'b', NULL, 0);

-- ---------------------------------------------------------------- division by zero
SELECT id, d / k, f / k, ti / (k - k) FROM t ORDER BY id;
SELECT id, d / 0, f / 0 FROM t ORDER BY id;
INSERT INTO t (id, k, d) VALUES (3, 1, 1 / 0);
UPDATE t SET d = d / (k - k) WHERE id = 1;
UPDATE t SET f = f / k;
INSERT IGNORE INTO t (id, k, d) VALUES (3, 1, 1 / 0);
UPDATE IGNORE t SET f = f / k;
SELECT id, d, f FROM t ORDER BY id;
SET sql_mode = 'STRICT_TRANS_TABLES';
INSERT INTO t (id, k, d) VALUES (4, 1, 1 / 0);
SELECT id, d / 0 FROM t ORDER BY id;
SET sql_mode = DEFAULT;

-- ---------------------------------------------------------------- integer overflow
SELECT ti * 100000000000 * 100000000000 FROM t WHERE id = 2;
SELECT k - 9223372036854775807 - 2 FROM t WHERE id = 2;
UPDATE t SET k = k * 4294967296 * 4294967296 WHERE id = 1;

-- ---------------------------------------------------------------- without strict mode
SET sql_mode = '';
INSERT INTO t (id, ti, k, v, d) VALUES (5, 1000, 5, 'abcdef', 12345);
INSERT INTO t (id, ti, k, v) VALUES (6, 200 + 300, 6, CONCAT('xy', 'zw')), (7, -1000, NULL, 'ok');
INSERT INTO t (id, ti, k) VALUES (8, '12abc', 'x');
INSERT INTO t (id, k) VALUES (9, NULL);
UPDATE t SET ti = ti * 2 WHERE id IN (1, 2);
UPDATE t SET k = NULL WHERE id = 1;
UPDATE t SET v = CONCAT(v, v, v) WHERE id IN (1, 2);
INSERT INTO t (id, ti) VALUES (10, 1);
INSERT INTO t (id, k, d) VALUES (11, 11, 1 / 0);
SELECT id, ti, k, v, d FROM t ORDER BY id;
SET sql_mode = 'ERROR_FOR_DIVISION_BY_ZERO';
INSERT INTO t (id, k, d) VALUES (12, 12, 1 / 0);
SET sql_mode = 'bogus';
SET sql_mode = 'TRADITIONAL';
INSERT INTO t (id, ti, k) VALUES (13, 1000, 13);
INSERT INTO t (id, k, d) VALUES (13, 13, 1 / 0);
SET sql_mode = DEFAULT;
SELECT id, ti, k, v, d FROM t WHERE id > 9 ORDER BY id;
