-- views and triggers: CREATE/ALTER/DROP VIEW, reads through views (joins, WHERE
-- on a view's columns, views of views, aggregates) and their result types, SHOW
-- CREATE VIEW, SHOW FULL TABLES, information_schema.VIEWS; CREATE/DROP TRIGGER
-- with NEW and OLD (pt-online-schema-change's three), SHOW TRIGGERS and the
-- errors MySQL gives.
-- MySQL 8.4 reference: https://dev.mysql.com/doc/refman/8.4/en/views.html, https://dev.mysql.com/doc/refman/8.4/en/triggers.html

-- ---------------------------------------------------------------- views
CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10), d DECIMAL(6,2));
CREATE TABLE u (a INT PRIMARY KEY, note VARCHAR(20));
INSERT INTO t VALUES (1, 'one', 1.50), (2, 'two', 2.25), (3, 'three', NULL);
INSERT INTO u VALUES (1, 'x'), (3, 'z');
CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1;
CREATE VIEW vj (id, name, note) AS SELECT t.a, t.b, u.note FROM t JOIN u ON u.a = t.a;
CREATE VIEW vv AS SELECT b FROM v WHERE a < 3;
CREATE VIEW agg AS SELECT COUNT(*) AS n, SUM(d) AS total, MAX(b) AS top FROM t;
SELECT * FROM v ORDER BY a;
SELECT b FROM v WHERE a = 3;
SELECT id, name, note FROM vj ORDER BY id;
SELECT * FROM vv;
SELECT n, total, top FROM agg;
SELECT v.b, u.note FROM v LEFT JOIN u ON u.a = v.a ORDER BY v.a;
SELECT COUNT(*) FROM v;
-- mysql: row v|'CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `v` AS select `t`.`a` AS `a`,`t`.`b` AS `b` from `t` where (`t`.`a` > 1)'|utf8mb4|utf8mb4_general_ci -- 8.4 manual 15.7.7.13 SHOW CREATE VIEW (MySQL parenthesizes the WHERE condition)
SHOW CREATE VIEW v;
SHOW FULL TABLES;
-- mysql: column 2 STRING -- 8.4 manual 28.3.38 INFORMATION_SCHEMA.TABLES (TABLE_TYPE is an ENUM)
SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME;
-- mysql: column 2 STRING -- 8.4 manual 28.3.48 INFORMATION_SCHEMA.VIEWS (CHECK_OPTION is an ENUM)
SELECT TABLE_NAME, CHECK_OPTION, SECURITY_TYPE FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME;
CREATE VIEW t AS SELECT 1;
CREATE TABLE v (x INT);
-- mysql: error 1347 -- 8.4 manual 15.1.35 DROP VIEW (ER_WRONG_OBJECT: 'db.t' is not VIEW)
DROP VIEW t;
-- mysql: error 1051 -- 8.4 manual 15.1.32 DROP TABLE (a view is an unknown table)
DROP TABLE v;
CREATE VIEW bad AS SELECT * FROM nosuch;
CREATE VIEW bad AS SELECT nosuch FROM t;
CREATE VIEW bad (x) AS SELECT a, b FROM t;
CREATE OR REPLACE VIEW v AS SELECT a FROM t WHERE a = 1;
SELECT * FROM v;
ALTER VIEW v AS SELECT b FROM t WHERE a = 2;
SELECT * FROM v;
ALTER VIEW nosuch AS SELECT 1;
-- mysql: ok; affected 0; warnings 1051 -- 8.4 manual 15.1.35 DROP VIEW (IF EXISTS: a note for each missing view)
DROP VIEW IF EXISTS vv, nosuch;
-- mysql: error 1051 -- 8.4 manual 15.1.35 DROP VIEW (ER_BAD_TABLE_ERROR)
DROP VIEW vv;

-- ---------------------------------------------------------------- triggers
CREATE TABLE src (id INT AUTO_INCREMENT PRIMARY KEY, c VARCHAR(20), n INT);
CREATE TABLE _src_new (id INT AUTO_INCREMENT PRIMARY KEY, c VARCHAR(20), n INT, x INT);
CREATE TABLE audit (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(10), k INT);
INSERT INTO src (c, n) VALUES ('a', 1), ('b', 2);
CREATE TRIGGER pt_del AFTER DELETE ON src FOR EACH ROW DELETE IGNORE FROM _src_new WHERE _src_new.id <=> OLD.id;
CREATE TRIGGER pt_ins AFTER INSERT ON src FOR EACH ROW REPLACE INTO _src_new (id, c, n) VALUES (NEW.id, NEW.c, NEW.n);
CREATE TRIGGER pt_upd AFTER UPDATE ON src FOR EACH ROW REPLACE INTO _src_new (id, c, n) VALUES (NEW.id, NEW.c, NEW.n);
CREATE TRIGGER pt_upd2 AFTER UPDATE ON src FOR EACH ROW INSERT INTO audit (what, k) VALUES ('upd', NEW.id);
INSERT IGNORE INTO _src_new (id, c, n) SELECT id, c, n FROM src;
INSERT INTO src (c, n) VALUES ('c', 3), ('d', 4);
UPDATE src SET n = n * 10 WHERE id <= 2;
DELETE FROM src WHERE id = 4;
SELECT * FROM src ORDER BY id;
SELECT * FROM _src_new ORDER BY id;
SELECT what, k FROM audit ORDER BY id;
-- mysql: columns VAR_STRING STRING VAR_STRING LONG+unsigned STRING BLOB -- 8.4 manual 28.3.45 INFORMATION_SCHEMA.TRIGGERS (EVENT_MANIPULATION and ACTION_TIMING are ENUMs, ACTION_ORDER INT UNSIGNED)
SELECT TRIGGER_NAME, EVENT_MANIPULATION, EVENT_OBJECT_TABLE, ACTION_ORDER, ACTION_TIMING, ACTION_STATEMENT FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() ORDER BY TRIGGER_NAME;
CREATE TRIGGER pt_ins AFTER INSERT ON src FOR EACH ROW DELETE FROM audit;
CREATE TRIGGER bad AFTER INSERT ON src FOR EACH ROW DELETE FROM audit WHERE k = OLD.id;
CREATE TRIGGER bad AFTER DELETE ON src FOR EACH ROW DELETE FROM audit WHERE k = NEW.id;
CREATE TRIGGER bad AFTER INSERT ON nosuch FOR EACH ROW DELETE FROM audit;
CREATE TRIGGER bad AFTER INSERT ON v FOR EACH ROW DELETE FROM audit;
CREATE TRIGGER bad AFTER INSERT ON src FOR EACH ROW SELECT 1;
CREATE TRIGGER bad AFTER INSERT ON src FOR EACH ROW SET NEW.n = 1;
DROP TRIGGER pt_upd2;
DROP TRIGGER pt_upd2;
DROP TRIGGER IF EXISTS pt_upd2;
UPDATE src SET n = 7 WHERE id = 1;
SELECT COUNT(*) FROM audit;
DROP TRIGGER pt_del;
DROP TRIGGER pt_ins;
DROP TRIGGER pt_upd;
SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE();
