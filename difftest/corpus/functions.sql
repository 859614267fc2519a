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

-- ---------------------------------------------------------------- strings by collation, multibyte text, edge arguments
CREATE TABLE g (id INT PRIMARY KEY, cat VARCHAR(10), amt DECIMAL(8,2), qty INT, name VARCHAR(20) COLLATE utf8mb4_bin, d DATE, ts DATETIME(3));
INSERT INTO g VALUES (1, 'a', 10.50, 2, 'Apple', '2024-01-15', '2024-01-15 08:30:00.125'), (2, 'a', 5.25, NULL, 'apple', '2024-02-20', '2024-02-20 23:59:59.999'), (3, 'b', 7.00, 5, 'Banana', '2024-02-01', '2024-02-01 00:00:00.000'), (4, 'b', NULL, 1, 'cherry', '2023-12-31', NULL), (5, 'c', 3.10, 3, 'Ärger', '2024-03-10', '2024-03-10 12:00:00.500');
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary; column 6 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LOCATE, INSTR, STRCMP, FIELD and FIND_IN_SET return integers: BIGINT)
SELECT id, LOCATE('a', name), INSTR(name, 'A'), STRCMP(name, 'apple'), FIELD(name, 'APPLE', 'apple'), FIND_IN_SET(name, 'x,Apple') FROM g ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary; column 8 LONGLONG+binary; column 9 LONGLONG+binary -- 8.4 manual 14.8 String Functions and 14.4.2 (integer results and comparisons are BIGINT)
SELECT id, LOCATE('A', cat), STRCMP(cat, 'A'), cat = 'A', FIELD(cat, 'B', 'A'), UPPER(name), LOWER(name), CHAR_LENGTH(name), LENGTH(name) FROM g ORDER BY id;
-- mysql: columns LONG LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary VAR_STRING+binary LONG_BLOB+binary; row 1|0|1|1|2|pple|Appl*; row 2|1|1|1|2|apple|*ppl*; row 3|0|0|0|0|anana|B*n*n*; row 4|0|0|0|0|cherry|ch*rry; row 5|0|0|0|0|rger|'Ärg*r' -- 8.4 manual 14.8.2 Regular Expressions (case sensitivity follows the collation unless the match type says otherwise; REGEXP_REPLACE returns LONGTEXT; MariaDB 10.11 lacks REGEXP_LIKE)
SELECT id, name REGEXP '^a', cat REGEXP 'A', REGEXP_LIKE(name, '^a', 'i'), REGEXP_INSTR(name, 'p+'), REGEXP_SUBSTR(name, '[a-z]+'), REGEXP_REPLACE(name, '[aeiou]', '*') FROM g ORDER BY id;
-- mysql: columns LONG_BLOB LONGLONG+binary LONGLONG+binary VAR_STRING LONG_BLOB LONGLONG+binary; row a1b#c333|5|3|two|'Smith, John'|NULL -- 8.4 manual 14.8.2 Regular Expressions (REGEXP_REPLACE's occurrence, REGEXP_INSTR's return option, $n in a replacement; MariaDB 10.11 takes fewer arguments)
SELECT REGEXP_REPLACE('a1b22c333', '[0-9]+', '#', 1, 2), REGEXP_INSTR('abcabc', 'b', 1, 2), REGEXP_INSTR('abcabc', 'b', 1, 1, 1), REGEXP_SUBSTR('one two three', '[a-z]+', 5), REGEXP_REPLACE('John Smith', '(\\w+) (\\w+)', '$2, $1'), 'abc' REGEXP NULL;
SELECT SUBSTRING('héllo', 2, 3), LEFT('héllo', 2), RIGHT('日本語', 2), REVERSE('héllo'), LPAD('é', 3, 'ü'), INSERT('héllo', 2, 1, 'E'), UPPER('straße'), LOWER('ÀÉÎ');
SELECT SUBSTRING('abc', 0), SUBSTRING('abc', -5), SUBSTRING('abc', 2, -1), SUBSTRING('abc', 4), MID('abcdef', 2, 3), SUBSTR('abcdef' FROM 3), SUBSTRING('abcdef' FROM -2 FOR 1);
-- mysql: column 9 LONGLONG+binary; column 10 LONGLONG+binary; column 11 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LOCATE returns an integer: BIGINT)
SELECT LPAD('abc', 2, 'x'), RPAD('abc', 5, ''), LPAD('abc', -1, 'x'), REPEAT('x', 0), REPEAT('x', -1), SPACE(0), ELT(0, 'a'), ELT(3, 'a', 'b'), LOCATE('', 'abc'), LOCATE('b', 'abc', 0), LOCATE('', 'abc', 5);
-- mysql: column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 9 LONGLONG+binary -- 8.4 manual 14.8 String Functions (ASCII, ORD and OCTET_LENGTH return integers: BIGINT)
SELECT QUOTE('a\\b'), QUOTE(''), ASCII(''), ORD('é'), CHAR(65, 66 USING utf8mb4), HEX(CHAR(256)), HEX(CHAR(1, NULL, 2)), BIT_LENGTH('ab'), OCTET_LENGTH(NULL);
SELECT CONCAT_WS(',', name, cat, amt, NULL), CONCAT(name, qty), REPLACE(name, 'a', 'A'), TRIM(BOTH 'a' FROM name), TRIM(LEADING 'A' FROM name), RTRIM(CONCAT(cat, '  ')), LTRIM('  x') FROM g ORDER BY id;
SELECT SOUNDEX('Robert'), SOUNDEX('Tymczak'), SOUNDEX(''), MAKE_SET(5, 'a', 'b', 'c'), MAKE_SET(3, NULL, 'b'), EXPORT_SET(5, 'Y', 'N', ',', 4), TO_BASE64('abc'), FROM_BASE64('YWJj'), HEX(UNHEX('ABC')), UNHEX('zz');
SELECT CONV('-1', 10, 16), CONV('zz', 36, 10), CONV(255, 10, -16), CONV(-255, 10, -16), CONV('1010', 2, 8), BIN(-1), OCT(-1), HEX(-1), CONV('x', 10, 2), CONV(10, 1, 10), CONV(NULL, 10, 2);
SELECT FORMAT(12345.678, 1, 'de_DE'), FORMAT(-1.4, 0), FORMAT(1e6, 2), FORMAT(NULL, 2), FORMAT(1234.5, NULL), FORMAT(2.5e0, 0), FORMAT(3.5e0, 0), FORMAT(0.125, 2), FORMAT(-1234567.5, 0);
SELECT FORMAT(1234567.891, 2, 'en_US'), FORMAT(1234567.891, 2, 'de_CH'), FORMAT(1234567.891, 2, 'xx_XX');
-- mysql: column 6 LONGLONG+binary; column 7 LONGLONG+binary; column 8 LONGLONG+binary -- 8.4 manual 14.15 Information Functions (COERCIBILITY returns an integer: BIGINT)
SELECT COLLATION(name), COLLATION(cat), COLLATION('x'), CHARSET(name), CHARSET(12), COERCIBILITY(name), COERCIBILITY('x'), COERCIBILITY(NULL) FROM g WHERE id = 1;

