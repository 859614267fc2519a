-- constraints: PRIMARY KEY, UNIQUE, NOT NULL, DEFAULT (literals and expressions),
-- CHECK, FOREIGN KEY with its actions, AUTO_INCREMENT, generated columns, and the
-- errors they raise: 1062, 1048, 1364, 1452, 1451, 3819.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/create-table.html
SET time_zone = '+00:00';

-- ---------------------------------------------------------------- PRIMARY KEY and UNIQUE
CREATE TABLE users (
  id INT NOT NULL AUTO_INCREMENT,
  email VARCHAR(100) NOT NULL,
  name VARCHAR(50),
  age INT,
  PRIMARY KEY (id),
  UNIQUE KEY uq_email (email),
  KEY idx_name (name)
);
-- mysql: row users|'CREATE TABLE `users` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `email` varchar(100) NOT NULL,\n  `name` varchar(50) DEFAULT NULL,\n  `age` int DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `uq_email` (`email`),\n  KEY `idx_name` (`name`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.7.7.11 SHOW CREATE TABLE Statement
SHOW CREATE TABLE users;
INSERT INTO users (email, name, age) VALUES ('a@example.com', 'Ann', 30);
INSERT INTO users (email, name, age) VALUES ('b@example.com', 'Bob', 25);
INSERT INTO users (email, name) VALUES ('a@example.com', 'Dup');
INSERT INTO users (email, name) VALUES ('A@EXAMPLE.COM', 'Case');
INSERT INTO users (email, name) VALUES ('a@example.com  ', 'Pad');
INSERT INTO users (id, email) VALUES (1, 'c@example.com');
SELECT id, email, name, age FROM users ORDER BY id;
SELECT LAST_INSERT_ID();
INSERT INTO users SET email = 'c@example.com', name = 'Cy';
SELECT id, email FROM users WHERE email = 'c@example.com';
UPDATE users SET email = 'b@example.com' WHERE id = 1;
UPDATE users SET age = age + 1;
SELECT id, age FROM users ORDER BY id;
UPDATE users SET id = id + 1 ORDER BY id DESC;
SELECT id, email FROM users ORDER BY id;
UPDATE users SET id = 1 WHERE id = 3;
SELECT COUNT(*) FROM users;
CREATE TABLE memberships (user_id INT NOT NULL, group_id INT NOT NULL, role VARCHAR(10), PRIMARY KEY (user_id, group_id));
INSERT INTO memberships VALUES (1, 1, 'owner'), (1, 2, 'member'), (2, 1, 'member');
INSERT INTO memberships VALUES (1, 1, 'again');
INSERT INTO memberships VALUES (3, 3, 'x'), (3, 3, 'y');
SELECT COUNT(*) FROM memberships;
CREATE TABLE codes (id INT PRIMARY KEY, code VARCHAR(5) UNIQUE, region CHAR(2), num INT, UNIQUE KEY uq_region_num (region, num));
INSERT INTO codes VALUES (1, NULL, 'eu', NULL), (2, NULL, 'eu', NULL);
INSERT INTO codes VALUES (3, 'x', 'us', 1), (4, 'x', 'us', 2);
INSERT INTO codes VALUES (5, 'y', 'us', 1);
INSERT INTO codes VALUES (5, 'y', 'US', 1);
INSERT INTO codes VALUES (6, 'z', 'us', 2);
SELECT id, code, region, num FROM codes ORDER BY id;
INSERT INTO codes (id) VALUES (NULL);
INSERT INTO codes (code) VALUES ('w');

