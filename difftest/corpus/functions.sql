-- functions: the built-in functions applications call, with MySQL's results,
-- result types and NULL handling: strings, numbers, dates and times, hashing,
-- conditionals and casts. MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/functions.html
CREATE TABLE f (id INT PRIMARY KEY, s VARCHAR(40), n INT, d DECIMAL(10,3), x DOUBLE, dt DATETIME, dd DATE, tm TIME);
INSERT INTO f VALUES (1, 'Hello World', 42, 3.140, 2.5, '2024-03-15 10:20:30', '2024-03-15', '10:20:30'), (2, 'a,b,c', -7, -0.500, -1.25, '2023-12-31 23:59:59', '2024-02-29', '00:00:01'), (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

-- ---------------------------------------------------------------- strings
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LENGTH and CHAR_LENGTH return integers: BIGINT)
SELECT id, LENGTH(s), CHAR_LENGTH(s), UPPER(s), LOWER(s), REVERSE(s) FROM f ORDER BY id;
SELECT id, SUBSTRING(s, 3), SUBSTRING(s, -3), SUBSTRING(s, 2, 4), LEFT(s, 3), RIGHT(s, 3) FROM f ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LOCATE, INSTR and POSITION return integers: BIGINT)
SELECT id, LOCATE('o', s), LOCATE('o', s, 6), INSTR(s, 'World'), POSITION('b' IN s) FROM f ORDER BY id;
SELECT id, REPLACE(s, 'o', '0'), CONCAT(s, '!', n), CONCAT_WS('-', s, n, d), TRIM('  x  '), LTRIM('  x'), RTRIM('x  ') FROM f ORDER BY id;
SELECT id, LPAD(s, 15, '*'), RPAD(s, 3, '*'), LPAD(n, 5, '0'), REPEAT('ab', 3), SPACE(2) FROM f ORDER BY id;
-- mysql: column 4 LONGLONG+binary; column 5 LONGLONG+binary -- 8.4 manual 14.8 String Functions (FIND_IN_SET and FIELD return integers: BIGINT)
SELECT id, SUBSTRING_INDEX(s, ',', 2), SUBSTRING_INDEX(s, ',', -1), FIND_IN_SET('b', s), FIELD('b', 'a', 'b', 'c') FROM f ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary; column 6 LONGLONG+binary -- 8.4 manual 14.8.1 and 14.8.2 (LIKE, REGEXP and RLIKE return 1, 0 or NULL: BIGINT)
SELECT id, s LIKE 'h%', s LIKE '%World', s NOT LIKE '%,%', s REGEXP '^[a-z],', s RLIKE 'World$' FROM f ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary -- 8.4 manual 14.8 String Functions (STRCMP, ASCII and ORD return integers: BIGINT)
SELECT id, STRCMP(s, 'Hello World'), ASCII(s), ORD('a'), CHAR(72, 105), HEX(s), HEX(n) FROM f ORDER BY id;
SELECT TRIM(LEADING 'x' FROM 'xxaxx'), TRIM(TRAILING 'x' FROM 'xxaxx'), TRIM(BOTH 'x' FROM 'xxaxx'), INSERT('abcdef', 2, 3, 'XY'), ELT(2, 'a', 'b', 'c');
SELECT QUOTE('it''s'), QUOTE(NULL), UNHEX('4142'), BIN(10), OCT(8), CONV('ff', 16, 10), CONV(10, 10, 2);
SELECT FORMAT(1234567.891, 2), FORMAT(0.5, 0), FORMAT(-1234.5, 1), FORMAT(1234567.891, 0);
-- mysql: column 4 LONGLONG+unsigned+binary -- 8.4 manual 14.13 Encryption and Compression Functions (CRC32 returns an unsigned integer: BIGINT UNSIGNED)
SELECT MD5('abc'), SHA1('abc'), SHA2('abc', 256), CRC32('abc'), SHA2('abc', 0);
-- mysql: column 1 LONGLONG+binary; column 2 LONGLONG+binary; column 5 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LENGTH, CHAR_LENGTH and OCTET_LENGTH return integers: BIGINT)
SELECT LENGTH('é'), CHAR_LENGTH('é'), UPPER('é'), HEX('é'), OCTET_LENGTH('日本');
SELECT CONCAT('a', NULL), CONCAT_WS(',', 'a', NULL, 'b'), COALESCE(NULL, NULL, 'z'), IFNULL(NULL, 'y'), NULLIF('a', 'a'), NULLIF('a', 'b');

