-- ddl_types: CREATE TABLE with MySQL's column types and attributes, SHOW CREATE TABLE,
-- and values at and beyond each type's limits read back with SELECT.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/data-types.html
-- MySQL sends every integer expression (literal, arithmetic, comparison, integer
-- function) as BIGINT (LONGLONG), MariaDB as INT when the value fits: the
-- "column N LONGLONG+binary" directives below record MySQL's type
-- (mysql-test/r/metadata.result: SELECT 1 is type 8).
SET time_zone = '+00:00';

-- ---------------------------------------------------------------- integers
CREATE TABLE ints (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  ti TINYINT, tiu TINYINT UNSIGNED,
  si SMALLINT, siu SMALLINT UNSIGNED,
  mi MEDIUMINT, miu MEDIUMINT UNSIGNED,
  i INT, iu INT UNSIGNED,
  bi BIGINT, biu BIGINT UNSIGNED
);
-- mysql: row ints|'CREATE TABLE `ints` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `ti` tinyint DEFAULT NULL,\n  `tiu` tinyint unsigned DEFAULT NULL,\n  `si` smallint DEFAULT NULL,\n  `siu` smallint unsigned DEFAULT NULL,\n  `mi` mediumint DEFAULT NULL,\n  `miu` mediumint unsigned DEFAULT NULL,\n  `i` int DEFAULT NULL,\n  `iu` int unsigned DEFAULT NULL,\n  `bi` bigint DEFAULT NULL,\n  `biu` bigint unsigned DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.1.20 CREATE TABLE / 13.1.1 (no integer display width)
SHOW CREATE TABLE ints;
INSERT INTO ints (ti, tiu, si, siu, mi, miu, i, iu, bi, biu) VALUES (-128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0);
INSERT INTO ints (ti, tiu, si, siu, mi, miu, i, iu, bi, biu) VALUES (127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807, 18446744073709551615);
INSERT INTO ints (ti, tiu, si, siu, mi, miu, i, iu, bi, biu) VALUES (0, 1, -1, 1, 0, 1, -1, 1, -1, 1);
SELECT id, ti, tiu, si, siu, mi, miu, i, iu, bi, biu FROM ints ORDER BY id;
SELECT * FROM ints WHERE biu = 18446744073709551615;
SELECT id FROM ints WHERE bi < 0 ORDER BY id;
SELECT id FROM ints WHERE biu > 9223372036854775807;
SELECT MIN(bi), MAX(bi), MIN(biu), MAX(biu) FROM ints;
SELECT SUM(biu), SUM(bi), SUM(ti) FROM ints;
INSERT INTO ints (ti) VALUES (128);
INSERT INTO ints (ti) VALUES (-129);
INSERT INTO ints (tiu) VALUES (-1);
INSERT INTO ints (tiu) VALUES (256);
INSERT INTO ints (si) VALUES (32768);
INSERT INTO ints (siu) VALUES (65536);
INSERT INTO ints (mi) VALUES (-8388609);
INSERT INTO ints (miu) VALUES (16777216);
INSERT INTO ints (i) VALUES (2147483648);
INSERT INTO ints (iu) VALUES (4294967296);
INSERT INTO ints (bi) VALUES (9223372036854775808);
INSERT INTO ints (bi) VALUES (-9223372036854775809);
INSERT INTO ints (biu) VALUES (18446744073709551616);
INSERT INTO ints (biu) VALUES (-1);
INSERT INTO ints (i) VALUES ('abc');
INSERT INTO ints (i) VALUES ('');
INSERT INTO ints (i) VALUES ('12abc');
INSERT INTO ints (i) VALUES (' 42');
INSERT INTO ints (i) VALUES (3.5);
INSERT INTO ints (i) VALUES (-2.5);
INSERT INTO ints (i) VALUES ('7e2');
SELECT i FROM ints WHERE id > 3 ORDER BY id;
INSERT IGNORE INTO ints (ti, tiu, si) VALUES (1000, -5, 'x');
SELECT ti, tiu, si FROM ints WHERE id = LAST_INSERT_ID();
UPDATE ints SET ti = ti + 1 WHERE ti = 127;
UPDATE ints SET tiu = tiu - 1 WHERE tiu = 0;
SELECT bi + 1 FROM ints WHERE bi = 9223372036854775807;
SELECT biu - 2 FROM ints WHERE biu = 1;
SELECT biu + 0 FROM ints WHERE biu = 18446744073709551615;
SELECT -bi FROM ints WHERE bi = -9223372036854775808;
SELECT 9223372036854775807 + 1;
SELECT 18446744073709551615, -9223372036854775808;
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.6.2 Arithmetic Operators (integer arithmetic is BIGINT)
SELECT 7 DIV 2, -7 DIV 2, 7 % -3;
SELECT 7 / 2, 1 / 3, 2 / 3 * 3;
SELECT 1 / 0;
-- mysql: column 1 LONGLONG+binary -- 8.4 manual 14.6.2 Arithmetic Operators and 14.4.2 Comparison Functions (integer results are BIGINT)
SELECT 5 MOD 0;
DELETE FROM ints WHERE id > 3;

-- ---------------------------------------------------------------- DECIMAL
-- mysql: warnings 1681 -- 8.4 manual 13.1.1 Numeric Data Type Syntax: UNSIGNED for DECIMAL is deprecated
CREATE TABLE decs (
  id INT PRIMARY KEY,
  d DECIMAL(10,2),
  d0 DECIMAL,
  n NUMERIC(5,3),
  big DECIMAL(65,30),
  du DECIMAL(6,2) UNSIGNED
);
-- mysql: row decs|'CREATE TABLE `decs` (\n  `id` int NOT NULL,\n  `d` decimal(10,2) DEFAULT NULL,\n  `d0` decimal(10,0) DEFAULT NULL,\n  `n` decimal(5,3) DEFAULT NULL,\n  `big` decimal(65,30) DEFAULT NULL,\n  `du` decimal(6,2) unsigned DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.1.3 Fixed-Point Types (DECIMAL is DECIMAL(10,0))
SHOW CREATE TABLE decs;
INSERT INTO decs VALUES (1, 12345678.99, 9999999999, 12.345, 12345678901234567890123456789012345.123456789012345678901234567890, 9999.99);
INSERT INTO decs VALUES (2, -12345678.99, -9999999999, -99.999, 0.000000000000000000000000000001, 0);
INSERT INTO decs VALUES (3, 0.1, 0.5, 0.001, 0.1, 0.1);
INSERT INTO decs VALUES (4, 0.2, 1.5, 0.002, 0.2, 0.2);
SELECT * FROM decs ORDER BY id;
INSERT INTO decs (id, d) VALUES (5, 123456789.00);
INSERT INTO decs (id, d) VALUES (5, 1.005);
INSERT INTO decs (id, d) VALUES (6, 1.004);
INSERT INTO decs (id, d) VALUES (7, -0.005);
INSERT INTO decs (id, d0) VALUES (8, 2.5);
INSERT INTO decs (id, n) VALUES (9, 100);
INSERT INTO decs (id, du) VALUES (10, -1);
INSERT INTO decs (id, d) VALUES (11, '12.3456');
INSERT INTO decs (id, d) VALUES (12, 'abc');
INSERT INTO decs (id, d) VALUES (12, '1e3');
SELECT id, d, d0, n, du FROM decs WHERE id >= 5 ORDER BY id;
SELECT SUM(d), AVG(d), MIN(d), MAX(d) FROM decs WHERE id IN (3, 4);
SELECT d + big FROM decs WHERE id = 3;
-- mysql: column 2 LONGLONG+binary -- 8.4 manual 14.6.2 Arithmetic Operators and 14.4.2 Comparison Functions (integer results are BIGINT)
SELECT 0.1 + 0.2, 0.1 + 0.2 = 0.3, 1.0 / 3, 10.00 * 1.1;
SELECT d * 3, d / 3, d - 0.3 FROM decs WHERE id = 3;
SELECT SUM(d) FROM decs WHERE id IN (1, 2, 3, 4);
SELECT CAST(1.999 AS DECIMAL(4,2)), CAST('3.14159' AS DECIMAL(10,4)), CAST(12345 AS DECIMAL(3,0));
SELECT CAST('abc' AS DECIMAL), CAST('12.5abc' AS DECIMAL(5,1)), CAST(-12345 AS DECIMAL(3,1));
SELECT ROUND(2.5), ROUND(-2.5), ROUND(1.005, 2), TRUNCATE(1.999, 2), ROUND(1234.5678, -2);
SELECT 123456789012345678901234567890.5 + 1;
SELECT d FROM decs WHERE d = 0.1;
SELECT id FROM decs WHERE d > 0.15 AND d < 0.25;

