<?php
declare(strict_types=1);
require __DIR__ . '/lib.php';

$user = signed_in_user();
$notes = db()->query('SELECT id, title, author, updated_at FROM notes ORDER BY id')->fetchAll();
page_start('Notes', $user);
echo '<h1>Notes</h1><p><a href="edit.php">New note</a></p>';
echo '<table><caption>All notes</caption><thead><tr><th>Id</th><th>Title</th><th>Author</th><th>Updated</th></tr></thead><tbody>';
foreach ($notes as $note) {
    echo '<tr><td>' . h((string) $note['id']) . '</td><td><a href="view.php?id=' . h((string) $note['id']) . '">' . h($note['title'])
        . '</a></td><td>' . h($note['author']) . '</td><td>' . h($note['updated_at']) . '</td></tr>';
}
echo '</tbody></table>';
page_end();
