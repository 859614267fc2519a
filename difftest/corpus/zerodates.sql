-- zerodates: the zero date '0000-00-00' and dates with a zero month or day, and the
-- sql_mode flags that decide whether a column keeps them (NO_ZERO_DATE,
-- NO_ZERO_IN_DATE, strict mode, IGNORE); how they read, compare, sort and convert.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/sql-mode.html (NO_ZERO_DATE,
-- NO_ZERO_IN_DATE), https://dev.mysql.com/doc/refman/8.4/en/date-and-time-types.html

CREATE TABLE zd (id INT PRIMARY KEY, d DATE NOT NULL, dt DATETIME NOT NULL, dn DATE NULL, ts TIMESTAMP NULL);
INSERT INTO zd VALUES (1, '2024-01-01', '2024-01-01 10:00:00', '2024-01-01', '2024-01-01 10:00:00');

-- ---------------------------------------------------------------- default sql_mode: strict, NO_ZERO_DATE, NO_ZERO_IN_DATE
INSERT INTO zd VALUES (2, '0000-00-00', '2024-01-01 00:00:00', NULL, NULL);
INSERT INTO zd VALUES (2, '2024-01-01', '0000-00-00 00:00:00', NULL, NULL);
INSERT INTO zd VALUES (2, '2024-00-15', '2024-01-01 00:00:00', NULL, NULL);
INSERT INTO zd VALUES (2, '2024-02-00', '2024-01-01 00:00:00', NULL, NULL);
INSERT INTO zd VALUES (2, 0, '2024-01-01 00:00:00', NULL, NULL);
INSERT INTO zd VALUES (2, '2024-01-01', '2024-01-01 00:00:00', NULL, '0000-00-00 00:00:00');
UPDATE zd SET d = '0000-00-00' WHERE id = 1;
INSERT IGNORE INTO zd VALUES (2, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00', NULL);
INSERT IGNORE INTO zd VALUES (3, '2024-00-15', '2024-02-00 10:00:00', NULL, NULL);
INSERT IGNORE INTO zd VALUES (4, '2024-02-30', '2024-02-30 10:00:00', NULL, NULL);
INSERT IGNORE INTO zd (id) VALUES (5);
SELECT * FROM zd ORDER BY id;

-- ---------------------------------------------------------------- without strict mode
SET sql_mode = 'NO_ZERO_DATE,NO_ZERO_IN_DATE';
INSERT INTO zd VALUES (6, '0000-00-00', '0000-00-00 00:00:00', NULL, NULL);
INSERT INTO zd VALUES (7, '2024-00-15', '2024-01-01 00:00:00', NULL, NULL);
SET sql_mode = '';
INSERT INTO zd VALUES (8, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00', NULL);
INSERT INTO zd VALUES (9, '2024-00-15', '2024-02-00 10:00:00', '2024-00-00', NULL);
INSERT INTO zd VALUES (10, 0, 0, NULL, NULL);
INSERT INTO zd (id) VALUES (11);
SET sql_mode = 'STRICT_TRANS_TABLES';
INSERT INTO zd VALUES (12, '0000-00-00', '0000-00-00 00:00:00', NULL, NULL);
INSERT INTO zd VALUES (13, '2024-00-15', '2024-02-00 10:00:00', NULL, NULL);
SET sql_mode = DEFAULT;
SELECT * FROM zd ORDER BY id;
SELECT id, d FROM zd ORDER BY d, id;
SELECT id, dt FROM zd ORDER BY dt DESC, id;

-- ---------------------------------------------------------------- comparisons and IS NULL
SELECT id FROM zd WHERE d = '0000-00-00' ORDER BY id;
SELECT id FROM zd WHERE dt = '0000-00-00 00:00:00' ORDER BY id;
SELECT id FROM zd WHERE d < '1000-01-01' ORDER BY id;
SELECT id FROM zd WHERE d IS NULL ORDER BY id;
SELECT id FROM zd WHERE dt IS NULL ORDER BY id;
SELECT id FROM zd WHERE dn IS NULL ORDER BY id;
SELECT id FROM zd WHERE d IS NULL OR id = 1 ORDER BY id;
SELECT id, d IS NULL, d IS NOT NULL, d = '0000-00-00' FROM zd WHERE id IN (2, 3, 9) ORDER BY id;
SELECT COUNT(*) FROM zd WHERE d IS NOT NULL;

-- ---------------------------------------------------------------- functions
SELECT id, YEAR(d), MONTH(d), DAY(d), DAYOFMONTH(d), QUARTER(d) FROM zd WHERE id IN (2, 9) ORDER BY id;
SELECT DATE_FORMAT(d, '%Y/%m/%d'), DATE_FORMAT(dt, '%Y-%m-%d %H:%i:%s') FROM zd WHERE id = 2;
SELECT CAST(d AS CHAR), CAST(dt AS CHAR), CONCAT(d, '|', dt) FROM zd WHERE id = 2;
-- mysql: row 0|0 -- 8.4 manual 14.7 Date and Time Functions (UNIX_TIMESTAMP: 0 for an argument out of range)
SELECT UNIX_TIMESTAMP(d), UNIX_TIMESTAMP(dt) FROM zd WHERE id = 2;
SELECT DATEDIFF(d, '2024-01-01') FROM zd WHERE id = 2;
SELECT DATE_ADD(d, INTERVAL 1 DAY) FROM zd WHERE id = 2;
SELECT TO_DAYS(d) FROM zd WHERE id = 2;
SELECT MIN(d), MAX(d), MIN(dt) FROM zd;

-- ---------------------------------------------------------------- TIMESTAMP's zero value
SET sql_mode = '';
INSERT INTO zd VALUES (20, '2024-01-01', '2024-01-01 00:00:00', NULL, '0000-00-00 00:00:00');
SET sql_mode = DEFAULT;
SELECT id, ts FROM zd WHERE id = 20;
SELECT id FROM zd WHERE ts = '0000-00-00 00:00:00';
