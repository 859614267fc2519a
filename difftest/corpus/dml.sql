-- dml: INSERT in its forms, INSERT IGNORE, ON DUPLICATE KEY UPDATE, REPLACE,
-- INSERT ... SELECT, UPDATE and DELETE with ORDER BY and LIMIT, multi-table UPDATE
-- and DELETE, transactions, and the affected rows, last insert ids and warnings they
-- report; SELECT of the expressions applications compute over the rows.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/sql-data-manipulation-statements.html
SET time_zone = '+00:00';

-- ---------------------------------------------------------------- INSERT
CREATE TABLE accounts (
  id INT AUTO_INCREMENT PRIMARY KEY,
  email VARCHAR(50) NOT NULL UNIQUE,
  name VARCHAR(30),
  balance DECIMAL(10,2) NOT NULL DEFAULT 0,
  visits INT NOT NULL DEFAULT 0,
  updated_at DATETIME
);
INSERT INTO accounts (email, name, balance) VALUES ('a@x.io', 'Ann', 100.00);
INSERT INTO accounts (email, name, balance) VALUES ('b@x.io', 'Bob', 50.50), ('c@x.io', 'Cat', 0), ('d@x.io', NULL, 12.34);
INSERT INTO accounts VALUES (NULL, 'e@x.io', 'Eve', 5, 0, NULL);
INSERT INTO accounts SET email = 'f@x.io', name = 'Fay';
INSERT INTO accounts (email) VALUES ('g@x.io');
INSERT INTO accounts (email, name) VALUE ('h@x.io', 'Hal');
INSERT accounts (email, name) VALUES ('i@x.io', 'Ivy');
SELECT id, email, name, balance, visits, updated_at FROM accounts ORDER BY id;
SELECT LAST_INSERT_ID();
INSERT INTO accounts (email, name) VALUES ('j@x.io', 'Jo', 1);
INSERT INTO accounts (email, nosuch) VALUES ('k@x.io', 1);
INSERT INTO accounts (email, balance) VALUES ('k@x.io', 'lots');
INSERT INTO accounts (email, balance) VALUES ('k@x.io', '12.5');
INSERT INTO accounts (email, balance) VALUES ('l@x.io', 12345678901);
SELECT id, email, balance FROM accounts WHERE email IN ('k@x.io', 'l@x.io');

-- ---------------------------------------------------------------- INSERT IGNORE
INSERT IGNORE INTO accounts (email, name) VALUES ('a@x.io', 'Dup'), ('m@x.io', 'Max');
INSERT IGNORE INTO accounts (email, name) VALUES ('a@x.io', 'Dup');
INSERT IGNORE INTO accounts (email, name) VALUES ('n@x.io', REPEAT('n', 40));
INSERT IGNORE INTO accounts (email, balance) VALUES ('o@x.io', 'x');
SELECT id, email, name, balance FROM accounts WHERE id > 9 ORDER BY id;

-- ---------------------------------------------------------------- INSERT ... ON DUPLICATE KEY UPDATE
INSERT INTO accounts (email, name) VALUES ('a@x.io', 'Ann') ON DUPLICATE KEY UPDATE visits = visits + 1;
INSERT INTO accounts (email, name) VALUES ('a@x.io', 'Ann') ON DUPLICATE KEY UPDATE name = name;
INSERT INTO accounts (email, name) VALUES ('a@x.io', 'Ann') ON DUPLICATE KEY UPDATE name = 'Ann';
INSERT INTO accounts (email, name) VALUES ('p@x.io', 'Pat') ON DUPLICATE KEY UPDATE visits = visits + 1;
INSERT INTO accounts (email, name) VALUES ('a@x.io', 'A'), ('b@x.io', 'B'), ('q@x.io', 'Q') ON DUPLICATE KEY UPDATE visits = visits + 10;
-- mysql: ok; affected 2; warnings 1287 -- 8.4 manual 15.2.7.2 INSERT ... ON DUPLICATE KEY UPDATE (VALUES() to refer to new values is deprecated)
INSERT INTO accounts (email, name) VALUES ('c@x.io', 'Cathy') ON DUPLICATE KEY UPDATE name = VALUES(name);
-- mysql: ok; affected 2; insert_id 4; warnings none -- 8.4 manual 15.2.7.2 INSERT ... ON DUPLICATE KEY UPDATE (row alias, MySQL 8.0.19 and later)
INSERT INTO accounts (email, name) VALUES ('d@x.io', 'Dee') AS new ON DUPLICATE KEY UPDATE name = new.name;
-- mysql: row 1|a@x.io|Ann|11; row 2|b@x.io|Bob|10; row 3|c@x.io|Cathy|0; row 4|d@x.io|Dee|0 -- 8.4 manual 15.2.7.2 INSERT ... ON DUPLICATE KEY UPDATE (the row alias statement above updated d@x.io)
SELECT id, email, name, visits FROM accounts WHERE id <= 4 ORDER BY id;
INSERT INTO accounts (email) VALUES ('c@x.io') ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id);
SELECT LAST_INSERT_ID();
INSERT INTO accounts (id, email) VALUES (1, 'other@x.io') ON DUPLICATE KEY UPDATE email = 'a2@x.io';
INSERT INTO accounts (id, email) VALUES (1, 'z@x.io') ON DUPLICATE KEY UPDATE email = 'b@x.io';
INSERT INTO accounts (email, balance) VALUES ('b@x.io', 1) ON DUPLICATE KEY UPDATE balance = balance + 0.005;
SELECT id, email, balance FROM accounts WHERE id IN (1, 2) ORDER BY id;

