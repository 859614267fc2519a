<?php
// COM_STMT_SEND_LONG_DATA from PHP: mysqli's send_long_data in chunks (a BLOB
// with NUL bytes, a TEXT, an INT sent as long data), and PDO with native
// prepares binding a stream as a LOB. Prints one JSON object of what it read back.
// usage: php longdata.php PORT
mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
$port = (int)$argv[1];
$out = [];

$db = new mysqli('127.0.0.1', 'root', '', 'ld', $port);
$st = $db->prepare('INSERT INTO ld (id, b, t, n) VALUES (?, ?, ?, ?)');
$id = 1; $null = null;
$st->bind_param('ibbb', $id, $null, $null, $null);
$blob = str_repeat("\x00\x01binlite\xff", 30000); // 300 KB in 3 chunks
foreach (str_split($blob, 100000) as $chunk) {
    $st->send_long_data(1, $chunk);
}
$st->send_long_data(2, 'caf');
$st->send_long_data(2, "\u{e9} long text");
$st->send_long_data(3, '42');
$st->execute();
$out['mysqli_affected'] = $st->affected_rows;
$st->close();
// A long data parameter is used once: the next execute without it binds what
// bind_param says (NULL here).
$st = $db->prepare('INSERT INTO ld (id, b) VALUES (?, ?)');
$id = 2; $b = null;
$st->bind_param('ib', $id, $b);
$st->execute();
$st->close();
$r = $db->query('SELECT id, LENGTH(b), MD5(b), t, n, b IS NULL FROM ld ORDER BY id');
$out['mysqli_rows'] = $r->fetch_all();
$out['blob_md5'] = md5($blob);

$pdo = new PDO("mysql:host=127.0.0.1;port=$port;dbname=ld", 'root', '', [PDO::ATTR_EMULATE_PREPARES => false, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$fp = fopen('php://memory', 'r+');
fwrite($fp, "pdo\x00stream" . str_repeat('z', 70000));
rewind($fp);
$st = $pdo->prepare('INSERT INTO ld (id, b) VALUES (?, ?)');
$st->bindValue(1, 3, PDO::PARAM_INT);
$st->bindParam(2, $fp, PDO::PARAM_LOB);
$st->execute();
$q = $pdo->prepare('SELECT LENGTH(b), SUBSTRING(b, 1, 10) FROM ld WHERE id = ?');
$q->execute([3]);
$row = $q->fetch(PDO::FETCH_NUM);
$out['pdo_len'] = (int)$row[0];
$out['pdo_head'] = bin2hex($row[1]);
echo json_encode($out), "\n";
