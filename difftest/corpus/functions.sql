-- functions: the built-in functions applications call, with MySQL's results,
-- result types and NULL handling: strings, numbers, dates and times, hashing,
-- conditionals and casts. MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/functions.html
CREATE TABLE f (id INT PRIMARY KEY, s VARCHAR(40), n INT, d DECIMAL(10,3), x DOUBLE, dt DATETIME, dd DATE, tm TIME);
INSERT INTO f VALUES (1, 'Hello World', 42, 3.140, 2.5, '2024-03-15 10:20:30', '2024-03-15', '10:20:30'), (2, 'a,b,c', -7, -0.500, -1.25, '2023-12-31 23:59:59', '2024-02-29', '00:00:01'), (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

-- ---------------------------------------------------------------- strings
SELECT id, LENGTH(s), CHAR_LENGTH(s), UPPER(s), LOWER(s), REVERSE(s) FROM f ORDER BY id;
SELECT id, SUBSTRING(s, 3), SUBSTRING(s, -3), SUBSTRING(s, 2, 4), LEFT(s, 3), RIGHT(s, 3) FROM f ORDER BY id;
SELECT id, LOCATE('o', s), LOCATE('o', s, 6), INSTR(s, 'World'), POSITION('b' IN s) FROM f ORDER BY id;
SELECT id, REPLACE(s, 'o', '0'), CONCAT(s, '!', n), CONCAT_WS('-', s, n, d), TRIM('  x  '), LTRIM('  x'), RTRIM('x  ') FROM f ORDER BY id;
SELECT id, LPAD(s, 15, '*'), RPAD(s, 3, '*'), LPAD(n, 5, '0'), REPEAT('ab', 3), SPACE(2) FROM f ORDER BY id;
SELECT id, SUBSTRING_INDEX(s, ',', 2), SUBSTRING_INDEX(s, ',', -1), FIND_IN_SET('b', s), FIELD('b', 'a', 'b', 'c') FROM f ORDER BY id;
SELECT id, s LIKE 'h%', s LIKE '%World', s NOT LIKE '%,%', s REGEXP '^[a-z],', s RLIKE 'World$' FROM f ORDER BY id;
SELECT id, STRCMP(s, 'Hello World'), ASCII(s), ORD('a'), CHAR(72, 105), HEX(s), HEX(n) FROM f ORDER BY id;
SELECT TRIM(LEADING 'x' FROM 'xxaxx'), TRIM(TRAILING 'x' FROM 'xxaxx'), TRIM(BOTH 'x' FROM 'xxaxx'), INSERT('abcdef', 2, 3, 'XY'), ELT(2, 'a', 'b', 'c');
SELECT QUOTE('it''s'), QUOTE(NULL), UNHEX('4142'), BIN(10), OCT(8), CONV('ff', 16, 10), CONV(10, 10, 2);
SELECT FORMAT(1234567.891, 2), FORMAT(0.5, 0), FORMAT(-1234.5, 1), FORMAT(1234567.891, 0);
SELECT MD5('abc'), SHA1('abc'), SHA2('abc', 256), CRC32('abc'), SHA2('abc', 0);
SELECT LENGTH('é'), CHAR_LENGTH('é'), UPPER('é'), HEX('é'), OCTET_LENGTH('日本');
SELECT CONCAT('a', NULL), CONCAT_WS(',', 'a', NULL, 'b'), COALESCE(NULL, NULL, 'z'), IFNULL(NULL, 'y'), NULLIF('a', 'a'), NULLIF('a', 'b');

-- ---------------------------------------------------------------- numbers
SELECT id, ABS(n), SIGN(n), MOD(n, 5), n % 5, n DIV 5, -n FROM f ORDER BY id;
SELECT id, ROUND(d), ROUND(d, 1), ROUND(x), ROUND(x, 1), TRUNCATE(d, 1), TRUNCATE(x, 0) FROM f ORDER BY id;
SELECT id, CEIL(d), CEILING(x), FLOOR(d), FLOOR(x) FROM f ORDER BY id;
SELECT ROUND(2.5), ROUND(-2.5), ROUND(2.5e0), ROUND(-2.5e0), ROUND(1234.5678, -2), TRUNCATE(1234.5678, -2);
SELECT POW(2, 10), POWER(2, -1), SQRT(16), EXP(0), LN(1), LOG(10, 100), LOG2(8), LOG10(1000);
SELECT PI(), SIN(0), COS(0), TAN(0), DEGREES(PI()), RADIANS(180);
SELECT GREATEST(1, 5, 3), LEAST(1, 5, 3), GREATEST('a', 'c', 'b'), GREATEST(1, NULL, 3), LEAST(2.5, 1);
SELECT 10 / 3, 10 DIV 3, 10 % 3, -10 % 3, 1 / 0, 10 / 4.0, 1e0 / 3;
SELECT 1 + '2', '3' * '4', 5 - '1x', '10' = 10, 'abc' = 0, 1 = 1.0, '1.0' = 1;
SELECT CAST('12' AS SIGNED), CAST(-1 AS UNSIGNED), CAST('3.7' AS SIGNED), CAST(3.7 AS SIGNED), CAST('abc' AS SIGNED);
SELECT CAST(123 AS CHAR), CAST(1.50 AS CHAR), CAST('2024-03-05' AS DATE), CAST('2024-03-05 10:11:12' AS DATETIME), CAST('10:11' AS TIME);
SELECT CONVERT('42', SIGNED), CONVERT(42, CHAR), CAST(2.5 AS DECIMAL(4,1)), CAST(1 AS DOUBLE), CAST('1e2' AS DOUBLE);

-- ---------------------------------------------------------------- dates and times
SELECT id, YEAR(dt), MONTH(dt), DAY(dt), HOUR(dt), MINUTE(dt), SECOND(dt) FROM f ORDER BY id;
SELECT id, DAYOFWEEK(dd), DAYOFYEAR(dd), WEEKDAY(dd), DAYNAME(dd), MONTHNAME(dd), QUARTER(dd) FROM f ORDER BY id;
SELECT id, DATE(dt), TIME(dt), DATE_FORMAT(dt, '%Y-%m-%d %H:%i:%s'), DATE_FORMAT(dd, '%W %M %e %Y'), DATE_FORMAT(dt, '%a %b %c %j %p %r %T') FROM f ORDER BY id;
SELECT id, DATE_ADD(dt, INTERVAL 1 DAY), DATE_SUB(dd, INTERVAL 1 MONTH), dt + INTERVAL 2 HOUR, dd - INTERVAL 1 YEAR FROM f ORDER BY id;
SELECT id, DATEDIFF(dd, '2024-01-01'), TIMESTAMPDIFF(DAY, dd, '2024-12-31'), TIMESTAMPDIFF(MONTH, '2023-01-31', dd), TIMESTAMPDIFF(SECOND, dt, '2024-03-15 10:21:00') FROM f ORDER BY id;
SELECT id, EXTRACT(YEAR FROM dt), EXTRACT(MONTH FROM dd), EXTRACT(DAY_MINUTE FROM dt), LAST_DAY(dd), WEEK(dd), WEEK(dd, 1), YEARWEEK(dd) FROM f ORDER BY id;
SELECT STR_TO_DATE('15/03/2024', '%d/%m/%Y'), STR_TO_DATE('2024-03-15 10:20', '%Y-%m-%d %H:%i'), STR_TO_DATE('nope', '%Y');
SELECT MAKEDATE(2024, 60), MAKETIME(10, 20, 30), SEC_TO_TIME(3661), TIME_TO_SEC('01:01:01'), TO_DAYS('2024-03-15'), FROM_DAYS(739325);
SELECT ADDDATE('2024-01-31', INTERVAL 1 MONTH), SUBDATE('2024-03-31', 31), ADDTIME('10:00:00', '01:30:00'), SUBTIME('10:00:00', '00:00:01'), TIMEDIFF('10:00:00', '08:30:00');
SELECT DATE_ADD('2024-02-29', INTERVAL 1 YEAR), DATE_ADD('2024-01-31 23:59:59', INTERVAL 1 SECOND), DATE_ADD('2024-03-15', INTERVAL '1:2' HOUR_MINUTE), DATE_ADD('2024-03-15', INTERVAL -3 DAY);
SELECT UNIX_TIMESTAMP('2024-03-15 10:20:30'), FROM_UNIXTIME(1710498030), FROM_UNIXTIME(1710498030, '%Y %D %M'), CONVERT_TZ('2024-03-15 10:00:00', '+00:00', '+05:30');
SELECT DATE('2024-02-30'), DATE_ADD('2024-02-30', INTERVAL 1 DAY), DAYNAME('nope'), TIMESTAMP('2024-03-15'), TIMESTAMP('2024-03-15', '10:00:00');

-- ---------------------------------------------------------------- conditionals and aggregates
SELECT id, IF(n > 0, 'pos', 'neg'), CASE WHEN n > 0 THEN 1 WHEN n < 0 THEN -1 ELSE 0 END, CASE n WHEN 42 THEN 'answer' ELSE 'other' END, IFNULL(d, 0), COALESCE(s, n, 'none') FROM f ORDER BY id;
SELECT COUNT(*), COUNT(s), SUM(n), AVG(n), MIN(s), MAX(dt), SUM(d), AVG(d), SUM(x), AVG(x) FROM f;
SELECT GROUP_CONCAT(s ORDER BY id SEPARATOR ' | '), GROUP_CONCAT(DISTINCT n ORDER BY n DESC), BIT_OR(n), BIT_AND(n), BIT_XOR(n), STD(x), VARIANCE(n) FROM f;
SELECT n > 0 AS pos, COUNT(*) FROM f GROUP BY n > 0 ORDER BY pos;
SELECT MAX(s), MIN(d), SUM(n) FROM f WHERE id > 10;
SELECT id, n BETWEEN 0 AND 50, n IN (42, 7), n NOT IN (1, 2), s IS NULL, n IS NOT NULL, NOT n, n <=> NULL FROM f ORDER BY id;
SELECT JSON_OBJECT('a', 1, 'b', 'x'), JSON_ARRAY(1, 'two', NULL), JSON_EXTRACT('{"a": {"b": [1, 2]}}', '$.a.b[1]'), JSON_UNQUOTE('"x"'), JSON_CONTAINS('[1, 2]', '2'), JSON_LENGTH('[1, 2, 3]');
SELECT INET_ATON('10.0.0.1'), INET_NTOA(167772161), UUID_TO_BIN('6ccd780c-baba-1026-9564-5b8c656024db') IS NOT NULL, IS_UUID('6ccd780c-baba-1026-9564-5b8c656024db'), LENGTH(UUID()), BIT_COUNT(255);