-- ---------------------------------------------------------------- REPLACE
CREATE TABLE kv (k VARCHAR(10) PRIMARY KEY, v INT, note VARCHAR(10) UNIQUE);
REPLACE INTO kv VALUES ('a', 1, 'n1');
REPLACE INTO kv VALUES ('a', 2, 'n1');
REPLACE INTO kv VALUES ('b', 3, 'n1');
REPLACE INTO kv VALUES ('b', 4, 'n2'), ('c', 5, NULL);
REPLACE INTO kv VALUES ('c', 6, 'n2');
REPLACE INTO kv SET k = 'd', v = 7;
REPLACE kv (k, v) VALUES ('e', 8);
SELECT k, v, note FROM kv ORDER BY k;
-- mysql: columns VAR_STRING LONG VAR_STRING; row c|6|n2; row d|7|NULL; row e|8|NULL -- 8.4 manual 15.2.16 TABLE Statement (MySQL 8.0.19 and later)
TABLE kv ORDER BY k;
REPLACE INTO kv VALUES (NULL, 1, 'x');

-- ---------------------------------------------------------------- INSERT ... SELECT
CREATE TABLE archive (id INT PRIMARY KEY, email VARCHAR(50), balance DECIMAL(10,2));
INSERT INTO archive SELECT id, email, balance FROM accounts WHERE balance > 10;
INSERT INTO archive (id, email) SELECT id, email FROM accounts WHERE id = 1;
INSERT IGNORE INTO archive SELECT id, email, balance FROM accounts WHERE id <= 5;
INSERT INTO archive (id, email, balance) SELECT id + 1000, email, balance FROM archive;
INSERT INTO archive SELECT id, email, balance * 2 FROM accounts WHERE id <= 2 ON DUPLICATE KEY UPDATE balance = archive.balance + 1;
SELECT COUNT(*), SUM(balance) FROM archive;
SELECT id, email, balance FROM archive WHERE id < 1000 ORDER BY id;
INSERT INTO archive (id, email) SELECT id, email FROM accounts LIMIT 0;
INSERT INTO archive (id, email) VALUES (5000, 'a'), (5001, 'b');