-- ---------------------------------------------------------------- NOT NULL and missing values
CREATE TABLE nn (id INT PRIMARY KEY, a VARCHAR(10) NOT NULL, b INT NOT NULL DEFAULT 0, c DATETIME NOT NULL, d INT NULL);
INSERT INTO nn (id, a, b, c) VALUES (1, NULL, 1, '2024-01-01');
INSERT INTO nn (id, b, c) VALUES (2, 1, '2024-01-01');
INSERT INTO nn (id, a) VALUES (3, 'x');
INSERT INTO nn VALUES (4, 'x', NULL, '2024-01-01', NULL);
INSERT INTO nn (id, a, c) VALUES (5, 'x', '2024-01-01');
INSERT INTO nn (id, a, c, d) VALUES (6, 'y', '2024-01-02', DEFAULT);
INSERT INTO nn (id, a, b, c) VALUES (7, 'x', NULL, '2024-01-01'), (8, 'y', 1, '2024-01-01');
UPDATE nn SET a = NULL WHERE id = 5;
UPDATE nn SET b = NULL;
INSERT IGNORE INTO nn (id, a, c) VALUES (9, NULL, '2024-01-01');
INSERT IGNORE INTO nn (id, a) VALUES (10, 'z');
UPDATE IGNORE nn SET a = NULL WHERE id = 5;
SELECT id, CONCAT('[', a, ']'), b, c, d FROM nn ORDER BY id;
INSERT INTO nn (id, a, c) SELECT 11, NULL, '2024-01-01';
INSERT INTO nn () VALUES ();
INSERT INTO nn VALUES ();

-- ---------------------------------------------------------------- DEFAULT
CREATE TABLE defs (
  id INT AUTO_INCREMENT PRIMARY KEY,
  status VARCHAR(10) NOT NULL DEFAULT 'new',
  qty INT DEFAULT 1,
  price DECIMAL(8,2) DEFAULT 9.99,
  created DATETIME DEFAULT CURRENT_TIMESTAMP,
  updated TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  d DATE DEFAULT (CURRENT_DATE),
  doubled INT DEFAULT (qty * 2),
  uid VARCHAR(36) DEFAULT (UUID()),
  j JSON DEFAULT (JSON_ARRAY()),
  note TEXT DEFAULT ('none')
);
-- mysql: row defs|'CREATE TABLE `defs` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `status` varchar(10) NOT NULL DEFAULT \'new\',\n  `qty` int DEFAULT \'1\',\n  `price` decimal(8,2) DEFAULT \'9.99\',\n  `created` datetime DEFAULT CURRENT_TIMESTAMP,\n  `updated` timestamp NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n  `d` date DEFAULT (curdate()),\n  `doubled` int DEFAULT ((`qty` * 2)),\n  `uid` varchar(36) DEFAULT (uuid()),\n  `j` json DEFAULT (json_array()),\n  `note` text DEFAULT (_utf8mb4\'none\'),\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 13.6 Data Type Default Values (expression defaults are shown in parentheses)
SHOW CREATE TABLE defs;
INSERT INTO defs () VALUES ();
INSERT INTO defs (qty) VALUES (5);
INSERT INTO defs (status, qty, price) VALUES (DEFAULT, DEFAULT, DEFAULT);
INSERT INTO defs SET status = 'set', price = DEFAULT(price) + 1;
-- mysql: column 6 JSON+binary -- 8.4 manual 13.5 The JSON Data Type
SELECT id, status, qty, price, doubled, j, note FROM defs ORDER BY id;
SELECT COUNT(*) FROM defs WHERE created IS NOT NULL AND updated IS NOT NULL AND d = CURRENT_DATE AND CHAR_LENGTH(uid) = 36;
SELECT COUNT(DISTINCT uid) FROM defs;
UPDATE defs SET qty = DEFAULT WHERE id = 2;
SELECT id, qty, doubled FROM defs WHERE id = 2;
UPDATE defs SET status = 'x' WHERE id = 1;
SELECT COUNT(*) FROM defs WHERE updated IS NOT NULL;
CREATE TABLE defs_bad (a INT DEFAULT (nosuch + 1));
CREATE TABLE defs_null (a INT NOT NULL DEFAULT NULL);
ALTER TABLE defs ALTER COLUMN status SET DEFAULT 'fresh';
ALTER TABLE defs ALTER COLUMN qty DROP DEFAULT;
INSERT INTO defs (price) VALUES (1);
SELECT status, qty FROM defs WHERE price = 1.00;