-- ---------------------------------------------------------------- FLOAT and DOUBLE
-- mysql: warnings 1681 -- 8.4 manual 13.1.4 Floating-Point Types: FLOAT(M,D) and DOUBLE(M,D) are deprecated
CREATE TABLE floats (id INT PRIMARY KEY, f FLOAT, d DOUBLE, r REAL, f53 FLOAT(53), fmd FLOAT(7,3));
-- mysql: row floats|'CREATE TABLE `floats` (\n  `id` int NOT NULL,\n  `f` float DEFAULT NULL,\n  `d` double DEFAULT NULL,\n  `r` double DEFAULT NULL,\n  `f53` double DEFAULT NULL,\n  `fmd` float(7,3) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.1.4 Floating-Point Types (FLOAT(p) with p > 24 is DOUBLE)
SHOW CREATE TABLE floats;
INSERT INTO floats VALUES (1, 0.1, 0.1, 0.1, 0.1, 0.1);
INSERT INTO floats VALUES (2, 1.5, 1.5, 1.5, 1.5, 1234.5678);
INSERT INTO floats VALUES (3, -3.4028234e38, -1.7976931348623157e308, 1e-300, 2.5e-5, -9999.999);
INSERT INTO floats VALUES (4, 123456789, 123456789012345678, 1e15, 1e16, 0);
SELECT * FROM floats ORDER BY id;
-- mysql: column 3 LONGLONG+binary; column 4 LONGLONG+binary -- 8.4 manual 14.6.2 Arithmetic Operators and 14.4.2 Comparison Functions (integer results are BIGINT)
SELECT f * 1, d * 1, f = 0.1, d = 0.1 FROM floats WHERE id = 1;
SELECT COUNT(*) FROM floats WHERE f = 0.1;
SELECT COUNT(*) FROM floats WHERE d = 0.1;
SELECT 0.1e0 + 0.2e0, 1e0 / 3, 2e0 * 1.5, 1e0 / 0;
SELECT 1e308 * 10;
SELECT SUM(f), SUM(d) FROM floats WHERE id IN (1, 2);
INSERT INTO floats (id, f) VALUES (5, 3.5e38);
INSERT INTO floats (id, fmd) VALUES (6, 10000);
INSERT INTO floats (id, fmd) VALUES (7, 1.2345);
INSERT INTO floats (id, d) VALUES (8, 'abc');
INSERT INTO floats (id, d) VALUES (8, '2.5');
SELECT id, f, d, fmd FROM floats WHERE id > 4 ORDER BY id;

-- ---------------------------------------------------------------- BIT and BOOL
CREATE TABLE bits (id INT PRIMARY KEY, b1 BIT(1), b8 BIT(8), b64 BIT(64), flag BOOL, flag2 BOOLEAN);
-- mysql: row bits|'CREATE TABLE `bits` (\n  `id` int NOT NULL,\n  `b1` bit(1) DEFAULT NULL,\n  `b8` bit(8) DEFAULT NULL,\n  `b64` bit(64) DEFAULT NULL,\n  `flag` tinyint(1) DEFAULT NULL,\n  `flag2` tinyint(1) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.1.1 Numeric Data Type Syntax (BOOL is TINYINT(1))
SHOW CREATE TABLE bits;
INSERT INTO bits VALUES (1, b'1', b'10101010', b'1111111111111111111111111111111111111111111111111111111111111111', TRUE, FALSE);
INSERT INTO bits VALUES (2, 0, 255, 0, 2, -1);
INSERT INTO bits VALUES (3, b'0', 0x0F, 1, NULL, 0);
-- mysql: column 2 LONGLONG+unsigned+binary; column 3 LONGLONG+unsigned+binary -- 8.4 manual 14.6.2 Arithmetic Operators (an unsigned integer operand makes the result BIGINT UNSIGNED)
SELECT id, b1 + 0, b8 + 0, b64 + 0, flag, flag2 FROM bits ORDER BY id;
SELECT HEX(b8), BIN(b8), HEX(b64), OCT(b8) FROM bits ORDER BY id;
SELECT b8 FROM bits WHERE id = 1;
SELECT id FROM bits WHERE b8 = 255;
SELECT id FROM bits WHERE flag IS TRUE ORDER BY id;
SELECT id FROM bits WHERE flag2 IS FALSE ORDER BY id;
SELECT id FROM bits WHERE flag2 IS NOT TRUE ORDER BY id;
INSERT INTO bits (id, b8) VALUES (4, 256);
INSERT INTO bits (id, b1) VALUES (5, 2);
INSERT INTO bits (id, flag) VALUES (6, 128);
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 11.1.6 Boolean Literals (TRUE and FALSE are 1 and 0)
SELECT TRUE, FALSE, TRUE + TRUE;

