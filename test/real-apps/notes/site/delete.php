<?php
declare(strict_types=1);
require __DIR__ . '/lib.php';

$user = signed_in_user();
if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    header('Location: index.php');
    exit;
}
$id = (int) ($_POST['id'] ?? 0);
if (note($id) === null) not_found("There is no note $id.", $user);
db()->prepare('DELETE FROM notes WHERE id = ?')->execute([$id]);
flash("Note $id deleted.");
header('Location: index.php');