-- ---------------------------------------------------------------- CHECK
CREATE TABLE products (
  id INT PRIMARY KEY,
  price DECIMAL(10,2) NOT NULL CHECK (price >= 0),
  discount DECIMAL(10,2) DEFAULT 0,
  qty INT,
  CHECK (qty >= 0),
  CONSTRAINT products_discount_chk CHECK (discount <= price)
);
-- mysql: row products|'CREATE TABLE `products` (\n  `id` int NOT NULL,\n  `price` decimal(10,2) NOT NULL,\n  `discount` decimal(10,2) DEFAULT \'0.00\',\n  `qty` int DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  CONSTRAINT `products_chk_1` CHECK ((`price` >= 0)),\n  CONSTRAINT `products_chk_2` CHECK ((`qty` >= 0)),\n  CONSTRAINT `products_discount_chk` CHECK ((`discount` <= `price`))\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.1.20.6 CHECK Constraints (generated names tbl_chk_N)
SHOW CREATE TABLE products;
INSERT INTO products VALUES (1, 10.00, 2.00, 5);
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints (ER_CHECK_CONSTRAINT_VIOLATED)
INSERT INTO products VALUES (2, -1, 0, 1);
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints
INSERT INTO products VALUES (3, 5, 6, 1);
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints
INSERT INTO products VALUES (4, 5, 1, -1);
INSERT INTO products VALUES (5, 5, 1, NULL);
INSERT INTO products (id, price, discount) VALUES (6, 5, NULL);
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints
UPDATE products SET price = -5 WHERE id = 1;
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints
UPDATE products SET discount = price + 1;
-- mysql: ok; affected 0; warnings 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints (IGNORE turns the violation into a warning and skips the row)
INSERT IGNORE INTO products VALUES (7, -1, 0, 1);
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints
INSERT INTO products VALUES (8, 1, 0, 1), (9, -1, 0, 1);
SELECT id, price, discount, qty FROM products ORDER BY id;
ALTER TABLE products ADD CONSTRAINT chk_qty_max CHECK (qty < 500);
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints (existing rows are checked by ALTER TABLE ... ADD CONSTRAINT)
ALTER TABLE products ADD CONSTRAINT chk_price_min CHECK (price > 100);
-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints
INSERT INTO products VALUES (10, 5, 0, 600);
ALTER TABLE products DROP CONSTRAINT chk_qty_max;
INSERT INTO products VALUES (10, 5, 0, 600);
SELECT COUNT(*) FROM products;
-- mysql: error 3814 -- 8.4 manual 15.1.20.6 CHECK Constraints (nondeterministic functions such as NOW() are not permitted)
CREATE TABLE events_chk (id INT PRIMARY KEY, at DATETIME, CHECK (at < NOW()));
-- mysql: error 3813 -- 8.4 manual 15.1.20.6 CHECK Constraints (a column constraint can refer only to its column)
CREATE TABLE colchk (a INT CHECK (b > 0), b INT);