-- ---------------------------------------------------------------- numbers
-- mysql: column 3 LONGLONG+binary -- 8.4 manual 14.6.2 Mathematical Functions (SIGN returns an integer: BIGINT)
SELECT id, ABS(n), SIGN(n), MOD(n, 5), n % 5, n DIV 5, -n FROM f ORDER BY id;
SELECT id, ROUND(d), ROUND(d, 1), ROUND(x), ROUND(x, 1), TRUNCATE(d, 1), TRUNCATE(x, 0) FROM f ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 DOUBLE+binary/31; column 4 LONGLONG+binary; column 5 DOUBLE+binary/31 -- 8.4 manual 14.6.2 Mathematical Functions (CEILING and FLOOR of an exact value are integers, BIGINT for one that fits; of a double a double)
SELECT id, CEIL(d), CEILING(x), FLOOR(d), FLOOR(x) FROM f ORDER BY id;
SELECT ROUND(2.5), ROUND(-2.5), ROUND(2.5e0), ROUND(-2.5e0), ROUND(1234.5678, -2), TRUNCATE(1234.5678, -2);
SELECT POW(2, 10), POWER(2, -1), SQRT(16), EXP(0), LN(1), LOG(10, 100), LOG2(8), LOG10(1000);
SELECT PI(), SIN(0), COS(0), TAN(0), DEGREES(PI()), RADIANS(180);
-- mysql: columns LONGLONG+binary LONGLONG+binary VAR_STRING LONGLONG+binary NEWDECIMAL+binary/1 -- 8.4 manual 14.4.2 Comparison Functions (GREATEST and LEAST of integers are integers; a NULL argument makes the result NULL, not the type DOUBLE)
SELECT GREATEST(1, 5, 3), LEAST(1, 5, 3), GREATEST('a', 'c', 'b'), GREATEST(1, NULL, 3), LEAST(2.5, 1);
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary -- 8.4 manual 14.6.1 Arithmetic Operators (DIV and % of integers are BIGINT)
SELECT 10 / 3, 10 DIV 3, 10 % 3, -10 % 3, 1 / 0, 10 / 4.0, 1e0 / 3;
-- mysql: column 4 LONGLONG+binary; column 5 LONGLONG+binary; column 6 LONGLONG+binary; column 7 LONGLONG+binary -- 8.4 manual 14.4.2 Comparison Functions and Operators (comparisons return 1, 0 or NULL: BIGINT)
SELECT 1 + '2', '3' * '4', 5 - '1x', '10' = 10, 'abc' = 0, 1 = 1.0, '1.0' = 1;
-- mysql: columns LONGLONG+binary LONGLONG+unsigned+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary; warnings 1292,1292 -- 8.4 manual 14.10 Cast Functions (CAST AS SIGNED is BIGINT; only the strings that are no integer, '3.7' and 'abc', are warned about)
SELECT CAST('12' AS SIGNED), CAST(-1 AS UNSIGNED), CAST('3.7' AS SIGNED), CAST(3.7 AS SIGNED), CAST('abc' AS SIGNED);
SELECT CAST(123 AS CHAR), CAST(1.50 AS CHAR), CAST('2024-03-05' AS DATE), CAST('2024-03-05 10:11:12' AS DATETIME), CAST('10:11' AS TIME);
-- mysql: column 1 LONGLONG+binary -- 8.4 manual 14.10 Cast Functions (CONVERT(x, SIGNED) is BIGINT)
SELECT CONVERT('42', SIGNED), CONVERT(42, CHAR), CAST(2.5 AS DECIMAL(4,1)), CAST(1 AS DOUBLE), CAST('1e2' AS DOUBLE);

