<?php
declare(strict_types=1);
require __DIR__ . '/lib.php';

$user = signed_in_user();
$id = (int) ($_GET['id'] ?? 0);
$note = note($id);
if ($note === null) not_found("There is no note $id.", $user);
page_start($note['title'], $user);
echo '<h1>' . h($note['title']) . '</h1>';
echo '<p>Note ' . h((string) $note['id']) . ' by ' . h($note['author']) . ', updated ' . h($note['updated_at']) . '</p>';
// The body is the editor's HTML, shown as it was saved.
echo '<article aria-label="Body">' . $note['body'] . '</article>';
echo '<p><a href="edit.php?id=' . $id . '">Edit</a></p>';
echo '<form method="post" action="delete.php" onsubmit="return confirm(\'Delete this note for good?\')">';
echo '<input type="hidden" name="id" value="' . $id . '"><button type="submit">Delete</button></form>';
page_end();