-- ---------------------------------------------------------------- FOREIGN KEY
CREATE TABLE parents (id INT PRIMARY KEY, name VARCHAR(20));
CREATE TABLE children (
  id INT PRIMARY KEY,
  parent_id INT,
  note VARCHAR(20),
  FOREIGN KEY (parent_id) REFERENCES parents (id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE toys (id INT PRIMARY KEY, child_id INT, CONSTRAINT fk_toy_child FOREIGN KEY (child_id) REFERENCES children (id) ON DELETE SET NULL);
CREATE TABLE pets (id INT PRIMARY KEY, parent_id INT NOT NULL, CONSTRAINT fk_pet_parent FOREIGN KEY (parent_id) REFERENCES parents (id));
-- mysql: row children|'CREATE TABLE `children` (\n  `id` int NOT NULL,\n  `parent_id` int DEFAULT NULL,\n  `note` varchar(20) DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  KEY `parent_id` (`parent_id`),\n  CONSTRAINT `children_ibfk_1` FOREIGN KEY (`parent_id`) REFERENCES `parents` (`id`) ON DELETE CASCADE ON UPDATE CASCADE\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.1.20.5 FOREIGN KEY Constraints (generated names tbl_ibfk_N)
SHOW CREATE TABLE children;
-- mysql: row toys|'CREATE TABLE `toys` (\n  `id` int NOT NULL,\n  `child_id` int DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  KEY `fk_toy_child` (`child_id`),\n  CONSTRAINT `fk_toy_child` FOREIGN KEY (`child_id`) REFERENCES `children` (`id`) ON DELETE SET NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.1.20.5 FOREIGN KEY Constraints (the index takes the constraint's name)
SHOW CREATE TABLE toys;
INSERT INTO parents VALUES (1, 'p1'), (2, 'p2'), (3, 'p3');
INSERT INTO children VALUES (10, 1, 'c10'), (11, 1, 'c11'), (20, 2, 'c20');
INSERT INTO children VALUES (30, 99, 'orphan');
INSERT INTO children VALUES (31, NULL, 'no parent');
INSERT INTO children VALUES (32, 2, 'ok'), (33, 98, 'bad');
INSERT IGNORE INTO children VALUES (34, 2, 'kept'), (35, 97, 'refused'), (10, 1, 'dup');
SELECT id, parent_id, note FROM children WHERE id >= 34 ORDER BY id;
DELETE FROM children WHERE id = 34;
SELECT COUNT(*) FROM children;
INSERT INTO toys VALUES (100, 10), (101, 11), (102, NULL);
INSERT INTO pets VALUES (1000, 3);
DELETE FROM parents WHERE id = 3;
UPDATE parents SET id = 33 WHERE id = 3;
UPDATE parents SET id = 5 WHERE id = 1;
SELECT id, parent_id FROM children ORDER BY id;
DELETE FROM parents WHERE id = 5;
SELECT id, parent_id FROM children ORDER BY id;
SELECT id, child_id FROM toys ORDER BY id;
CREATE TABLE kids2 (id INT PRIMARY KEY, parent_id INT, note VARCHAR(10));
INSERT INTO kids2 VALUES (1, 2, 'a'), (2, 99, 'orphan');
ALTER TABLE kids2 ADD CONSTRAINT fk_kids2 FOREIGN KEY (parent_id) REFERENCES parents (id);
DELETE FROM kids2 WHERE id = 2;
ALTER TABLE kids2 ADD FOREIGN KEY (parent_id) REFERENCES parents (id) ON DELETE CASCADE;
INSERT INTO kids2 VALUES (3, 77, 'no parent');
ALTER TABLE kids2 DROP FOREIGN KEY kids2_ibfk_1;
INSERT INTO kids2 VALUES (3, 77, 'no parent');
SET foreign_key_checks = 0;
ALTER TABLE kids2 ADD CONSTRAINT fk_kids2b FOREIGN KEY (parent_id) REFERENCES parents (id);
SET foreign_key_checks = 1;
SELECT id, parent_id FROM kids2 ORDER BY id;
DROP TABLE kids2;
UPDATE children SET parent_id = 42 WHERE id = 20;
UPDATE children SET parent_id = NULL WHERE id = 20;
DELETE FROM children WHERE id = 20;
SET foreign_key_checks = 0;
INSERT INTO children VALUES (40, 77, 'unchecked');
SET foreign_key_checks = 1;
SELECT id, parent_id, note FROM children WHERE id = 40;
DELETE FROM children WHERE id = 40;
-- mysql: error 3730 -- 8.4 manual 15.1.32 DROP TABLE Statement (ER_FK_CANNOT_DROP_PARENT)
DROP TABLE parents;
TRUNCATE TABLE parents;
DELETE FROM parents;
SELECT COUNT(*) FROM parents;
-- mysql: error 1824 -- 8.4 manual 15.1.20.5 FOREIGN KEY Constraints (ER_FK_CANNOT_OPEN_PARENT)
CREATE TABLE badfk (a INT, FOREIGN KEY (a) REFERENCES nosuch (id));
-- mysql: error 3780 -- 8.4 manual 15.1.20.5 FOREIGN KEY Constraints (ER_FK_INCOMPATIBLE_COLUMNS: columns must have similar types)
CREATE TABLE badfk2 (a VARCHAR(5), FOREIGN KEY (a) REFERENCES parents (id));
DROP TABLE pets;
DROP TABLE toys, children;
DROP TABLE parents;
CREATE TABLE tree (id INT PRIMARY KEY, parent INT, FOREIGN KEY (parent) REFERENCES tree (id) ON DELETE CASCADE);
INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2), (4, 1);
INSERT INTO tree VALUES (5, 6), (6, NULL);
DELETE FROM tree WHERE id = 2;
SELECT id, parent FROM tree ORDER BY id;
INSERT INTO tree VALUES (7, 7);
DELETE FROM tree WHERE id = 7;
CREATE TABLE org (id INT PRIMARY KEY, boss INT, FOREIGN KEY (boss) REFERENCES org (id) ON UPDATE CASCADE);
INSERT INTO org VALUES (1, NULL), (2, 1);
UPDATE org SET id = 10 WHERE id = 1;
CREATE TABLE owners (id INT PRIMARY KEY, code INT, tag VARCHAR(5), UNIQUE KEY (code), KEY (tag));
CREATE TABLE owned (id INT PRIMARY KEY, owner_code INT, CONSTRAINT fk_owned FOREIGN KEY (owner_code) REFERENCES owners (code) ON DELETE RESTRICT);
INSERT INTO owners VALUES (1, 100, 'a'), (2, 200, 'b');
INSERT INTO owned VALUES (1, 100), (2, NULL);
REPLACE INTO owners VALUES (1, 100, 'c');
INSERT INTO owners VALUES (3, 100, 'd') ON DUPLICATE KEY UPDATE code = 101;
UPDATE owners SET code = 201 WHERE id = 2;
SELECT id, code, tag FROM owners ORDER BY id;
-- mysql: error 1822 -- 8.4 manual 15.1.20.5 FOREIGN KEY Constraints (the referenced columns need an index: ER_FK_NO_INDEX_PARENT)
CREATE TABLE badfk3 (a INT, FOREIGN KEY (a) REFERENCES owners (id, code));
-- mysql: error 6125 -- 8.4 manual 15.1.20.5 FOREIGN KEY Constraints (restrict_fk_on_non_standard_key: a non-unique referenced key is ER_FK_NO_UNIQUE_INDEX_PARENT)
CREATE TABLE badfk4 (a VARCHAR(5), FOREIGN KEY (a) REFERENCES owners (tag));
CREATE TABLE inline_ref (a INT REFERENCES owners (id));
-- mysql: ok; affected 1; insert_id 0; warnings none -- 8.4 manual 15.1.20.5 FOREIGN KEY Constraints (MySQL parses and ignores inline REFERENCES specifications)
INSERT INTO inline_ref VALUES (999);