-- ---------------------------------------------------------------- CHAR, VARCHAR, TEXT
CREATE TABLE strs (
  id INT PRIMARY KEY,
  c CHAR(5),
  v VARCHAR(5),
  t TINYTEXT,
  tx TEXT,
  mt MEDIUMTEXT,
  lt LONGTEXT,
  vb VARCHAR(10) COLLATE utf8mb4_bin
);
-- mysql: row strs|'CREATE TABLE `strs` (\n  `id` int NOT NULL,\n  `c` char(5) DEFAULT NULL,\n  `v` varchar(5) DEFAULT NULL,\n  `t` tinytext,\n  `tx` text,\n  `mt` mediumtext,\n  `lt` longtext,\n  `vb` varchar(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.7.7.11 SHOW CREATE TABLE
SHOW CREATE TABLE strs;
INSERT INTO strs VALUES (1, 'ab  ', 'ab  ', 'ab  ', 'ab  ', 'ab', 'ab', 'ab');
INSERT INTO strs VALUES (2, 'abcde', 'abcde', '', '', NULL, NULL, 'AB');
INSERT INTO strs VALUES (3, 'ééééé', 'ñññññ', 'é', '日本語', '😀', 'x', 'Ab');
SELECT id, CONCAT('[', c, ']'), CONCAT('[', v, ']'), CONCAT('[', t, ']') FROM strs ORDER BY id;
SELECT id, HEX(c), HEX(v) FROM strs ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LENGTH and CHAR_LENGTH are integers: BIGINT)
SELECT id, LENGTH(c), CHAR_LENGTH(c), LENGTH(v), CHAR_LENGTH(v) FROM strs ORDER BY id;
SELECT COUNT(*) FROM strs WHERE c = 'ab';
SELECT COUNT(*) FROM strs WHERE v = 'ab';
SELECT COUNT(*) FROM strs WHERE v = 'AB';
SELECT COUNT(*) FROM strs WHERE vb = 'ab';
SELECT id FROM strs WHERE vb = 'AB' ORDER BY id;
SELECT id FROM strs ORDER BY vb, id;
SELECT id FROM strs ORDER BY v DESC, id;
INSERT INTO strs (id, v) VALUES (4, 'abcdef');
INSERT INTO strs (id, c) VALUES (4, 'abcdef');
INSERT INTO strs (id, v) VALUES (4, 'ññññññ');
INSERT INTO strs (id, v) VALUES (4, 'abc     ');
SELECT CONCAT('[', v, ']') FROM strs WHERE id = 4;
INSERT INTO strs (id, t) VALUES (5, REPEAT('x', 256));
INSERT IGNORE INTO strs (id, v, c) VALUES (6, 'truncated', 'toolong');
SELECT v, c FROM strs WHERE id = 6;
INSERT INTO strs (id, v) VALUES (7, 42);
INSERT INTO strs (id, v) VALUES (8, 1.50);
SELECT id, v FROM strs WHERE id IN (7, 8) ORDER BY id;
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.6.2 Arithmetic Operators and 14.4.2 Comparison Functions (integer results are BIGINT)
SELECT 'a' = 'a  ', 'a' = 'A', 'a' < 'b', 'abc' LIKE 'A%', 'é' = 'e';

-- ---------------------------------------------------------------- BINARY, VARBINARY, BLOB
CREATE TABLE bins (id INT PRIMARY KEY, b BINARY(4), vb VARBINARY(8), tb TINYBLOB, bl BLOB, mb MEDIUMBLOB, lb LONGBLOB);
-- mysql: row bins|'CREATE TABLE `bins` (\n  `id` int NOT NULL,\n  `b` binary(4) DEFAULT NULL,\n  `vb` varbinary(8) DEFAULT NULL,\n  `tb` tinyblob,\n  `bl` blob,\n  `mb` mediumblob,\n  `lb` longblob,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.3.3 The BINARY and VARBINARY Types
SHOW CREATE TABLE bins;
INSERT INTO bins VALUES (1, 'ab', 'ab', 'ab', 'ab', 'ab', 'ab');
INSERT INTO bins VALUES (2, X'00FF', X'0001FF', X'00', X'00000000', 0x6100620063, x'');
INSERT INTO bins VALUES (3, _binary 'a\0b', 0x610062, _binary'\0\0', _binary 'ünï', 'A', 'a');
SELECT id, HEX(b), HEX(vb), HEX(tb), HEX(bl), HEX(mb), HEX(lb) FROM bins ORDER BY id;
SELECT b, vb, bl FROM bins ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LENGTH and CHAR_LENGTH are BIGINT)
SELECT id, LENGTH(b), LENGTH(vb), LENGTH(bl), CHAR_LENGTH(mb) FROM bins ORDER BY id;
SELECT COUNT(*) FROM bins WHERE b = 'ab';
SELECT COUNT(*) FROM bins WHERE vb = 'ab';
SELECT COUNT(*) FROM bins WHERE mb = 'a';
SELECT id FROM bins WHERE bl = X'00000000';
SELECT id FROM bins ORDER BY vb, id;
SELECT HEX(UPPER(vb)), HEX(LOWER(mb)) FROM bins WHERE id = 1;
INSERT INTO bins (id, vb) VALUES (4, 'abcdefghi');
INSERT INTO bins (id, b) VALUES (4, X'0102030405');
INSERT INTO bins (id, tb) VALUES (4, REPEAT('x', 256));
INSERT INTO bins (id, vb) VALUES (5, 'a  ');
SELECT HEX(vb) FROM bins WHERE id = 5;
-- mysql: column 4 LONGLONG+binary -- 8.4 manual 14.6.2 Arithmetic Operators and 14.4.2 Comparison Functions (integer results are BIGINT)
SELECT HEX(_binary 'x'), HEX(CAST('ab' AS BINARY(4))), X'4D7953514C', 0x41 = 'A';

