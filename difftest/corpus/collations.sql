-- collations: text columns compare by their collation in keys (1062), WHERE, IN,
-- GROUP BY, DISTINCT, ORDER BY and MIN/MAX: utf8mb4_general_ci (the server's,
-- case- and accent-insensitive, PAD SPACE), utf8mb4_bin, utf8mb4_unicode_ci,
-- latin1_swedish_ci; ENUM/SET members; ADD COLUMN takes the table's collation.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/charset-collations.html

-- ---------------------------------------------------------------- utf8mb4_general_ci and utf8mb4_bin
CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(30), email VARCHAR(60), code VARCHAR(10) COLLATE utf8mb4_bin, UNIQUE KEY (email), UNIQUE KEY (code));
INSERT INTO people VALUES (1, 'ann', 'ann@x.io', 'abc'), (2, 'Bob', 'bob@x.io', 'ABC'), (3, 'ANN', 'ann2@x.io', 'Abc'), (4, 'ann ', 'x@x.io', NULL), (5, 'Émile', 'e@x.io', 'é');
INSERT INTO people VALUES (6, 'z', 'ANN@X.IO', NULL);
INSERT INTO people VALUES (6, 'z', 'bob@x.io  ', NULL);
INSERT INTO people VALUES (6, 'z', 'z@x.io', 'abc ');
UPDATE people SET email = 'E@X.IO' WHERE id = 1;
SELECT id FROM people WHERE name = 'ANN' ORDER BY id;
SELECT id FROM people WHERE name IN ('BOB', 'emile') ORDER BY id;
SELECT id FROM people WHERE email = 'Bob@X.io ';
SELECT id FROM people WHERE code = 'abc';
SELECT id FROM people WHERE code = 'ABC  ';
SELECT COUNT(*) FROM people GROUP BY name ORDER BY COUNT(*), MIN(id);
SELECT COUNT(DISTINCT name), COUNT(DISTINCT code) FROM people;
SELECT id FROM people ORDER BY name, id;
SELECT id FROM people ORDER BY name DESC, id;
SELECT id FROM people ORDER BY code, id;
SELECT MAX(name), MIN(code), MAX(code) FROM people;
SELECT COUNT(*) FROM people WHERE name < 'b';
SELECT COUNT(*) FROM people WHERE name BETWEEN 'A' AND 'AZ';

-- ---------------------------------------------------------------- utf8mb4_unicode_ci (UCA 4.0.0)
CREATE TABLE words (id INT PRIMARY KEY, w VARCHAR(20) COLLATE utf8mb4_unicode_ci, UNIQUE (w));
INSERT INTO words VALUES (1, 'straße'), (2, 'Æon'), (3, 'apple'), (4, 'Zebra'), (5, 'émile');
INSERT INTO words VALUES (6, 'STRASSE');
INSERT INTO words VALUES (6, 'Emile ');
SELECT id FROM words ORDER BY w, id;
SELECT id FROM words WHERE w = 'aeon';
SELECT id FROM words WHERE w IN ('APPLE', 'zebra') ORDER BY id;

-- ---------------------------------------------------------------- latin1_swedish_ci
CREATE TABLE sv (id INT PRIMARY KEY, v VARCHAR(20) CHARACTER SET latin1, UNIQUE (v));
INSERT INTO sv VALUES (1, 'Müller'), (2, 'Zorn'), (3, 'Åsa'), (4, 'anna');
INSERT INTO sv VALUES (5, 'MÜLLER');
INSERT INTO sv VALUES (5, 'ANNA');
SELECT id FROM sv ORDER BY v;
SELECT id FROM sv WHERE v = 'muller';

-- ---------------------------------------------------------------- ENUM and SET take any letter case
CREATE TABLE en (id INT PRIMARY KEY, e ENUM('small','LARGE'), s SET('a','b'));
INSERT INTO en VALUES (1, 'SMALL', 'B,a'), (2, 'large', 'A');
SELECT id, e, s FROM en ORDER BY id;
SELECT id FROM en WHERE e = 'Large';

-- ---------------------------------------------------------------- a column added later takes the table's collation
CREATE TABLE bt (id INT PRIMARY KEY) COLLATE utf8mb4_bin;
ALTER TABLE bt ADD COLUMN v VARCHAR(5);
INSERT INTO bt VALUES (1, 'x'), (2, 'X');
SELECT id FROM bt WHERE v = 'x';

-- ---------------------------------------------------------------- collations that do not exist or do not fit
CREATE TABLE bad1 (v VARCHAR(3) COLLATE utf8mb4_nosuch_ci);
CREATE TABLE bad2 (v VARCHAR(3) CHARACTER SET latin1 COLLATE utf8mb4_bin);
SET collation_server = 'utf8mb4_nosuch_ci';