-- ---------------------------------------------------------------- AUTO_INCREMENT
CREATE TABLE seq (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5)) AUTO_INCREMENT = 100;
INSERT INTO seq (v) VALUES ('a');
INSERT INTO seq (v) VALUES ('b'), ('c');
SELECT LAST_INSERT_ID();
INSERT INTO seq (id, v) VALUES (200, 'd');
SELECT LAST_INSERT_ID();
INSERT INTO seq (v) VALUES ('e');
INSERT INTO seq (id, v) VALUES (0, 'f');
INSERT INTO seq (id, v) VALUES (NULL, 'g');
INSERT INTO seq (id, v) VALUES (-5, 'neg');
-- Mixed explicit and generated ids in one INSERT are left out: their gaps depend on
-- innodb_autoinc_lock_mode, 2 in MySQL 8.4 and 1 in MariaDB 10.11.
INSERT INTO seq (id, v) VALUES (300, 'i');
INSERT INTO seq (v) VALUES ('h'), ('j');
SELECT id, v FROM seq ORDER BY id;
INSERT INTO seq (id, v) VALUES (300, 'dup');
INSERT INTO seq (v) VALUES ('k');
DELETE FROM seq WHERE id >= 200;
INSERT INTO seq (v) VALUES ('l');
SELECT MAX(id) FROM seq;
ALTER TABLE seq AUTO_INCREMENT = 500;
INSERT INTO seq (v) VALUES ('m');
ALTER TABLE seq AUTO_INCREMENT = 10;
INSERT INTO seq (v) VALUES ('n');
-- mysql: row seq|'CREATE TABLE `seq` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `v` varchar(5) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB AUTO_INCREMENT=502 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.1.20 CREATE TABLE Statement (AUTO_INCREMENT table option)
SHOW CREATE TABLE seq;
INSERT IGNORE INTO seq (id, v) VALUES (500, 'dup');
SELECT LAST_INSERT_ID(42);
SELECT LAST_INSERT_ID();
UPDATE seq SET v = 'u' WHERE id = LAST_INSERT_ID(501);
SELECT LAST_INSERT_ID();
INSERT INTO seq (v) VALUES ('o');
SELECT LAST_INSERT_ID();
TRUNCATE TABLE seq;
INSERT INTO seq (v) VALUES ('p');
SELECT id, v FROM seq;
DELETE FROM seq;
INSERT INTO seq (v) VALUES ('q');
SELECT id, v FROM seq;
CREATE TABLE seq_big (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, v INT);
INSERT INTO seq_big (id, v) VALUES (18446744073709551610, 1);
INSERT INTO seq_big (v) VALUES (2);
SELECT id, v FROM seq_big ORDER BY id;
CREATE TABLE seq_two (id INT AUTO_INCREMENT PRIMARY KEY, other INT AUTO_INCREMENT);
CREATE TABLE seq_default (id INT AUTO_INCREMENT PRIMARY KEY DEFAULT 5);