-- ---------------------------------------------------------------- numbers: types of results, NULL and domain errors
-- mysql: column 3 LONGLONG+binary; column 7 LONGLONG+binary; column 8 LONGLONG+binary -- 8.4 manual 14.6.2 Mathematical Functions (SIGN returns an integer; CEILING and FLOOR of a DECIMAL that fits are BIGINT)
SELECT id, ABS(amt), SIGN(amt), ROUND(amt, 1), ROUND(amt, -1), TRUNCATE(amt, 0), CEIL(amt), FLOOR(amt), MOD(qty, 2), qty % 2, MOD(amt, 2), amt % 3 FROM g ORDER BY id;
-- mysql: column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary -- 8.4 manual 14.3 Type Conversion in Expression Evaluation (a string compared or computed with a number is read as a DOUBLE, warning 1292 for each value that is no number; comparisons are BIGINT)
SELECT id, s + 1, s = 0, n = '42', d < '1x' FROM f ORDER BY id;
-- mysql: column 2 LONGLONG+binary; column 5 LONGLONG+binary; column 6 LONGLONG+binary; column 8 LONGLONG+binary; column 9 LONGLONG+binary; column 12 LONGLONG+binary -- 8.4 manual 14.6.2 Mathematical Functions (ABS, SIGN and MOD of integers are BIGINT)
SELECT ABS(-2.5), ABS(-3), ABS('-1.5'), ABS(NULL), SIGN(-0.0), SIGN('-3'), MOD(10.5, 3), MOD(-7, 3), MOD(7, -3), 7.5 % 0, MOD(5e0, 0), 5 MOD 3;
-- mysql: column 6 LONGLONG+binary; column 7 LONGLONG+binary; column 8 LONGLONG+binary; column 10 LONGLONG+binary -- 8.4 manual 14.6.2 Mathematical Functions (ROUND and TRUNCATE of an integer are BIGINT)
SELECT ROUND(1.005, 2), ROUND(-1.5), ROUND(0.5e0), ROUND(1.5e0), TRUNCATE(-1.999, 1), ROUND(123, -1), ROUND(125, -1), ROUND(-125, -1), ROUND(1.2345, 10), TRUNCATE(12345, -2);
-- mysql: warnings 3020,3020,3020 -- 8.4 manual 14.6.2 Mathematical Functions (LN, LOG and LOG2 of a value that is not positive: NULL with warning 3020 Invalid argument for logarithm)
SELECT EXP(1), LN(0), LOG(2, 8), LOG(-1), LOG10(100), LOG2(0), SQRT(-1), POW(0, 0), POWER(2, 0.5), ATAN(1, 2), ATAN2(1, 1), ASIN(2), ACOS(1), COT(1);
-- mysql: column 5 VAR_STRING -- 8.4 manual 14.4.2 Comparison Functions (the return type of LEAST is the aggregated type of its arguments: a DATE with a string is a string, compared as dates)
SELECT GREATEST(1, 2.5), LEAST(1e0, 2), GREATEST('10', '9'), GREATEST(qty, amt), LEAST(d, '2024-02-01'), GREATEST(CAST('2024-01-01' AS DATE), DATE '2023-05-01') FROM g WHERE id = 1;
-- mysql: column 1 LONGLONG+binary; column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 5 LONGLONG+binary; column 6 LONGLONG+binary; column 7 LONGLONG+binary -- 8.4 manual 14.4.2 and 14.12 (INTERVAL and BIT_COUNT return integers: BIGINT)
SELECT INTERVAL(23, 1, 15, 17, 30, 44, 200), INTERVAL(10, 1, 10, 100), INTERVAL(NULL, 1, 2), BIT_COUNT(-1), BIT_COUNT(NULL), BIT_COUNT(b'101'), BIT_COUNT(3.5);
-- mysql: column 1 LONGLONG+unsigned+binary; column 2 LONGLONG+unsigned+binary -- 8.4 manual 14.13 (CRC32 returns an unsigned integer: BIGINT UNSIGNED)
SELECT CRC32(NULL), CRC32(''), MD5(NULL), SHA1(''), SHA2('abc', 224), SHA2('abc', 384), SHA2('abc', 123), SHA2(NULL, 256), SHA('abc');
-- compare: shape -- RAND() is random; RAND(seed) is repeatable but MariaDB's generator is not MySQL's
-- mysql: column 3 LONGLONG+binary; column 4 LONGLONG+binary -- 8.4 manual 14.4.2 Comparison Functions (comparisons return 1, 0 or NULL: BIGINT)
SELECT RAND(), RAND(3), RAND(3) < 1, FLOOR(RAND(7) * 10) BETWEEN 0 AND 9;
-- mysql: columns DOUBLE+binary/31 DOUBLE+binary/31 DOUBLE+binary/31 -- 8.4 manual 14.6.2 Mathematical Functions (FLOOR of a double is a double of unfixed decimals)
SELECT FLOOR(RAND(1) * 1000), FLOOR(RAND(2) * 1000), FLOOR(RAND(3) * 1000) FROM f ORDER BY id;