-- ---------------------------------------------------------------- UPDATE
UPDATE accounts SET balance = balance + 10 WHERE id = 1;
UPDATE accounts SET balance = balance WHERE id = 1;
UPDATE accounts SET name = 'Ann' WHERE id = 1;
UPDATE accounts SET name = 'Ann' WHERE id = 1 OR id = 2;
UPDATE accounts SET visits = visits + 1 WHERE id > 1000;
UPDATE accounts SET visits = visits + 1, balance = visits * 2 WHERE id = 2;
UPDATE accounts SET balance = balance * 2, visits = balance WHERE id = 4;
-- mysql: row 1|Ann|110.00|11; row 2|Ann|22.00|11; row 3|Cathy|0.00|0; row 4|Dee|24.68|25 -- 8.4 manual 15.2.7.2 INSERT ... ON DUPLICATE KEY UPDATE (the row alias statement above named d@x.io Dee; MariaDB has no row alias)
SELECT id, name, balance, visits FROM accounts WHERE id <= 4 ORDER BY id;
UPDATE accounts SET visits = 0 ORDER BY id LIMIT 2;
UPDATE accounts SET visits = visits + 100 WHERE balance > 0 ORDER BY balance DESC, id LIMIT 1;
UPDATE accounts SET visits = visits + 1 LIMIT 0;
SELECT id, visits FROM accounts WHERE visits <> 0 ORDER BY id;
UPDATE accounts SET balance = balance - 1000 WHERE id = 1;
UPDATE accounts SET balance = 123456789.99 WHERE id = 1;
UPDATE accounts SET name = NULL WHERE id = 2;
UPDATE accounts SET email = NULL WHERE id = 2;
UPDATE accounts SET visits = 'abc' WHERE id = 2;
UPDATE accounts SET visits = '7' WHERE id = 2;
UPDATE accounts SET updated_at = '2024-01-01 10:00:00' WHERE id IN (1, 2);
UPDATE accounts SET updated_at = updated_at + INTERVAL 1 DAY WHERE updated_at IS NOT NULL;
UPDATE accounts SET updated_at = '2024-02-30' WHERE id = 1;
UPDATE IGNORE accounts SET visits = 'abc' WHERE id = 2;
-- mysql: ok; affected 0; warnings 1062 -- 8.4 manual 15.2.17 UPDATE Statement (IGNORE: duplicate-key conflicts are not updated and are reported as warnings)
UPDATE IGNORE accounts SET email = 'b@x.io' WHERE id = 1;
SELECT id, email, name, balance, visits, updated_at FROM accounts WHERE id <= 3 ORDER BY id;
UPDATE accounts SET nosuch = 1;
UPDATE nosuch SET a = 1;
UPDATE accounts SET visits = visits + 1 WHERE nosuch = 1;
UPDATE accounts SET email = CONCAT('x', email) WHERE id = 3;
UPDATE accounts SET name = UPPER(name), balance = ROUND(balance / 3, 2) WHERE id IN (4, 5);
-- mysql: row 3|xc@x.io|Cathy|0.00; row 4|d@x.io|DEE|8.23; row 5|e@x.io|EVE|1.67 -- 8.4 manual 15.2.7.2 INSERT ... ON DUPLICATE KEY UPDATE (the row alias statement above named d@x.io Dee; MariaDB has no row alias)
SELECT id, email, name, balance FROM accounts WHERE id IN (3, 4, 5) ORDER BY id;

-- ---------------------------------------------------------------- DELETE
DELETE FROM accounts WHERE id = 999;
DELETE FROM accounts WHERE name IS NULL ORDER BY id DESC LIMIT 1;
DELETE FROM accounts ORDER BY id DESC LIMIT 2;
SELECT id FROM accounts ORDER BY id;
DELETE a FROM accounts AS a WHERE a.email = 'h@x.io';
DELETE FROM archive WHERE id > 1000;
DELETE FROM archive LIMIT 1;
DELETE FROM archive;
DELETE FROM nosuch;
SELECT COUNT(*) FROM archive;

-- ---------------------------------------------------------------- multi-table UPDATE and DELETE
CREATE TABLE orders (id INT PRIMARY KEY, account_id INT, amount DECIMAL(10,2), status VARCHAR(10));
INSERT INTO orders VALUES (1, 1, 10.00, 'new'), (2, 1, 20.00, 'new'), (3, 2, 5.50, 'new'), (4, 99, 1.00, 'new'), (5, 4, 0.50, 'new');
UPDATE accounts a JOIN orders o ON o.account_id = a.id SET o.status = 'seen', a.visits = a.visits + 1 WHERE o.amount > 1;
SELECT id, status FROM orders ORDER BY id;
SELECT id, visits FROM accounts WHERE id IN (1, 2, 4) ORDER BY id;
UPDATE accounts a JOIN orders o ON o.account_id = a.id SET o.amount = o.amount + a.id, a.visits = a.visits + 10 WHERE a.id = 4;
SELECT o.id, o.amount, a.visits FROM orders o JOIN accounts a ON a.id = o.account_id WHERE a.id = 4;
UPDATE accounts a JOIN orders o ON o.account_id = a.id SET o.account_id = 44, a.visits = a.visits + 1 WHERE a.id = 4;
SELECT id, account_id FROM orders WHERE id = 5;
SELECT visits FROM accounts WHERE id = 4;
UPDATE orders SET account_id = 4, amount = 0.50 WHERE id = 5;
UPDATE accounts a, orders o SET a.balance = a.balance + o.amount WHERE o.account_id = a.id AND o.id = 3;
UPDATE orders SET amount = (SELECT balance FROM accounts WHERE id = 2) WHERE id = 3;
UPDATE orders o LEFT JOIN accounts a ON a.id = o.account_id SET o.status = 'orphan' WHERE a.id IS NULL;
-- mysql: error 1221 -- 8.4 manual 15.2.17 UPDATE Statement (for the multiple-table syntax, ORDER BY and LIMIT cannot be used)
UPDATE orders o JOIN accounts a ON a.id = o.account_id SET o.status = o.status WHERE o.id = 0 ORDER BY o.id;
UPDATE orders SET status = 'sub' WHERE account_id IN (SELECT id FROM accounts WHERE balance > 100);
SELECT id, account_id, amount, status FROM orders ORDER BY id;
DELETE o FROM orders o JOIN accounts a ON a.id = o.account_id WHERE a.id = 2;
DELETE a, o FROM accounts a JOIN orders o ON o.account_id = a.id WHERE a.id = 1;
DELETE FROM orders USING orders LEFT JOIN accounts ON accounts.id = orders.account_id WHERE accounts.id IS NULL;
SELECT id FROM orders ORDER BY id;
SELECT id FROM accounts WHERE id <= 4 ORDER BY id;
DELETE FROM orders WHERE account_id IN (SELECT id FROM accounts WHERE name = 'nobody');