-- ---------------------------------------------------------------- dates and times
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary; column 6 LONGLONG+binary; column 7 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (date and time parts are integers: BIGINT)
SELECT id, YEAR(dt), MONTH(dt), DAY(dt), HOUR(dt), MINUTE(dt), SECOND(dt) FROM f ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 7 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (DAYOFWEEK, DAYOFYEAR, WEEKDAY and QUARTER return integers: BIGINT)
SELECT id, DAYOFWEEK(dd), DAYOFYEAR(dd), WEEKDAY(dd), DAYNAME(dd), MONTHNAME(dd), QUARTER(dd) FROM f ORDER BY id;
SELECT id, DATE(dt), TIME(dt), DATE_FORMAT(dt, '%Y-%m-%d %H:%i:%s'), DATE_FORMAT(dd, '%W %M %e %Y'), DATE_FORMAT(dt, '%a %b %c %j %p %r %T') FROM f ORDER BY id;
SELECT id, DATE_ADD(dt, INTERVAL 1 DAY), DATE_SUB(dd, INTERVAL 1 MONTH), dt + INTERVAL 2 HOUR, dd - INTERVAL 1 YEAR FROM f ORDER BY id;
-- mysql: column 2 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (DATEDIFF returns an integer: BIGINT)
SELECT id, DATEDIFF(dd, '2024-01-01'), TIMESTAMPDIFF(DAY, dd, '2024-12-31'), TIMESTAMPDIFF(MONTH, '2023-01-31', dd), TIMESTAMPDIFF(SECOND, dt, '2024-03-15 10:21:00') FROM f ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 6 LONGLONG+binary; column 7 LONGLONG+binary; column 8 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (EXTRACT, WEEK and YEARWEEK return integers: BIGINT)
SELECT id, EXTRACT(YEAR FROM dt), EXTRACT(MONTH FROM dd), EXTRACT(DAY_MINUTE FROM dt), LAST_DAY(dd), WEEK(dd), WEEK(dd, 1), YEARWEEK(dd) FROM f ORDER BY id;
SELECT STR_TO_DATE('15/03/2024', '%d/%m/%Y'), STR_TO_DATE('2024-03-15 10:20', '%Y-%m-%d %H:%i'), STR_TO_DATE('nope', '%Y');
-- mysql: column 5 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (TO_DAYS returns an integer: BIGINT)
SELECT MAKEDATE(2024, 60), MAKETIME(10, 20, 30), SEC_TO_TIME(3661), TIME_TO_SEC('01:01:01'), TO_DAYS('2024-03-15'), FROM_DAYS(739325);
-- mysql: column 1 VAR_STRING; column 2 VAR_STRING; column 3 VAR_STRING; column 4 VAR_STRING -- 8.4 manual 14.7 Date and Time Functions (DATE_ADD and ADDTIME of a string argument return a string: VARCHAR)
SELECT ADDDATE('2024-01-31', INTERVAL 1 MONTH), SUBDATE('2024-03-31', 31), ADDTIME('10:00:00', '01:30:00'), SUBTIME('10:00:00', '00:00:01'), TIMEDIFF('10:00:00', '08:30:00');
-- mysql: columns VAR_STRING VAR_STRING VAR_STRING VAR_STRING -- 8.4 manual 14.7 Date and Time Functions (DATE_ADD of a string argument returns a string: VARCHAR)
SELECT DATE_ADD('2024-02-29', INTERVAL 1 YEAR), DATE_ADD('2024-01-31 23:59:59', INTERVAL 1 SECOND), DATE_ADD('2024-03-15', INTERVAL '1:2' HOUR_MINUTE), DATE_ADD('2024-03-15', INTERVAL -3 DAY);
SELECT UNIX_TIMESTAMP('2024-03-15 10:20:30'), FROM_UNIXTIME(1710498030), FROM_UNIXTIME(1710498030, '%Y %D %M'), CONVERT_TZ('2024-03-15 10:00:00', '+00:00', '+05:30');
-- mysql: column 2 VAR_STRING -- 8.4 manual 14.7 Date and Time Functions (DATE_ADD of a string argument returns a string: VARCHAR)
SELECT DATE('2024-02-30'), DATE_ADD('2024-02-30', INTERVAL 1 DAY), DAYNAME('nope'), TIMESTAMP('2024-03-15'), TIMESTAMP('2024-03-15', '10:00:00');