-- mysql: column 6 LONGLONG+binary; column 7 LONGLONG+binary; column 8 LONGLONG+binary; column 9 LONGLONG+binary -- 8.4 manual 14.24 Miscellaneous Functions (IS_IPV4, IS_IPV6, IS_IPV4_MAPPED and IS_IPV4_COMPAT return 1 or 0: BIGINT)
SELECT HEX(INET6_ATON('fe80::1')), HEX(INET6_ATON('10.0.0.1')), INET6_NTOA(INET6_ATON('2001:db8::ff00:42:8329')), INET6_NTOA(INET6_ATON('::ffff:10.0.0.1')), INET6_ATON('nope'), IS_IPV4('256.1.1.1'), IS_IPV6('::1'), IS_IPV4_MAPPED(INET6_ATON('::ffff:10.0.0.1')), IS_IPV4_COMPAT(INET6_ATON('::10.0.0.1'));
-- mysql: columns VAR_STRING VAR_STRING VAR_STRING LONGLONG+binary LONGLONG+binary; row 1026BABA6CCD780C95645B8C656024DB|6ccd780c-baba-1026-9564-5b8c656024db|6ccd780c-baba-1026-9564-5b8c656024db|0|1 -- 8.4 manual 14.24 Miscellaneous Functions (UUID_TO_BIN's swap flag moves the time-high group first; BIN_TO_UUID undoes it; MariaDB 10.11 lacks these)
SELECT HEX(UUID_TO_BIN('6ccd780c-baba-1026-9564-5b8c656024db', 1)), BIN_TO_UUID(UUID_TO_BIN('6ccd780c-baba-1026-9564-5b8c656024db', 1), 1), BIN_TO_UUID(UUID_TO_BIN('{6ccd780c-baba-1026-9564-5b8c656024db}')), IS_UUID('not-a-uuid'), IS_UUID('{6ccd780c-baba-1026-9564-5b8c656024db}');
-- mysql: column 1 VAR_STRING; column 3 LONGLONG+binary; column 4 LONGLONG+binary -- 8.4 manual 14.24 Miscellaneous Functions (UUID() is a VARCHAR of 36 characters; LENGTH and comparisons are BIGINT)
-- compare: shape -- UUID() and UUID_SHORT() are new on each call
SELECT UUID(), UUID_SHORT(), LENGTH(RANDOM_BYTES(8)), UUID() <> UUID();
-- ---------------------------------------------------------------- casts to every target
-- mysql: row 2|18446744073709551614|18446744073709551615|2|11; warnings 1105 -- 8.4 manual 14.10 Cast Functions (a negative number cast to UNSIGNED wraps: -1.5 rounds to -2, 2^64 - 2; only a negative string is warned about)
SELECT CAST(1.5 AS UNSIGNED), CAST(-1.5 AS UNSIGNED), CAST('-1' AS UNSIGNED), CAST(2.5e0 AS UNSIGNED), CAST(amt AS UNSIGNED) FROM g WHERE id = 1;
SELECT CAST('abcdef' AS CHAR(3)), CAST(12345 AS CHAR(2)), CAST('abc' AS CHAR(10)), CONVERT('héllo', CHAR(2)), CAST(NULL AS CHAR(2));
-- mysql: column 3 LONGLONG+binary; column 4 LONGLONG+binary; warnings 1287 -- 8.4 manual 14.10 Cast Functions (the BINARY operator is deprecated: warning 1287; comparisons are BIGINT)
SELECT CAST('abc' AS BINARY), HEX(CAST('ab' AS BINARY(4))), BINARY 'a' = 'A', CAST('a' AS BINARY) = 'A', CONVERT('abc' USING utf8mb4), HEX(CONVERT('é' USING binary));
SELECT CAST('1.999' AS DECIMAL(5,2)), CAST(123.456 AS DECIMAL(4,1)), CAST('x' AS DECIMAL(5,2)), CAST(1e3 AS DECIMAL(7,2)), CONVERT(-0.005, DECIMAL(5,2)), CAST(qty AS DECIMAL(5,1)) FROM g WHERE id = 1;
SELECT CAST('1.5e3' AS DOUBLE), CAST('abc' AS DOUBLE), CAST(3 AS FLOAT), CAST(0.1 AS FLOAT), CAST(amt AS DOUBLE), CAST(d AS DOUBLE) FROM g WHERE id = 1;
-- mysql: row NULL|2024-03-15|10:20:30.12|'2024-03-15 10:20:31'|2024-01-15|08:30:00|'2024-01-15 00:00:00' -- 8.4 manual 13.2.6 Fractional Seconds in Time Values (conversion to fewer fractional digits rounds)
SELECT CAST('2024-02-30' AS DATE), CAST(20240315 AS DATE), CAST('10:20:30.123' AS TIME(2)), CAST('2024-03-15 10:20:30.5' AS DATETIME), CAST(ts AS DATE), CAST(ts AS TIME), CAST(d AS DATETIME) FROM g WHERE id = 1;
-- mysql: columns YEAR+unsigned YEAR+unsigned YEAR+unsigned YEAR+unsigned YEAR+unsigned; row 2024|2005|1999|2000|NULL; warnings 1292 -- 8.4 manual 14.10 Cast Functions (CAST AS YEAR, 8.0.22: two-digit years as the YEAR type reads them; MariaDB has no YEAR target)
SELECT CAST(d AS YEAR), CAST(5 AS YEAR), CAST(99 AS YEAR), CAST('0' AS YEAR), CAST(1900 AS YEAR) FROM g WHERE id = 1;
-- mysql: columns JSON+binary JSON+binary JSON+binary JSON+binary; row 42|'{"a": [true, null], "b": 1}'|10.50|NULL -- 8.4 manual 14.10 Cast Functions and 13.5 The JSON Data Type (CAST AS JSON; MariaDB has no JSON target)
SELECT CAST(42 AS JSON), CAST('{"b": 1, "a": [true, null]}' AS JSON), CAST(amt AS JSON), CAST(NULL AS JSON) FROM g WHERE id = 1;

-- ---------------------------------------------------------------- dates: formats, units, zones
SELECT DATE_FORMAT(ts, '%f %H %h %I %i %k %l %p %S %s %T %r'), DATE_FORMAT(d, '%D %e %c %m %M %b %y %Y %j %a %W %w'), DATE_FORMAT(d, '%U %u %V %v %X %x %%') FROM g ORDER BY id;
SELECT DATE_FORMAT('2024-01-01', '%U %u %V %v %X %x'), DATE_FORMAT('2023-01-01', '%U %u %V %v %X %x'), DATE_FORMAT('2024-12-31', '%U %u %V %v %X %x'), DATE_FORMAT(NULL, '%Y'), DATE_FORMAT('2024-03-15', NULL);
SELECT TIME_FORMAT('100:05:07.5', '%H %k %h %i %s %f'), TIME_FORMAT('-01:02:03', '%H:%i:%s'), DATE_FORMAT('2024-03-15 14:05:07', '%l:%i %p'), GET_FORMAT(DATE, 'EUR'), GET_FORMAT(DATETIME, 'ISO'), GET_FORMAT(TIME, 'USA');
SELECT DATE_ADD(ts, INTERVAL 250 MICROSECOND), DATE_ADD(d, INTERVAL 2 WEEK), DATE_ADD(d, INTERVAL 1 QUARTER), DATE_ADD(d, INTERVAL '1-2' YEAR_MONTH), DATE_ADD(ts, INTERVAL '1 2' DAY_HOUR) FROM g WHERE id = 1;
-- mysql: column 1 VAR_STRING; column 2 VAR_STRING; column 3 VAR_STRING; column 4 VAR_STRING; column 5 VAR_STRING -- 8.4 manual 14.7 Date and Time Functions (DATE_ADD of a string argument returns a string: VARCHAR)
SELECT DATE_ADD('2024-03-15 10:00:00', INTERVAL '1 2:3:4' DAY_SECOND), DATE_ADD('2024-03-15 10:00:00', INTERVAL '2:30' MINUTE_SECOND), DATE_ADD('2024-03-15 10:00:00', INTERVAL '1.5' SECOND_MICROSECOND), DATE_SUB('2024-03-15 10:00:00', INTERVAL '1:1:1' HOUR_SECOND), DATE_ADD('2024-03-15', INTERVAL 1.5 DAY);
-- mysql: column 1 VAR_STRING -- 8.4 manual 14.7 Date and Time Functions (TIMESTAMPADD of a string argument returns a string: VARCHAR)
SELECT TIMESTAMPADD(MINUTE, 90, '2024-03-15 10:00:00'), TIMESTAMPADD(MONTH, 1, d), TIMESTAMPADD(WEEK, -1, ts), TIMESTAMPDIFF(YEAR, '2000-02-29', d), TIMESTAMPDIFF(WEEK, d, '2024-12-31'), TIMESTAMPDIFF(MICROSECOND, ts, '2024-01-15 08:30:01'), TIMESTAMPDIFF(QUARTER, '2023-01-01', d) FROM g WHERE id = 1;
-- mysql: column 1 LONGLONG+binary; column 2 LONGLONG+binary; column 3 LONGLONG+binary; column 4 LONGLONG+binary; column 6 LONGLONG+binary; column 7 LONGLONG+binary; column 8 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (EXTRACT, MICROSECOND and WEEKOFYEAR return integers: BIGINT)
SELECT EXTRACT(WEEK FROM d), EXTRACT(QUARTER FROM d), EXTRACT(YEAR_MONTH FROM d), EXTRACT(DAY_HOUR FROM ts), EXTRACT(HOUR_MICROSECOND FROM ts), EXTRACT(MICROSECOND FROM ts), MICROSECOND(ts), WEEKOFYEAR(d), TO_SECONDS(d) FROM g WHERE id = 1;
-- mysql: column 1 LONGLONG+binary; column 2 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (PERIOD_ADD and PERIOD_DIFF return integers: BIGINT)
SELECT PERIOD_ADD(202401, 14), PERIOD_DIFF(202403, 202311), LAST_DAY('2023-02-10'), LAST_DAY('2024-02-30'), MAKEDATE(2023, 0), MAKEDATE(2024, 367), SEC_TO_TIME(-3700.5), TIME_TO_SEC('-01:00:01'), FROM_DAYS(0);
-- mysql: row '2024-03-15 11:00:00'|'2024-07-01 08:00:00'|'2024-03-15 19:00:00'|NULL -- 8.4 manual 7.1.15 MySQL Server Time Zone Support (named zones once the time zone tables are loaded: Europe/Oslo is UTC+1 in March, America/New_York UTC-4 in July, Asia/Tokyo UTC+9)
SELECT CONVERT_TZ('2024-03-15 10:00:00', 'UTC', 'Europe/Oslo'), CONVERT_TZ('2024-07-01 12:00:00', '+00:00', 'America/New_York'), CONVERT_TZ('2024-03-15 10:00:00', 'UTC', 'Asia/Tokyo'), CONVERT_TZ('2024-03-15 10:00:00', 'UTC', 'Nowhere/Nothing');
SELECT CONVERT_TZ('2024-03-15 10:00:00', '+01:00', '-05:00'), CONVERT_TZ(ts, '+00:00', '+10:00'), CONVERT_TZ(NULL, '+00:00', '+01:00'), CONVERT_TZ('2024-03-15', '+00:00', '+25:00') FROM g WHERE id = 1;
SELECT STR_TO_DATE('March 15 2024', '%M %d %Y'), STR_TO_DATE('15.03.24 2:05 PM', '%d.%m.%y %h:%i %p'), STR_TO_DATE('2024-075', '%Y-%j'), STR_TO_DATE('10:20:30.25', '%H:%i:%s.%f'), STR_TO_DATE('2024-13-01', '%Y-%m-%d');
-- mysql: column 4 LONGLONG+binary; column 5 LONGLONG+binary; column 6 LONGLONG+binary; column 7 LONGLONG+binary; column 8 LONGLONG+binary; column 9 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (date parts are integers: BIGINT)
SELECT DAYNAME(d), MONTHNAME(d), DATE_FORMAT(d, '%W %M'), DAYOFMONTH(d), DAYOFWEEK(ts), WEEKDAY(ts), QUARTER(ts), YEARWEEK(d, 3), WEEK(d, 3) FROM g ORDER BY id;

-- ---------------------------------------------------------------- JSON documents in a column, -> and ->>
CREATE TABLE j (id INT PRIMARY KEY, doc JSON);
INSERT INTO j VALUES (1, '{"name": "Ann", "age": 30, "tags": ["x", "y"], "addr": {"city": "Oslo"}}'), (2, '{"name": "Bob", "age": null, "tags": [], "n": 1.50}'), (3, NULL);
-- mysql: columns LONG JSON+binary LONG_BLOB+binary JSON+binary LONGLONG+binary; row 1|'"Ann"'|Ann|'["x", "y"]'|2; row 2|'"Bob"'|Bob|[]|0; row 3|NULL|NULL|NULL|NULL -- 8.4 manual 14.17.3 Functions That Search JSON Values (column->path is JSON_EXTRACT, column->>path JSON_UNQUOTE of it: LONGTEXT utf8mb4_bin)
SELECT id, doc->'$.name', doc->>'$.name', doc->'$.tags', JSON_LENGTH(doc, '$.tags') FROM j ORDER BY id;
-- mysql: columns LONG LONG_BLOB+binary VAR_STRING+binary LONGLONG+binary; row 1|Oslo|INTEGER|1; row 2|NULL|'NULL'|0; row 3|NULL|NULL|NULL -- 8.4 manual 14.17.3 and 14.17.5 (->> of a missing path is NULL; JSON_TYPE of JSON null is 'NULL')
SELECT id, doc->>'$.addr.city', JSON_TYPE(doc->'$.age'), JSON_CONTAINS(doc, '"x"', '$.tags') FROM j ORDER BY id;
-- mysql: row 1|'{"age": 31, "addr": {"city": "Oslo"}, "name": "Ann", "tags": ["x", "y"]}'|'["age", "addr", "name", "tags"]'|'"$.tags[1]"'; row 2|'{"n": 1.5, "age": 31, "name": "Bob", "tags": []}'|'["n", "age", "name", "tags"]'|NULL; row 3|NULL|NULL|NULL; column 2 JSON+binary; column 3 JSON+binary; column 4 JSON+binary -- 8.4 manual 13.5 The JSON Data Type (object keys kept sorted by length, then bytes; a number with a fraction in JSON text is a double) and 14.17.4
SELECT id, JSON_SET(doc, '$.age', 31), JSON_KEYS(doc), JSON_SEARCH(doc, 'one', 'y') FROM j ORDER BY id;
-- mysql: columns JSON+binary JSON+binary VAR_STRING+binary VAR_STRING+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary; row '{"b": true, "k": 1.50, "n": null}'|'[1.0, "2", []]'|'"a\\"b"'|'a\tb'|1|0|3; warnings none -- 8.4 manual 13.5 The JSON Data Type (keys sorted; a DOUBLE prints with a point) and 14.17 (JSON_VALID of invalid text is 0 without a warning)
SELECT JSON_OBJECT('k', 1.50, 'b', TRUE, 'n', NULL), JSON_ARRAY(1e0, '2', JSON_ARRAY()), JSON_QUOTE('a"b'), JSON_UNQUOTE('"a\\tb"'), JSON_VALID('{"a": 1}'), JSON_VALID('{a}'), JSON_DEPTH('[[1]]');
-- mysql: columns JSON+binary JSON+binary JSON+binary JSON+binary JSON+binary JSON+binary -- 8.4 manual 14.17 JSON Functions (these return JSON)
SELECT JSON_EXTRACT('[10, 20, 30]', '$[1]', '$[2]'), JSON_ARRAY_APPEND('[1]', '$', 2), JSON_ARRAY_INSERT('[1, 3]', '$[1]', 2), JSON_REMOVE('{"a": 1, "b": 2}', '$.a'), JSON_MERGE_PATCH('{"a": 1}', '{"a": null, "b": 2}'), JSON_MERGE_PRESERVE('[1]', '[2]');
-- mysql: columns LONGLONG+binary LONGLONG+binary LONGLONG+binary LONGLONG+binary JSON+binary VAR_STRING+binary; row 1|0|1|1|NULL|NULL -- 8.4 manual 14.17.3 (JSON_CONTAINS_PATH, JSON_OVERLAPS, MEMBER OF; MariaDB 10.11 lacks MEMBER OF)
SELECT JSON_CONTAINS_PATH('{"a": 1}', 'one', '$.a', '$.b'), JSON_CONTAINS_PATH('{"a": 1}', 'all', '$.a', '$.b'), JSON_OVERLAPS('[1, 2]', '[2, 3]'), 2 MEMBER OF ('[1, 2]'), JSON_EXTRACT('{"a": 1}', '$.b'), JSON_UNQUOTE(NULL);

-- ---------------------------------------------------------------- aggregates with GROUP BY
SELECT cat, COUNT(*), COUNT(qty), SUM(amt), AVG(amt), MIN(name), MAX(d), GROUP_CONCAT(name ORDER BY name SEPARATOR '/') FROM g GROUP BY cat ORDER BY cat;
-- mysql: columns VAR_STRING LONGLONG+unsigned+binary LONGLONG+unsigned+binary LONGLONG+unsigned+binary DOUBLE+binary/6 DOUBLE+binary/6 DOUBLE+binary/4 DOUBLE+binary/4 LONGLONG+binary; row a|2|2|2|2.625000|3.712311|0.0000|NULL|1; row b|1|5|4|0.000000|NULL|4.0000|8.0000|1; row c|3|3|3|0.000000|NULL|0.0000|NULL|1 -- 8.4 manual 14.19.1 Aggregate Function Descriptions (bit aggregates are BIGINT UNSIGNED; variances DOUBLE with the argument's decimals plus 4; ANY_VALUE, which MariaDB 10.11 lacks)
SELECT cat, BIT_AND(qty), BIT_OR(qty), BIT_XOR(qty), STDDEV_POP(amt), STDDEV_SAMP(amt), VAR_POP(qty), VAR_SAMP(qty), ANY_VALUE(name) IS NOT NULL FROM g GROUP BY cat ORDER BY cat;
SELECT GROUP_CONCAT(DISTINCT cat ORDER BY cat DESC SEPARATOR ''), GROUP_CONCAT(qty), GROUP_CONCAT(name, ':', qty ORDER BY id), GROUP_CONCAT(NULL), COUNT(DISTINCT cat), SUM(DISTINCT qty) FROM g;
-- mysql: column 6 LONGLONG+binary -- 8.4 manual 14.4.2 Comparison Functions (GREATEST of an INT and a BIGINT is BIGINT)
SELECT cat, SUM(qty * amt), MAX(amt) - MIN(amt), AVG(qty), SUM(qty) / COUNT(*), GREATEST(MAX(qty), 4) FROM g GROUP BY cat HAVING SUM(qty) > 1 ORDER BY cat;
-- mysql: column 1 LONGLONG+binary; column 2 LONGLONG+binary -- 8.4 manual 14.7 Date and Time Functions (YEAR and MONTH return integers: BIGINT)
SELECT YEAR(d) AS y, MONTH(d) AS m, COUNT(*), SUM(amt) FROM g GROUP BY YEAR(d), MONTH(d) ORDER BY y, m;
-- mysql: columns LONGLONG+binary; row 1024; warnings 1260 -- 8.4 manual 14.19.1 (GROUP_CONCAT is cut at group_concat_max_len, 1024 by default, with warning 1260; MariaDB's default is 1M)
SELECT LENGTH(GROUP_CONCAT(REPEAT('x', 100))) FROM f, g;
SELECT BIT_AND(qty), BIT_OR(qty), STD(qty), VARIANCE(qty), GROUP_CONCAT(qty) FROM g WHERE id > 10;

-- ---------------------------------------------------------------- WITH ROLLUP
SELECT cat, COUNT(*), SUM(amt), MAX(qty) FROM g GROUP BY cat WITH ROLLUP;
-- mysql: columns VAR_STRING LONGLONG+binary NEWDECIMAL+binary LONGLONG+binary LONGLONG+binary; row a|2024|2|0|0; row a|NULL|2|0|1; row b|2023|1|0|0; row b|2024|5|0|0; row b|NULL|6|0|1; row c|2024|3|0|0; row c|NULL|3|0|1; row NULL|NULL|11|1|1 -- 8.4 manual 14.19.2 GROUP BY Modifiers (GROUPING() is 1 in a super-aggregate row of its column; MariaDB 10.11 lacks GROUPING)
SELECT cat, YEAR(d) AS y, SUM(qty) AS q, GROUPING(cat), GROUPING(y) FROM g GROUP BY cat, y WITH ROLLUP;
-- mysql: columns VAR_STRING NEWDECIMAL+binary/2; row NULL|22.75; row a|15.75 -- 8.4 manual 14.19.2 GROUP BY Modifiers (since 8.0.12 ORDER BY may sort a ROLLUP result; HAVING filters the super-aggregate rows too)
SELECT cat, SUM(amt) AS total FROM g WHERE id < 5 GROUP BY cat WITH ROLLUP HAVING total > 10 ORDER BY total DESC;
SELECT IFNULL(cat, 'all') AS c, COUNT(qty) FROM g GROUP BY cat WITH ROLLUP;