-- ---------------------------------------------------------------- transactions
START TRANSACTION;
INSERT INTO kv VALUES ('t', 1, NULL);
UPDATE kv SET v = v + 1 WHERE k = 't';
SELECT v FROM kv WHERE k = 't';
ROLLBACK;
SELECT COUNT(*) FROM kv WHERE k = 't';
BEGIN;
INSERT INTO kv VALUES ('u', 1, NULL);
SAVEPOINT s1;
INSERT INTO kv VALUES ('w', 2, NULL);
ROLLBACK TO SAVEPOINT s1;
INSERT INTO kv VALUES ('u', 3, NULL);
COMMIT;
SELECT k, v FROM kv WHERE k IN ('u', 'w') ORDER BY k;
ROLLBACK TO SAVEPOINT nosuch;
SET autocommit = 0;
DELETE FROM kv WHERE k = 'u';
ROLLBACK;
SET autocommit = 1;
SELECT COUNT(*) FROM kv WHERE k = 'u';

-- ---------------------------------------------------------------- expressions over the rows
CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(10,2), cost DECIMAL(10,4), qty INT, weight DOUBLE, tag VARCHAR(10));
INSERT INTO items VALUES (1, 'apple', 1.10, 0.5500, 10, 0.2, 'fruit'), (2, 'pear', 2.20, NULL, NULL, 0.25, 'fruit'), (3, 'bread', NULL, 1.0000, 3, 0.5, NULL), (4, 'milk', 0.99, 0.3333, 0, NULL, 'dairy');
SELECT id, IFNULL(price, 0), IFNULL(cost, 0), IFNULL(price, cost), COALESCE(price, cost, 0) FROM items ORDER BY id;
SELECT id, price * qty, price + cost, price - cost, price * 1.1, price / 3, cost * cost FROM items ORDER BY id;
SELECT SUM(price), AVG(price), MIN(price), MAX(price), SUM(price * qty), SUM(weight) FROM items;
SELECT COUNT(*), COUNT(price), COUNT(DISTINCT tag), COUNT(qty) FROM items;
SELECT tag, COUNT(*), SUM(price) FROM items GROUP BY tag ORDER BY tag;
SELECT tag, SUM(price) AS total FROM items GROUP BY tag HAVING total > 1 ORDER BY tag;
SELECT name, price FROM items GROUP BY tag;
SELECT name, COUNT(*) FROM items;
SELECT tag, UPPER(tag), COUNT(*) FROM items GROUP BY tag ORDER BY tag;
SELECT price * 2, COUNT(*) FROM items GROUP BY price * 2 ORDER BY 1;
-- mysql: columns LONG VAR_STRING NEWDECIMAL/2; row 1|apple|1.10; row 2|pear|2.20; row 3|bread|NULL; row 4|milk|0.99; warnings none -- 8.4 manual 14.19.4 Detection of Functional Dependence (columns of a table whose primary key is grouped)
SELECT id, name, price FROM items GROUP BY id ORDER BY id;
-- mysql: columns VAR_STRING NEWDECIMAL+binary; row apple|10; warnings none -- 8.4 manual 14.19.4 Detection of Functional Dependence (a column equal to a constant in WHERE)
SELECT name, SUM(qty) FROM items WHERE name = 'apple' GROUP BY qty;
SELECT id, IF(price > 1, 'dear', 'cheap'), CASE WHEN qty IS NULL THEN 'unknown' WHEN qty = 0 THEN 'none' ELSE 'some' END FROM items ORDER BY id;
SELECT id, NULLIF(qty, 0), qty DIV 2, qty MOD 3, -qty, ABS(-qty) FROM items ORDER BY id;
SELECT id, ROUND(price, 1), ROUND(cost, 2), TRUNCATE(cost, 1), ROUND(weight, 1), ROUND(price) FROM items ORDER BY id;
-- mysql: column 6 LONGLONG+binary -- 8.4 manual 14.8 String Functions (LENGTH returns an integer: BIGINT)
SELECT id, CONCAT(name, ':', price), CONCAT_WS(',', name, tag, qty), UPPER(name), LOWER('ABC'), LENGTH(name), SUBSTRING(name, 2, 3) FROM items ORDER BY id;
SELECT GROUP_CONCAT(name ORDER BY name SEPARATOR '|'), GROUP_CONCAT(DISTINCT tag ORDER BY tag) FROM items;
SELECT id, name FROM items ORDER BY price IS NULL, price DESC;
SELECT id FROM items ORDER BY price LIMIT 2 OFFSET 1;
SELECT id FROM items WHERE price BETWEEN 1 AND 2 OR tag = 'dairy' ORDER BY id;
SELECT id FROM items WHERE name LIKE 'p%' OR name IN ('milk', 'none') ORDER BY id;
SELECT id FROM items WHERE qty <> 0 ORDER BY id;
SELECT id FROM items WHERE price = '2.2' ORDER BY id;
SELECT id FROM items WHERE tag = 'FRUIT' ORDER BY id;
SELECT DISTINCT tag FROM items ORDER BY tag;
SELECT i.name, a.id FROM items i LEFT JOIN accounts a ON a.id = i.id ORDER BY i.id;
SELECT name FROM items WHERE price > (SELECT AVG(price) FROM items) ORDER BY name;
SELECT id, (SELECT COUNT(*) FROM orders WHERE orders.account_id = items.id) FROM items ORDER BY id;
SELECT id, (SELECT o.id FROM orders o WHERE o.account_id = items.id) FROM items ORDER BY id;
SELECT id, (SELECT o.id FROM orders o WHERE o.account_id = items.id ORDER BY o.id LIMIT 1) FROM items ORDER BY id;
SELECT (SELECT name FROM items);
SELECT (SELECT name FROM items WHERE id = 2), (SELECT MAX(id) FROM items), (SELECT name FROM items WHERE id = 99);
UPDATE items SET qty = (SELECT COUNT(*) FROM orders) WHERE id = (SELECT id FROM items WHERE name = 'milk');
SELECT id FROM items WHERE price = (SELECT price FROM items WHERE tag = 'fruit');
-- mysql: columns LONGLONG+binary LONGLONG+binary -- 8.4 manual 15.2.15.6 Subqueries with EXISTS or NOT EXISTS (integer results are BIGINT)
SELECT EXISTS (SELECT 1 FROM items WHERE qty = 0), NOT EXISTS (SELECT 1 FROM items WHERE qty > 100);
SELECT name FROM items WHERE id = 1 UNION SELECT name FROM items WHERE id = 2 ORDER BY name;
SELECT tag FROM items UNION ALL SELECT tag FROM items ORDER BY tag LIMIT 3;
SET @n = 5;
SELECT @n, @n + 1, @nosuch;
SELECT id, price * @n FROM items WHERE id = 1;
UPDATE items SET qty = qty + @n WHERE id = 1;
SELECT ROW_COUNT();
UPDATE items SET qty = qty WHERE id = 1;
SELECT ROW_COUNT();
SELECT qty FROM items WHERE id = 1;
SET @d = 1.50, @s = 'pear', @x = (SELECT price FROM items WHERE id = 1) * 2, @b = _binary'ab', @f = 1e1;
SELECT CONCAT(@d), CONCAT(@x), @s, @b, @f, @f / 4, _binary'xy';
SELECT id FROM items WHERE name = @s OR price > @x ORDER BY id;
UPDATE items SET price = price + @d WHERE name = @s;
SELECT id, price FROM items WHERE name = @s;
SELECT id, price FROM items WHERE id = 2 FOR UPDATE;
-- mysql: columns LONGLONG+binary -- mysql-test/r/metadata.result (SELECT 1 is type 8, LONGLONG)
SELECT 1 FROM items WHERE id = 1 LOCK IN SHARE MODE;
-- mysql: columns LONGLONG+binary; row 4 -- 8.4 manual 17.7.2.4 Locking Reads (FOR SHARE, MySQL 8.0 and later)
SELECT COUNT(*) FROM items WHERE id > 0 FOR SHARE;