-- ---------------------------------------------------------------- DATE, DATETIME, TIME, YEAR
CREATE TABLE dts (id INT PRIMARY KEY, d DATE, dt DATETIME, dt3 DATETIME(3), dt6 DATETIME(6), t TIME, t2 TIME(2), y YEAR);
-- mysql: row dts|'CREATE TABLE `dts` (\n  `id` int NOT NULL,\n  `d` date DEFAULT NULL,\n  `dt` datetime DEFAULT NULL,\n  `dt3` datetime(3) DEFAULT NULL,\n  `dt6` datetime(6) DEFAULT NULL,\n  `t` time DEFAULT NULL,\n  `t2` time(2) DEFAULT NULL,\n  `y` year DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.2.4 The YEAR Type (YEAR has no display width)
SHOW CREATE TABLE dts;
INSERT INTO dts VALUES (1, '2024-02-29', '2024-02-29 13:45:59', '2024-02-29 13:45:59.123', '2024-02-29 13:45:59.123456', '13:45:59', '13:45:59.12', 2024);
INSERT INTO dts VALUES (2, '1000-01-01', '1000-01-01 00:00:00', '9999-12-31 23:59:59.999', '9999-12-31 23:59:59.999999', '-838:59:59', '838:59:59.00', 1901);
INSERT INTO dts VALUES (3, '9999-12-31', '9999-12-31 23:59:59', NULL, NULL, '00:00:00', '-00:00:01.50', 2155);
INSERT INTO dts VALUES (4, 20240101, 20240101123000, '2024-01-01T12:30:00.5', '2024-01-01 12:30:00', 123000, '1 02:03:04', '24');
INSERT INTO dts VALUES (5, '24-1-2', '2024-1-2 3:4:5', '2024-01-02 03:04:05', '2024-01-02', '3:4', '12', 0);
SELECT * FROM dts ORDER BY id;
-- mysql: column 4 LONGLONG+binary; column 5 LONGLONG+unsigned+binary -- 8.4 manual 14.6.2 Arithmetic Operators (BIGINT; YEAR is unsigned)
SELECT id, d + 0, dt + 0, t + 0, y + 0 FROM dts WHERE id IN (1, 2) ORDER BY id;
INSERT INTO dts (id, d) VALUES (10, '2023-02-29');
INSERT INTO dts (id, d) VALUES (10, '2024-13-01');
INSERT INTO dts (id, d) VALUES (10, '0000-00-00');
INSERT INTO dts (id, d) VALUES (10, '2024-00-10');
INSERT INTO dts (id, d) VALUES (10, '2024-01-00');
INSERT INTO dts (id, d) VALUES (10, 'not a date');
INSERT INTO dts (id, dt) VALUES (10, '2024-01-01 24:00:00');
INSERT INTO dts (id, dt) VALUES (10, '2024-01-01 23:60:00');
INSERT INTO dts (id, t) VALUES (10, '839:00:00');
INSERT INTO dts (id, t) VALUES (10, '12:61:00');
INSERT INTO dts (id, y) VALUES (10, 1900);
INSERT INTO dts (id, y) VALUES (10, 2156);
INSERT INTO dts (id, y) VALUES (11, 69);
INSERT INTO dts (id, y) VALUES (12, 70);
INSERT INTO dts (id, y) VALUES (13, '0');
INSERT INTO dts (id, y) VALUES (14, '00');
INSERT INTO dts (id, d) VALUES (15, '2024-02-29 13:45:59');
INSERT INTO dts (id, dt) VALUES (16, '2024-02-29');
INSERT INTO dts (id, dt3) VALUES (17, '2024-01-01 23:59:59.9996');
INSERT INTO dts (id, dt, t) VALUES (18, '2024-01-01 10:00:00.5', '10:00:00.4');
-- mysql: row 11|NULL|NULL|NULL|NULL|NULL|NULL|2069; row 12|NULL|NULL|NULL|NULL|NULL|NULL|1970; row 13|NULL|NULL|NULL|NULL|NULL|NULL|2000; row 14|NULL|NULL|NULL|NULL|NULL|NULL|2000; row 15|2024-02-29|NULL|NULL|NULL|NULL|NULL|NULL; row 16|NULL|'2024-02-29 00:00:00'|NULL|NULL|NULL|NULL|NULL; row 17|NULL|NULL|'2024-01-02 00:00:00.000'|NULL|NULL|NULL|NULL; row 18|NULL|'2024-01-01 10:00:01'|NULL|NULL|'10:00:00'|NULL|NULL -- 8.4 manual 13.2.6 Fractional Seconds in Time Values (extra fractional digits are rounded, MariaDB truncates)
SELECT * FROM dts WHERE id > 10 ORDER BY id;
SELECT id FROM dts WHERE d BETWEEN '2024-01-01' AND '2024-12-31' ORDER BY id;
SELECT id FROM dts WHERE dt > '2024-02-29' ORDER BY id;
SELECT DATE_ADD(d, INTERVAL 1 DAY), DATE_SUB(dt, INTERVAL 1 MONTH), dt + INTERVAL 1 SECOND FROM dts WHERE id = 1;
SELECT DATE_ADD(DATE '2024-01-31', INTERVAL 1 MONTH), DATE_ADD(TIMESTAMP '2023-12-31 23:59:59', INTERVAL 1 SECOND), DATE '2024-03-01' - INTERVAL 1 DAY;
-- mysql: column 1 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (DATEDIFF returns an integer: BIGINT)
SELECT DATEDIFF('2024-03-01', '2024-02-01'), TIMEDIFF('12:00:00', '13:30:00'), TIMESTAMPDIFF(MONTH, '2024-01-31', '2024-03-01');
SELECT DATE_FORMAT(dt, '%Y/%m/%d %H:%i:%s %W %M %j'), TIME_FORMAT(t, '%H.%i') FROM dts WHERE id = 1;
-- mysql: row 2024-02-29|NULL; warnings 1411 -- 8.4 manual 14.7 Date and Time Functions (STR_TO_DATE: a value the server's rules refuse, here a day the month lacks without ALLOW_INVALID_DATES, is NULL with a warning; MariaDB returns it)
SELECT STR_TO_DATE('29/02/2024', '%d/%m/%Y'), STR_TO_DATE('2023-02-29', '%Y-%m-%d');
SELECT DATE('2024-02-29 13:45:59'), TIME('2024-02-29 13:45:59.5'), CAST('2024-02-29 13:45:59' AS DATE), CAST(dt AS TIME) FROM dts WHERE id = 1;
SELECT CAST('2024-02-30' AS DATE);
SELECT CAST(d AS DATETIME) FROM dts WHERE id = 3;
-- mysql: row '2024-01-01 10:11:12.35' -- 8.4 manual 13.2.6 Fractional Seconds in Time Values (conversion to fewer fractional digits rounds)
SELECT CAST('2024-01-01 10:11:12.345' AS DATETIME(2));
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (DAYOFWEEK and WEEKDAY return integers: BIGINT)
SELECT LAST_DAY('2024-02-10'), DAYOFWEEK('2024-02-29'), WEEKDAY('2024-02-29'), DAYNAME('2024-02-29'), MONTHNAME('2024-02-29');
SELECT MAKEDATE(2024, 60), MAKETIME(12, 30, 15), SEC_TO_TIME(3661), TIME_TO_SEC('01:01:01');
-- mysql: column 1 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (TO_DAYS returns an integer: BIGINT)
SELECT TO_DAYS('2024-02-29'), FROM_DAYS(739310), UNIX_TIMESTAMP('2024-01-01 00:00:00'), FROM_UNIXTIME(1704067200);
SELECT DATE '2024-02-29' + INTERVAL 1 YEAR, DATE '2024-02-29' - INTERVAL 4 YEAR;
SELECT ADDTIME(TIMESTAMP '2024-01-01 23:59:59', '00:00:02'), SUBTIME(TIME '10:00:00', '10:00:01'), TIMESTAMP('2024-01-01', '25:00:00');
-- compare: shape -- the current time differs between the servers and runs
SELECT NOW(), CURDATE(), CURTIME(), SYSDATE(), UTC_TIMESTAMP(), NOW(6);
SELECT COUNT(*) FROM dts WHERE y IS NOT NULL;

-- ---------------------------------------------------------------- TIMESTAMP and time_zone
SET time_zone = '+00:00';
CREATE TABLE tss (id INT PRIMARY KEY, ts TIMESTAMP NULL, ts6 TIMESTAMP(6) NULL, dt DATETIME);
-- mysql: row tss|'CREATE TABLE `tss` (\n  `id` int NOT NULL,\n  `ts` timestamp NULL DEFAULT NULL,\n  `ts6` timestamp(6) NULL DEFAULT NULL,\n  `dt` datetime DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.2.5 Automatic Initialization and Updating for TIMESTAMP and DATETIME
SHOW CREATE TABLE tss;
INSERT INTO tss VALUES (1, '2024-01-01 00:00:00', '2024-01-01 00:00:00.123456', '2024-01-01 00:00:00');
INSERT INTO tss VALUES (2, '1970-01-01 00:00:01', '2038-01-19 03:14:07.999999', '1970-01-01 00:00:01');
SET time_zone = '+05:30';
SELECT id, ts, ts6, dt FROM tss ORDER BY id;
INSERT INTO tss VALUES (3, '2024-06-01 12:00:00', NULL, '2024-06-01 12:00:00');
SELECT id, ts, dt FROM tss WHERE id = 3;
SET time_zone = '+00:00';
SELECT id, ts, dt FROM tss ORDER BY id;
SELECT id, UNIX_TIMESTAMP(ts), UNIX_TIMESTAMP(dt) FROM tss ORDER BY id;
SELECT id FROM tss WHERE ts = '2024-06-01 06:30:00';
SET time_zone = '-08:00';
SELECT ts, CONVERT_TZ(dt, '+00:00', '-08:00') FROM tss WHERE id = 1;
SET time_zone = '+00:00';
INSERT INTO tss (id, ts) VALUES (4, '1970-01-01 00:00:00');
INSERT INTO tss (id, ts) VALUES (4, '2038-01-19 03:14:08');
INSERT INTO tss (id, ts) VALUES (4, '0000-00-00 00:00:00');
SELECT @@session.time_zone;
SET time_zone = 'bogus';
SET time_zone = '+14:01';
SELECT FROM_UNIXTIME(0), FROM_UNIXTIME(2147483647), UNIX_TIMESTAMP('1970-01-01 00:00:00');

-- ---------------------------------------------------------------- ENUM and SET
CREATE TABLE es (id INT PRIMARY KEY, e ENUM('small', 'medium', 'large'), s SET('a', 'b', 'c', 'd'), en ENUM('x', 'y') NOT NULL);
-- mysql: row es|'CREATE TABLE `es` (\n  `id` int NOT NULL,\n  `e` enum(''small'',''medium'',''large'') DEFAULT NULL,\n  `s` set(''a'',''b'',''c'',''d'') DEFAULT NULL,\n  `en` enum(''x'',''y'') NOT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.3.5 The ENUM Type
SHOW CREATE TABLE es;
INSERT INTO es VALUES (1, 'medium', 'a,c', 'x');
INSERT INTO es VALUES (2, 1, 5, 2);
INSERT INTO es VALUES (3, 'LARGE', 'd,b,b,a', 'y');
INSERT INTO es VALUES (4, NULL, '', 'x');
INSERT INTO es (id, e) VALUES (5, 'small');
SELECT id, e, s, en FROM es ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary -- 8.4 manual 13.3.5 The ENUM Type (an ENUM in numeric context is its index)
SELECT id, e + 0, s + 0, en + 0 FROM es ORDER BY id;
SELECT id FROM es ORDER BY e, id;
SELECT id FROM es ORDER BY s DESC, id;
SELECT id FROM es WHERE e = 'medium';
SELECT id FROM es WHERE e = 2;
SELECT id FROM es WHERE e > 'large' ORDER BY id;
SELECT id FROM es WHERE FIND_IN_SET('b', s) ORDER BY id;
SELECT id FROM es WHERE s LIKE '%c%' ORDER BY id;
SELECT id FROM es WHERE s & 1 ORDER BY id;
INSERT INTO es (id, e, en) VALUES (6, 'xl', 'x');
INSERT INTO es (id, e, en) VALUES (6, 0, 'x');
INSERT INTO es (id, e, en) VALUES (6, 4, 'x');
INSERT INTO es (id, s, en) VALUES (6, 'a,e', 'x');
INSERT INTO es (id, s, en) VALUES (6, 16, 'x');
INSERT INTO es (id, e, en) VALUES (6, '', 'x');
INSERT IGNORE INTO es (id, e, s, en) VALUES (7, 'xl', 'a,e', 'z');
-- mysql: column 3 LONGLONG+binary -- 8.4 manual 13.3.5 The ENUM Type (the empty string error value has index 0)
SELECT id, e, e + 0, s, en FROM es WHERE id = 7;

-- ---------------------------------------------------------------- JSON
CREATE TABLE js (id INT PRIMARY KEY, j JSON);
-- mysql: row js|'CREATE TABLE `js` (\n  `id` int NOT NULL,\n  `j` json DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.5 The JSON Data Type
SHOW CREATE TABLE js;
INSERT INTO js VALUES (1, '{"b": 1, "a": [1, 2, {"c": null}]}');
INSERT INTO js VALUES (2, '[1, "two", 3.5, true, false, null]');
INSERT INTO js VALUES (3, '"just a string"');
INSERT INTO js VALUES (4, '  {"key"  :   "value"}  ');
INSERT INTO js VALUES (5, NULL);
-- mysql: error 3140 -- 8.4 manual 13.5 The JSON Data Type (invalid JSON is rejected with ER_INVALID_JSON_TEXT)
INSERT INTO js VALUES (6, '{bad json}');
-- mysql: error 3140 -- 8.4 manual 13.5 The JSON Data Type
INSERT INTO js VALUES (6, '');
-- mysql: columns LONG JSON+binary; row 1|'{"a": [1, 2, {"c": null}], "b": 1}'; row 2|'[1, "two", 3.5, true, false, null]'; row 3|'"just a string"'; row 4|'{"key": "value"}'; row 5|NULL -- 8.4 manual 13.5 The JSON Data Type (normalization: keys sorted, one space after , and :)
SELECT id, j FROM js ORDER BY id;
-- mysql: columns JSON+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.17.3 Functions That Search JSON Values
SELECT JSON_EXTRACT(j, '$.a[1]'), JSON_CONTAINS_PATH(j, 'one', '$.b'), JSON_LENGTH(j) FROM js WHERE id = 1;
-- mysql: columns LONG; row 4 -- 8.4 manual 14.17.3 Functions That Search JSON Values (column->>path is JSON_UNQUOTE(JSON_EXTRACT()))
SELECT id FROM js WHERE j->>'$.key' = 'value';
-- mysql: columns LONG; row 2 -- 8.4 manual 14.17.3 Functions That Search JSON Values (column->path is JSON_EXTRACT())
SELECT id FROM js WHERE j->'$[1]' = 'two';
SELECT JSON_UNQUOTE(JSON_EXTRACT(j, '$.key')) FROM js WHERE id = 4;
SELECT id FROM js WHERE JSON_TYPE(j) = 'ARRAY';
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary; warnings none -- 8.4 manual 14.17.6 JSON Utility Functions (JSON_VALID returns 1 or 0, without a warning)
SELECT JSON_VALID('{"a": 1}'), JSON_VALID('{a: 1}'), JSON_VALID(NULL) IS NULL;
-- mysql: columns JSON+binary JSON+binary -- 8.4 manual 14.17.2 Functions That Create JSON Values
SELECT JSON_OBJECT('a', 1, 'b', JSON_ARRAY(1, 2)), JSON_ARRAY(1, 'a', NULL);
UPDATE js SET j = JSON_SET(j, '$.b', 2, '$.d', 'new') WHERE id = 1;
-- mysql: columns JSON+binary; row '{"a": [1, 2, {"c": null}], "b": 2, "d": "new"}' -- 8.4 manual 13.5 The JSON Data Type (normalization)
SELECT j FROM js WHERE id = 1;
SELECT id FROM js WHERE JSON_EXTRACT(j, '$.b') = 2;

-- ---------------------------------------------------------------- ENUM and SET as numbers
CREATE TABLE sizes (id INT PRIMARY KEY, sz ENUM('S','M','L','XL') NOT NULL, opts SET('gift','express','fragile'));
INSERT INTO sizes VALUES (1, 'M', 'gift'), (2, 4, 3), (3, 's', 'FRAGILE,gift'), (4, '2', '6');
INSERT INTO sizes (id) VALUES (5);
INSERT INTO sizes (id, sz, opts) SELECT 6, 3, 'express';
-- mysql: column 3 LONGLONG+binary -- 8.4 manual 13.3.5 The ENUM Type (an ENUM in numeric context is its index)
SELECT id, sz, sz + 0, opts, opts + 0 FROM sizes ORDER BY id;
SELECT id FROM sizes ORDER BY sz DESC, id;
SELECT id FROM sizes ORDER BY opts, id;
SELECT id FROM sizes WHERE sz >= 3 ORDER BY id;
SELECT id FROM sizes WHERE sz BETWEEN 2 AND 3 ORDER BY id;
SELECT id FROM sizes WHERE sz IN (1, 4) ORDER BY id;
SELECT id FROM sizes WHERE sz IN ('m', 'XL') ORDER BY id;
SELECT id FROM sizes WHERE opts & 4 ORDER BY id;
SELECT COUNT(*) FROM sizes WHERE FIND_IN_SET('express', opts) > 0;
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.8 String Functions (FIND_IN_SET returns an integer: BIGINT)
SELECT FIND_IN_SET('b', 'a,b,c'), FIND_IN_SET('B', 'a,b,c'), FIND_IN_SET('d', 'a,b,c'), FIND_IN_SET(NULL, 'a'), FIND_IN_SET('a', '');
UPDATE sizes SET sz = sz + 1 WHERE id = 1;
UPDATE sizes SET sz = 5 WHERE id = 2;
UPDATE IGNORE sizes SET sz = 'XXL' WHERE id = 3;
-- mysql: column 3 LONGLONG+binary -- 8.4 manual 13.3.5 The ENUM Type (an ENUM in numeric context is its index)
SELECT id, sz, sz + 0 FROM sizes WHERE id IN (1, 2, 3) ORDER BY id;
SELECT id FROM sizes WHERE sz = 0;

-- ---------------------------------------------------------------- JSON functions
CREATE TABLE docs (id INT PRIMARY KEY, doc JSON);
INSERT INTO docs VALUES (1, '{"name": "Ann", "age": 30, "tags": ["a", "b"], "addr": {"city": "Oslo", "zip": "0150"}}'), (2, '{"name": "Bob", "age": 25.5, "tags": []}'), (3, '[1, 2, 3]'), (4, 'null');
-- mysql: error 3140 -- 8.4 manual 13.5 The JSON Data Type (invalid JSON is rejected with ER_INVALID_JSON_TEXT)
INSERT INTO docs VALUES (5, '[1, 2');
-- mysql: column 2 VAR_STRING+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary -- 8.4 manual 14.17.5 Functions That Return JSON Value Attributes (JSON_TYPE is a utf8mb4_bin string; JSON_LENGTH and JSON_DEPTH are integers)
SELECT id, JSON_TYPE(doc), JSON_LENGTH(doc), JSON_DEPTH(doc) FROM docs ORDER BY id;
-- mysql: columns LONG_BLOB+binary JSON+binary JSON+binary; row Ann|30|'["age", "addr", "name", "tags"]'; row Bob|25.5|'["age", "name", "tags"]' -- 8.4 manual 14.17.3 Functions That Search JSON Values (->> is JSON_UNQUOTE(JSON_EXTRACT()); JSON_KEYS lists keys in the document's order)
SELECT doc->>'$.name', doc->'$.age', JSON_KEYS(doc) FROM docs WHERE id <= 2 ORDER BY id;
-- mysql: columns LONG; row 1 -- 8.4 manual 13.5 The JSON Data Type (Comparison and Ordering of JSON Values: numbers by value)
SELECT id FROM docs WHERE doc->'$.age' > 26 ORDER BY id;
-- mysql: columns LONG; row 2 -- 8.4 manual 13.5 The JSON Data Type (Comparison and Ordering of JSON Values: a string is compared as a JSON string)
SELECT id FROM docs WHERE doc->'$.name' IN ('Bob', 'Cy') ORDER BY id;
SELECT id FROM docs WHERE JSON_CONTAINS(doc, '"a"', '$.tags') ORDER BY id;
SELECT id FROM docs WHERE JSON_CONTAINS_PATH(doc, 'all', '$.name', '$.addr') ORDER BY id;
-- mysql: columns JSON+binary JSON+binary JSON+binary; row '"$.addr.city"'|'["0150", "Oslo"]'|'"b"' -- 8.4 manual 14.17.3 Functions That Search JSON Values (results are JSON; members come in the stored key order, shorter keys first)
SELECT JSON_SEARCH(doc, 'one', 'Oslo'), JSON_EXTRACT(doc, '$.addr.*'), JSON_EXTRACT(doc, '$.tags[last]') FROM docs WHERE id = 1;
UPDATE docs SET doc = JSON_INSERT(doc, '$.age', 99, '$.vip', TRUE) WHERE id = 2;
UPDATE docs SET doc = JSON_REPLACE(doc, '$.name', 'Robert', '$.none', 1) WHERE id = 2;
UPDATE docs SET doc = JSON_REMOVE(doc, '$.tags') WHERE id = 2;
-- mysql: columns JSON+binary; row '{"age": 25.5, "vip": true, "name": "Robert"}' -- 8.4 manual 13.5 The JSON Data Type (normalization: keys sorted)
SELECT doc FROM docs WHERE id = 2;
UPDATE docs SET doc = JSON_ARRAY_APPEND(doc, '$', 4) WHERE id = 3;
UPDATE docs SET doc = JSON_ARRAY_INSERT(doc, '$[0]', 0) WHERE id = 3;
-- mysql: columns JSON+binary -- 8.4 manual 13.5 The JSON Data Type
SELECT doc FROM docs WHERE id = 3;
-- mysql: columns JSON+binary JSON+binary -- 8.4 manual 14.17.4 Functions That Modify JSON Values
SELECT JSON_MERGE_PATCH('{"a": 1, "b": 2}', '{"b": null, "c": 3}'), JSON_MERGE_PRESERVE('[1]', '{"x": 1}');
-- mysql: columns JSON+binary JSON+binary; row '[1, 2, 3, 4]'|'{"1": "OBJECT", "2": "OBJECT", "3": "ARRAY", "4": "NULL"}' -- 8.4 manual 14.19.1 Aggregate Function Descriptions (JSON_ARRAYAGG and JSON_OBJECTAGG return JSON)
SELECT JSON_ARRAYAGG(id), JSON_OBJECTAGG(id, JSON_TYPE(doc)) FROM docs;
-- mysql: column 3 LONGLONG+binary; column 4 LONGLONG+binary; warnings none -- 8.4 manual 14.17.6 JSON Utility Functions (JSON_VALID returns 1 or 0, without a warning)
SELECT JSON_QUOTE('a"b'), JSON_UNQUOTE('"\\u00e9"'), JSON_VALID('[1, 2'), JSON_VALID('[1, 2]');
-- mysql: error 3143 -- 8.4 manual 13.5 The JSON Data Type (JSON Path Syntax: a path that does not parse is an error)
SELECT JSON_EXTRACT(doc, '$.a[') FROM docs WHERE id = 1;
-- mysql: error 3141 -- 8.4 manual 14.17.5 Functions That Return JSON Value Attributes (an argument that is not valid JSON is an error)
SELECT JSON_LENGTH('{');

-- ---------------------------------------------------------------- binary strings are bytes
CREATE TABLE blobs (id INT PRIMARY KEY, code BINARY(3), raw VARBINARY(10), body BLOB);
INSERT INTO blobs VALUES (1, 'ab', 'Ab', 'x'), (2, X'616263', 'ab', NULL);
SELECT id FROM blobs WHERE raw = 'ab' ORDER BY id;
SELECT id FROM blobs WHERE code = 'abc';
SELECT id FROM blobs WHERE raw IN ('ab', 'zz') ORDER BY id;
SELECT id FROM blobs WHERE raw LIKE 'a%' ORDER BY id;
SELECT id FROM blobs WHERE raw NOT LIKE 'A_' ORDER BY id;
-- mysql: column 3 LONGLONG+binary; column 4 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LENGTH and CHAR_LENGTH are BIGINT)
SELECT id, HEX(code), LENGTH(code), CHAR_LENGTH(raw), HEX(UPPER(raw)), HEX(LOWER(raw)) FROM blobs ORDER BY id;
SELECT id FROM blobs ORDER BY raw;
SELECT HEX(NULL), HEX(255), HEX('abc'), HEX(-1), HEX(1.5);
-- mysql: columns LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.4.2 Comparison Functions and Operators (comparisons are BIGINT)
SELECT CAST('abc' AS BINARY(5)) = X'6162630000', CAST('abc' AS BINARY(2)) = 'ab';
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary; row 1|1|1; warnings none -- 8.4 manual 11.1.4 Hexadecimal Literals (in numeric contexts a hexadecimal literal is a BIGINT UNSIGNED, so X'41' is 65; MariaDB reads X'41' as a string) and 14.4.2 (comparisons are BIGINT)
SELECT X'41' = 65, 0x0100 > 255, X'41' = 'A';

-- ---------------------------------------------------------------- more attributes
-- mysql: warnings 1681,1681 -- 8.4 manual 13.1.1 Numeric Data Type Syntax (display width is deprecated, SHOW CREATE TABLE drops it)
CREATE TABLE widths (a INT(11) NOT NULL, b BIGINT(20) UNSIGNED DEFAULT 0);
-- mysql: row widths|'CREATE TABLE `widths` (\n  `a` int NOT NULL,\n  `b` bigint unsigned DEFAULT \'0\'\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.1.1 Numeric Data Type Syntax; defaults are shown quoted
SHOW CREATE TABLE widths;
-- mysql: warnings 1681,1681,1681 -- 8.4 manual 13.1.1 Numeric Data Type Syntax (ZEROFILL and display width are deprecated; MySQL WL#13127 F-1, F-2)
CREATE TABLE zf (id INT PRIMARY KEY, z INT ZEROFILL, zs SMALLINT(4) UNSIGNED ZEROFILL);
-- mysql: warnings 1681,1681 -- 8.4 manual 13.1.1 Numeric Data Type Syntax (ZEROFILL and display width are deprecated)
CREATE TABLE zf2 (z SMALLINT(4) ZEROFILL);
INSERT INTO zf VALUES (1, 42, 7), (2, 1234567890, 12345), (3, NULL, 0);
SELECT id, z, zs FROM zf ORDER BY id;
INSERT INTO zf VALUES (4, -1, 0);
CREATE TABLE serials (id SERIAL, v INT);
-- mysql: row serials|'CREATE TABLE `serials` (\n  `id` bigint unsigned NOT NULL AUTO_INCREMENT,\n  `v` int DEFAULT NULL,\n  UNIQUE KEY `id` (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.1.1 Numeric Data Type Syntax (SERIAL is BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE)
SHOW CREATE TABLE serials;
INSERT INTO serials (v) VALUES (10), (20);
SELECT id, v FROM serials ORDER BY id;
CREATE TABLE orm_posts (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  title VARCHAR(255) NOT NULL,
  body LONGTEXT,
  published BOOLEAN NOT NULL DEFAULT FALSE,
  created_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
INSERT INTO orm_posts (title, body, created_at) VALUES ('hello', 'world', '2024-05-06 07:08:09.123456');
SELECT id, title, body, published, created_at FROM orm_posts;
SELECT COUNT(*) FROM orm_posts WHERE title = 'HELLO';
CREATE TABLE comments_t (id INT NOT NULL PRIMARY KEY COMMENT 'the id', name VARCHAR(20) NOT NULL DEFAULT '' COMMENT 'a name') COMMENT='people';
-- mysql: row comments_t|'CREATE TABLE `comments_t` (\n  `id` int NOT NULL COMMENT \'the id\',\n  `name` varchar(20) NOT NULL DEFAULT \'\' COMMENT \'a name\',\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT=\'people\'' -- 8.4 manual 15.1.20 CREATE TABLE Statement (COMMENT)
SHOW CREATE TABLE comments_t;
CREATE TABLE inv (id INT PRIMARY KEY, secret INT INVISIBLE DEFAULT 7, v INT);
INSERT INTO inv VALUES (1, 2);
INSERT INTO inv (id, secret, v) VALUES (2, 8, 3);
SELECT * FROM inv ORDER BY id;
SELECT id, secret, v FROM inv ORDER BY id;
-- mysql: row inv|'CREATE TABLE `inv` (\n  `id` int NOT NULL,\n  `secret` int DEFAULT \'7\' /*!80023 INVISIBLE */,\n  `v` int DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.1.20.10 Invisible Columns
SHOW CREATE TABLE inv;
CREATE TABLE geo (id INT PRIMARY KEY, p POINT NOT NULL, g GEOMETRY);
INSERT INTO geo VALUES (1, ST_GeomFromText('POINT(1 2)'), ST_GeomFromText('LINESTRING(0 0, 3 4)'));
SELECT ST_AsText(p), ST_X(p), ST_Y(p), ST_AsText(g) FROM geo;
SELECT COUNT(*) FROM geo WHERE ST_Length(g) = 5;
-- mysql: row geo|'CREATE TABLE `geo` (\n  `id` int NOT NULL,\n  `p` point NOT NULL,\n  `g` geometry DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.4 Spatial Data Types
SHOW CREATE TABLE geo;

-- ---------------------------------------------------------------- CREATE, ALTER, DROP
SHOW TABLES;
CREATE TABLE ints (id INT);
CREATE TABLE IF NOT EXISTS ints (id INT);
DROP TABLE nosuch;
DROP TABLE IF EXISTS nosuch;
CREATE TABLE dupcol (a INT, a INT);
CREATE TABLE twopk (a INT PRIMARY KEY, b INT PRIMARY KEY);
CREATE TABLE bigvarchar (v VARCHAR(70000));
CREATE TABLE badai (a INT AUTO_INCREMENT, b INT);
CREATE TABLE baddefault (a INT DEFAULT 'abc');
CREATE TABLE baddefault (d DATE DEFAULT '2024-02-30');
CREATE TABLE badenum (e ENUM('a', 'b') DEFAULT 'c');
CREATE TABLE `select` (`from` INT, `order` VARCHAR(5));
INSERT INTO `select` (`from`, `order`) VALUES (1, 'asc');
SELECT `from`, `order` FROM `select`;
CREATE TABLE ints_like LIKE ints;
INSERT INTO ints_like (ti) VALUES (5);
SELECT id, ti FROM ints_like;
CREATE TABLE ctas AS SELECT id, d, d * 2 AS d2, CONCAT('x', id) AS label FROM decs WHERE id <= 4;
SELECT id, d, d2, label FROM ctas ORDER BY id;
CREATE TEMPORARY TABLE tmp (a INT PRIMARY KEY, b VARCHAR(5));
INSERT INTO tmp VALUES (1, 'one'), (2, 'two');
SELECT a, b FROM tmp ORDER BY a;
DROP TEMPORARY TABLE tmp;
SELECT a FROM tmp;
CREATE TABLE alt (id INT PRIMARY KEY, a VARCHAR(10));
INSERT INTO alt VALUES (1, 'x'), (2, NULL);
ALTER TABLE alt ADD COLUMN b INT NOT NULL DEFAULT 5;
SELECT id, a, b FROM alt ORDER BY id;
ALTER TABLE alt ADD COLUMN c INT FIRST;
ALTER TABLE alt ADD INDEX idx_a (a);
CREATE UNIQUE INDEX uq_b ON alt (id, b);
SELECT * FROM alt ORDER BY id;
-- mysql: error 1138 -- 8.4 manual 17.12.1 Online DDL Operations (making a column NOT NULL is done in place; InnoDB refuses a NULL it finds with ER_INVALID_USE_OF_NULL)
ALTER TABLE alt MODIFY a VARCHAR(20) NOT NULL;
ALTER TABLE alt MODIFY a VARCHAR(20);
INSERT INTO alt (id, a) VALUES (3, '12345678901234567890');
ALTER TABLE alt CHANGE b bb BIGINT NOT NULL DEFAULT 6;
ALTER TABLE alt RENAME COLUMN c TO cc;
ALTER TABLE alt DROP COLUMN cc;
ALTER TABLE alt DROP COLUMN nosuch;
ALTER TABLE alt DROP INDEX idx_a;
DROP INDEX uq_b ON alt;
INSERT INTO alt (id) VALUES (4);
SELECT * FROM alt ORDER BY id;
-- mysql: row alt|'CREATE TABLE `alt` (\n  `id` int NOT NULL,\n  `a` varchar(20) DEFAULT NULL,\n  `bb` bigint NOT NULL DEFAULT \'6\',\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.1.9 ALTER TABLE Statement
SHOW CREATE TABLE alt;
ALTER TABLE nosuch ADD COLUMN a INT;
RENAME TABLE alt TO alt2;
SELECT COUNT(*) FROM alt2;
SELECT COUNT(*) FROM alt;
ALTER TABLE alt2 RENAME TO alt3;
DROP TABLE alt3;
DROP TABLE alt3;
DROP TABLE IF EXISTS ints_like, ctas, nosuch;
-- mysql: error 1101 -- 8.4 manual 13.6 Data Type Default Values (BLOB, TEXT, GEOMETRY and JSON columns take only expression defaults)
CREATE TABLE textdefault (t TEXT DEFAULT 'x');

-- ---------------------------------------------------------------- ALTER TABLE that rebuilds the table
CREATE TABLE alt4 (id INT PRIMARY KEY, name VARCHAR(20), qty INT, price DECIMAL(6,2));
INSERT INTO alt4 VALUES (1, 'apple', 5, 1.25), (2, 'banana split', 300, 2.50), (3, NULL, NULL, NULL);
ALTER TABLE alt4 MODIFY name VARCHAR(5);
ALTER TABLE alt4 MODIFY qty TINYINT;
ALTER TABLE alt4 MODIFY qty VARCHAR(2);
ALTER TABLE alt4 ADD COLUMN note VARCHAR(10) DEFAULT 'x' AFTER name;
SELECT * FROM alt4 ORDER BY id;
ALTER TABLE alt4 CHANGE qty quantity BIGINT;
SELECT id, quantity FROM alt4 ORDER BY id;
ALTER TABLE alt4 MODIFY name VARCHAR(30) FIRST;
SELECT * FROM alt4 ORDER BY id;
ALTER TABLE alt4 ADD PRIMARY KEY (name);
ALTER TABLE alt4 DROP PRIMARY KEY;
INSERT INTO alt4 (id, name) VALUES (1, 'dup');
ALTER TABLE alt4 ADD PRIMARY KEY (id);
DELETE FROM alt4 WHERE name = 'dup';
ALTER TABLE alt4 ADD PRIMARY KEY (id);
-- mysql: error 1138 -- 8.4 manual 17.12.1 Online DDL Operations (making a column NOT NULL is done in place; InnoDB refuses a NULL it finds with ER_INVALID_USE_OF_NULL)
ALTER TABLE alt4 MODIFY name VARCHAR(30) NOT NULL;
UPDATE alt4 SET name = 'none' WHERE name IS NULL;
ALTER TABLE alt4 MODIFY name VARCHAR(30) NOT NULL;
ALTER TABLE alt4 RENAME COLUMN quantity TO qty, ADD CONSTRAINT qty_max CHECK (qty < 1000);
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints (ER_CHECK_CONSTRAINT_VIOLATED)
INSERT INTO alt4 (id, name, qty) VALUES (9, 'big', 5000);
-- mysql: error 3959 -- 8.4 manual 15.1.20.6 CHECK Constraints (a column a CHECK constraint uses cannot be dropped or renamed: ER_DEPENDENT_BY_CHECK_CONSTRAINT)
ALTER TABLE alt4 DROP COLUMN qty;
-- mysql: ok; affected 0 -- 8.4 manual 15.1.9 ALTER TABLE Statement (DROP CHECK, MySQL's spelling; MariaDB has only DROP CONSTRAINT)
ALTER TABLE alt4 DROP CHECK qty_max, DROP COLUMN qty;
SELECT * FROM alt4 ORDER BY id;
CREATE TABLE alt4_copy AS SELECT id, name, price * 2 AS p2, CONCAT(name, '-', id) AS tag FROM alt4;
SELECT id, name, p2, tag FROM alt4_copy ORDER BY id;
CREATE TABLE alt4_like LIKE alt4;
INSERT INTO alt4_like SELECT * FROM alt4;
SELECT COUNT(*) FROM alt4_like;
DROP TABLE alt4, alt4_copy, alt4_like;