-- ---------------------------------------------------------------- conditionals and aggregates
-- mysql: column 3 LONGLONG+binary -- 8.4 manual 14.5 Flow Control Functions (a CASE of integers is an integer: BIGINT)
SELECT id, IF(n > 0, 'pos', 'neg'), CASE WHEN n > 0 THEN 1 WHEN n < 0 THEN -1 ELSE 0 END, CASE n WHEN 42 THEN 'answer' ELSE 'other' END, IFNULL(d, 0), COALESCE(s, n, 'none') FROM f ORDER BY id;
SELECT COUNT(*), COUNT(s), SUM(n), AVG(n), MIN(s), MAX(dt), SUM(d), AVG(d), SUM(x), AVG(x) FROM f;
SELECT GROUP_CONCAT(s ORDER BY id SEPARATOR ' | '), GROUP_CONCAT(DISTINCT n ORDER BY n DESC), BIT_OR(n), BIT_AND(n), BIT_XOR(n), STD(x), VARIANCE(n) FROM f;
-- mysql: column 1 LONGLONG+binary -- 8.4 manual 14.4.2 Comparison Functions and Operators (comparisons return 1, 0 or NULL: BIGINT)
SELECT n > 0 AS pos, COUNT(*) FROM f GROUP BY n > 0 ORDER BY pos;
SELECT MAX(s), MIN(d), SUM(n) FROM f WHERE id > 10;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary; column 6 LONGLONG+binary; column 7 LONGLONG+binary; column 8 LONGLONG+binary -- 8.4 manual 14.4.2 Comparison Functions and Operators (comparisons, IN, IS NULL and NOT return 1, 0 or NULL: BIGINT)
SELECT id, n BETWEEN 0 AND 50, n IN (42, 7), n NOT IN (1, 2), s IS NULL, n IS NOT NULL, NOT n, n <=> NULL FROM f ORDER BY id;
-- mysql: columns JSON+binary JSON+binary JSON+binary VAR_STRING+binary LONGLONG+binary LONGLONG+binary -- 8.4 manual 14.17 JSON Functions (JSON_OBJECT, JSON_ARRAY and JSON_EXTRACT return JSON; JSON_CONTAINS and JSON_LENGTH integers)
SELECT JSON_OBJECT('a', 1, 'b', 'x'), JSON_ARRAY(1, 'two', NULL), JSON_EXTRACT('{"a": {"b": [1, 2]}}', '$.a.b[1]'), JSON_UNQUOTE('"x"'), JSON_CONTAINS('[1, 2]', '2'), JSON_LENGTH('[1, 2, 3]');
-- mysql: columns LONGLONG+unsigned+binary VAR_STRING LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary; row 167772161|10.0.0.1|1|1|36|8 -- 8.4 manual 14.24 Miscellaneous Functions (INET_ATON, INET_NTOA, UUID_TO_BIN, IS_UUID, UUID) and 14.12 Bit Functions (BIT_COUNT); MariaDB 10.11 lacks UUID_TO_BIN
SELECT INET_ATON('10.0.0.1'), INET_NTOA(167772161), UUID_TO_BIN('6ccd780c-baba-1026-9564-5b8c656024db') IS NOT NULL, IS_UUID('6ccd780c-baba-1026-9564-5b8c656024db'), LENGTH(UUID()), BIT_COUNT(255);
