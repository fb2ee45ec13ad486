<?php
declare(strict_types=1);
require __DIR__ . '/lib.php';

$user = signed_in_user();
$id = isset($_GET['id']) ? (int) $_GET['id'] : null;
$note = $id === null ? ['title' => '', 'body' => ''] : note($id);
if ($note === null) not_found("There is no note $id.", $user);
$error = null;
if ($_SERVER['REQUEST_METHOD'] === 'POST') {
    $title = trim($_POST['title'] ?? '');
    $body = $_POST['body'] ?? '';
    if ($title === '') {
        $error = 'A note needs a title.';
        $note = ['title' => $title, 'body' => $body];
    } elseif ($id === null) {
        db()->prepare('INSERT INTO notes (title, body, author, updated_at) VALUES (?, ?, ?, NOW())')
            ->execute([$title, $body, $user['name']]);
        $id = (int) db()->lastInsertId();
        flash("Note $id created.");
        header("Location: view.php?id=$id");
        exit;
    } else {
        db()->prepare('UPDATE notes SET title = ?, body = ?, author = ?, updated_at = NOW() WHERE id = ?')
            ->execute([$title, $body, $user['name'], $id]);
        flash('Note saved.');
        header("Location: view.php?id=$id");
        exit;
    }
}
$heading = $id === null ? 'New note' : 'Edit note';
page_start($heading, $user);
echo '<h1>' . $heading . '</h1>';
if ($error) echo '<p role="alert">' . h($error) . '</p>';
$action = $id === null ? 'edit.php' : "edit.php?id=$id";
echo '<form method="post" action="' . h($action) . '">';
echo '<p><label for="title">Title</label> <input id="title" name="title" size="60" value="' . h($note['title']) . '"></p>';
echo '<p><label for="body">Body</label></p><textarea id="body" name="body" rows="10" cols="80">' . h($note['body']) . '</textarea>';
echo '<p><button type="submit">Save</button></p></form>';
// CKEditor 4 from Debian's ckeditor package: the classic editor, whose editable is an iframe.
echo '<script src="ckeditor/ckeditor.js"></script>';
echo "<script>CKEDITOR.replace('body', { height: 200, removePlugins: 'elementspath' });</script>";
page_end();