-- ---------------------------------------------------------------- generated columns
CREATE TABLE gen (
  id INT PRIMARY KEY,
  price DECIMAL(10,2),
  qty INT,
  total DECIMAL(12,2) AS (price * qty) STORED,
  label VARCHAR(30) GENERATED ALWAYS AS (CONCAT('item-', id)) VIRTUAL,
  KEY idx_total (total)
);
-- mysql: row gen|'CREATE TABLE `gen` (\n  `id` int NOT NULL,\n  `price` decimal(10,2) DEFAULT NULL,\n  `qty` int DEFAULT NULL,\n  `total` decimal(12,2) GENERATED ALWAYS AS ((`price` * `qty`)) STORED,\n  `label` varchar(30) GENERATED ALWAYS AS (concat(_utf8mb4\'item-\',`id`)) VIRTUAL,\n  PRIMARY KEY (`id`),\n  KEY `idx_total` (`total`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' -- 8.4 manual 15.1.20.8 CREATE TABLE and Generated Columns
SHOW CREATE TABLE gen;
INSERT INTO gen (id, price, qty) VALUES (1, 2.50, 4), (2, 10, NULL);
SELECT id, price, qty, total, label FROM gen ORDER BY id;
-- mysql: error 3105 -- 8.4 manual 15.1.20.8 CREATE TABLE and Generated Columns (ER_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN)
INSERT INTO gen (id, price, qty, total) VALUES (3, 1, 1, 5);
INSERT INTO gen (id, price, qty, total) VALUES (3, 1, 1, DEFAULT);
INSERT INTO gen VALUES (4, 2, 2, DEFAULT, DEFAULT);
UPDATE gen SET qty = 10 WHERE id = 1;
-- mysql: error 3105 -- 8.4 manual 15.1.20.8 CREATE TABLE and Generated Columns
UPDATE gen SET total = 1;
SELECT id, total, label FROM gen ORDER BY id;
SELECT id FROM gen WHERE total > 20;
SELECT id FROM gen WHERE label = 'item-3';
CREATE TABLE gen_bad (a INT, b INT AS (a + nosuch));
-- mysql: error 3763 -- 8.4 manual 15.1.20.8 CREATE TABLE and Generated Columns (nondeterministic built-in functions are not permitted; ER_GENERATED_COLUMN_NAMED_FUNCTION_IS_NOT_ALLOWED)
CREATE TABLE gen_rand (a INT, b DOUBLE AS (RAND()));
CREATE TABLE gen_overflow (a TINYINT, b TINYINT AS (a * 100) STORED);
INSERT INTO gen_overflow (a) VALUES (1);
INSERT INTO gen_overflow (a) VALUES (2);
SELECT a, b FROM gen_overflow;
